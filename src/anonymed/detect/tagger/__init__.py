"""The trained PHI tagger (a CRF stacked on the rule detectors); the detector is
``anonymed.detect.tagger.detector.TaggerDetector``."""
