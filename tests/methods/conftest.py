"""A tiny sentence bank for the methods tests (Doc2Vec on a few synthetic notes: seconds, once a session)."""

from __future__ import annotations

from pathlib import Path

import pytest

from anonymed.sentences.bank_build import BankParams, build_bank
from anonymed.sentences.encoders import Doc2VecParams

#: synthetic notes without PHI (the bank is not scrubbed, to stay fast)
BANK_NOTES = [
    "The patient was admitted after a fall. She was seen in the emergency room. Vital signs were stable.",
    "He was discharged home. The wound was clean and dry. Follow up in two weeks. Pain was controlled.",
    "The knee was examined. No fracture was seen. The family was updated. Plan to continue therapy.",
    "The abdomen was soft. Bowel sounds were present. She tolerated the procedure without complication.",
]


@pytest.fixture(scope="session")
def bank(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A saved bank folder of the sentences of ``BANK_NOTES``."""
    params = BankParams(doc2vec=Doc2VecParams(vector_size=16, epochs=5, infer_epochs=5, seed=3), scrub=False)
    return build_bank(BANK_NOTES, params).save(tmp_path_factory.mktemp("methods") / "bank")
