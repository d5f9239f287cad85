"""The shipped default bank still matches its recipe: current scrubbing, replayed on a slice of MTSamples."""

from __future__ import annotations

from itertools import islice

import numpy as np

from anonymed.config import PipelineConfig
from anonymed.io.corpus import MTSAMPLES, MTSAMPLES_OPTIONS, documents, open_corpus
from anonymed.pipeline import Pipeline
from anonymed.sentences.bank_build import DEFAULT_BANK, SCRUB_DETECTORS, BankParams, collect_sentences
from anonymed.sentences.banks import key_of

#: the first notes of the shipped MTSamples (about 3 s of detection)
SLICE = 120
#: sentences of the slice that the scrubbing keeps but the full build drops, because the same normalised text
#: is flagged in a later note (recorded when the shipped bank was built; another number means it has drifted):
#: 4 for the bank rebuilt after 889b07a stopped propagating a place's kind words (5 for the build before it,
#: 6 on that build once 889b07a had changed detection)
KEPT_IN_SLICE_FLAGGED_ELSEWHERE = 4


def test_the_shipped_bank_agrees_with_current_scrubbing_on_a_slice() -> None:
    with open_corpus(MTSAMPLES, "csv", **MTSAMPLES_OPTIONS) as reader:
        notes = list(islice(documents(reader, []), SLICE))
    params = BankParams()
    scrubbing = PipelineConfig(lang=params.lang, detectors=SCRUB_DETECTORS, high_recall=params.high_recall)
    every = {key_of(s) for s in collect_sentences(notes, params).sentences}
    kept = {key_of(s) for s in collect_sentences(notes, params, Pipeline(scrubbing)).sentences}
    dropped = every - kept
    shipped = {int(k) for k in np.load(DEFAULT_BANK / "keys.npy")}
    assert len(dropped) > 100 and len(kept) > 1_000
    # a sentence that current detection drops must not be in the shipped bank (the privacy direction) ...
    assert len(dropped & shipped) == 0
    # ... and one it keeps must be there, unless flagged in a later note (the recorded number)
    assert len(kept - shipped) == KEPT_IN_SLICE_FLAGGED_ELSEWHERE
