"""The space shipped with the package: small, hygienic, and usable offline right after install."""

from __future__ import annotations

import numpy as np

from anonymed.embeddings import default_space
from anonymed.embeddings.spaces import DEFAULT_SPACE
from anonymed.embeddings.tokenize import split
from anonymed.words import WordObfuscator

NOTE = "HISTORY: Mr. Arnold Smith, 54, has alcoholic cirrhosis, HCV and variceal bleeds.\nSeen 12/03/2019."


def test_the_default_space_is_at_most_25_mb() -> None:
    assert sum(p.stat().st_size for p in DEFAULT_SPACE.iterdir()) <= 25 * 2**20


def test_the_default_space_is_fasttext_on_mtsamples_with_default_hygiene() -> None:
    space = default_space()
    assert space.meta["algorithm"] == "fasttext" and space.subwords is not None
    assert space.meta["hygiene"] == {"min_count": 5, "min_docs": 3, "by": "document"}
    assert space.n_max >= 14  # room for --n 3-14


def test_every_candidate_of_the_default_space_passes_hygiene() -> None:
    space = default_space()
    assert np.all(space.counts[space.candidates] >= 5) and np.all(space.doc_freq[space.candidates] >= 3)


def test_the_default_space_obfuscates_a_note() -> None:
    output = WordObfuscator(n="3-14", random_state=0).transform([NOTE])[0]
    before, after = split(NOTE), split(output)
    assert after.layout == before.layout
    assert all(a.lower() != b.lower() for a, b in zip(before.tokens, after.tokens, strict=True))
    assert {t.lower() for t in after.tokens if t.isalpha()} <= default_space().candidate_set
