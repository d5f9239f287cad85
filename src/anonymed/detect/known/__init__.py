"""Identifiers known before reading the note: the record's own (``doc.metadata["known"]``: the patient's
names, relatives, birth date, record numbers, contacts, address) and the site's rosters (clinicians,
facilities, wards and units); the detector is ``anonymed.detect.known.detector.KnownDetector``."""
