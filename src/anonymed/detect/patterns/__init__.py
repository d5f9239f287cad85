"""Regex recognizers for structured PHI (dates, contacts, identifiers, postal codes, ages); the detector
is ``anonymed.detect.patterns.detector.PatternDetector``."""
