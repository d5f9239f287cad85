"""Training data for anonymed's PHI tagger: corpora readers, synthetic notes and dataset assembly."""
