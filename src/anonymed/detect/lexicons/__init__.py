"""Dictionary and context recognizers for names and places; the detector is
``anonymed.detect.lexicons.detector.LexiconDetector``."""
