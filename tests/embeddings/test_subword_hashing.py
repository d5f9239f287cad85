"""Our fastText n-gram hashing must match gensim's (the vectors of unseen words depend on it)."""

from __future__ import annotations

import numpy as np
from gensim.models.fasttext import ft_ngram_hashes
from hypothesis import given, settings
from hypothesis import strategies as st

from anonymed.embeddings import Space
from anonymed.embeddings.subwords import ngram_hashes


@settings(max_examples=200)
@given(st.text(min_size=1, max_size=20), st.integers(1, 4), st.integers(0, 3))
def test_ngram_hashes_match_gensim(word: str, min_n: int, extra: int) -> None:
    assert ngram_hashes(word, min_n, min_n + extra, 2000) == list(
        ft_ngram_hashes(word, min_n, min_n + extra, 2000)
    )


def test_unseen_word_vector_is_the_mean_of_its_ngram_vectors(fasttext_space: Space) -> None:
    subwords = fasttext_space.subwords
    assert subwords is not None
    hashes = ngram_hashes("hypertensoin", subwords.min_n, subwords.max_n, subwords.ngrams.shape[0])
    expected = np.asarray(subwords.ngrams[hashes], dtype=np.float32).mean(axis=0)
    assert np.allclose(subwords.vector("hypertensoin"), expected)
