"""Tiny spaces trained once per test session (a second or two each)."""

from __future__ import annotations

import pytest
from kneo_corpus import TINY, TINY_HYGIENE, tiny_corpus

from anonymed.obfuscate import Space, TrainParams, train_space


@pytest.fixture(scope="session")
def corpus() -> list[str]:
    """The tiny training corpus."""
    return tiny_corpus()


@pytest.fixture(scope="session")
def fasttext_space(corpus: list[str]) -> Space:
    """A fastText space (subwords for unseen words)."""
    return train_space(corpus, TINY, TINY_HYGIENE)


@pytest.fixture(scope="session")
def word2vec_space(corpus: list[str]) -> Space:
    """A Word2Vec space (unseen words by shape)."""
    params = TrainParams(algorithm="word2vec", vector_size=16, epochs=3, workers=1, n_max=6)
    return train_space(corpus, params, TINY_HYGIENE)
