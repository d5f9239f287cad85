"""The neighbour table: exact nearest candidates, never the word itself, only hygienic words."""

from __future__ import annotations

import numpy as np
import pytest

from anonymed.embeddings import Space
from anonymed.embeddings.neighbours import build_table, check_table, normalised
from anonymed.embeddings.vocab import casefold_groups
from anonymed.errors import ConfigError, ResourceError


def test_table_is_int32_vocab_by_n_max(fasttext_space: Space) -> None:
    table = fasttext_space.neighbours
    assert table.dtype == np.int32
    assert table.shape == (len(fasttext_space.tokens), 6)


def test_no_word_is_its_own_neighbour(fasttext_space: Space) -> None:
    table = np.asarray(fasttext_space.neighbours)
    assert not np.any(table == np.arange(len(table))[:, None])


def test_every_neighbour_is_a_candidate(fasttext_space: Space) -> None:
    assert set(np.unique(fasttext_space.neighbours).tolist()) <= set(fasttext_space.candidates.tolist())


def test_rows_are_the_exact_nearest_candidates_in_order(fasttext_space: Space) -> None:
    unit = normalised(fasttext_space.vectors)
    candidates = fasttext_space.candidates
    for word, row in enumerate(np.asarray(fasttext_space.neighbours)):
        scores = unit[candidates] @ unit[word]
        allowed = fasttext_space.groups[candidates] != fasttext_space.groups[word]
        best = np.sort(scores[allowed])[::-1][: len(row)]
        got = unit[row] @ unit[word]
        assert np.allclose(got, best, atol=1e-5)


def test_casefold_twins_never_replace_each_other() -> None:
    # "strasse" and "stras\u017fe"-like twins: same casefold, so excluded from each other's rows
    tokens = ["strasse", "STRASSE".lower(), "knee", "hip", "leg", "arm"]
    tokens[1] = "straße"
    groups = casefold_groups(tokens)
    assert groups[0] == groups[1]
    vectors = np.eye(6, dtype=np.float32) + 0.01
    vectors[1] = vectors[0]  # identical vectors: nearest of each other if allowed
    table = build_table(vectors, np.arange(6, dtype=np.int32), groups, 3)
    assert 1 not in table[0] and 0 not in table[1]


def test_too_few_candidates_is_a_config_error() -> None:
    vectors = np.random.default_rng(0).normal(size=(5, 4)).astype(np.float32)
    with pytest.raises(ConfigError):
        build_table(vectors, np.arange(3, dtype=np.int32), np.arange(5, dtype=np.int32), 5)


def test_a_table_listing_a_word_as_its_own_neighbour_is_rejected() -> None:
    table = np.array([[1, 2], [0, 1], [0, 1]], dtype=np.int32)  # row 1 lists word 1
    with pytest.raises(ResourceError):
        check_table(table, np.arange(3, dtype=np.int32), np.arange(3, dtype=np.int32))


def test_a_table_listing_a_non_candidate_is_rejected() -> None:
    table = np.array([[1, 2], [0, 2], [0, 1]], dtype=np.int32)
    with pytest.raises(ResourceError):
        check_table(table, np.array([0, 1], dtype=np.int32), np.arange(3, dtype=np.int32))
