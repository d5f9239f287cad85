"""JSC and NSDCG on probability vectors computed by hand, and retention through a classifier."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pytest

from anonymed.errors import ConfigError
from anonymed.evaluate.retention import (
    RetentionParams,
    evaluate_retention,
    jaccard_top_k,
    nsdcg,
    retention_from_probabilities,
)

P = np.array([0.5, 0.3, 0.2])
REVERSED = np.array([0.2, 0.3, 0.5])


@pytest.mark.parametrize(
    ("k", "expected"),
    [
        (1, 0.0),  # {0} vs {2}
        (2, 1 / 3),  # {0, 1} vs {2, 1}: one shared of three
        (3, 1.0),  # every category on both sides
    ],
)
def test_jaccard_of_top_k_categories(k: int, expected: float) -> None:
    assert jaccard_top_k(P, REVERSED, k) == pytest.approx(expected)


def test_nsdcg_scores_the_anonymized_ranking_with_original_relevance() -> None:
    dcg = 0.2 / 1 + 0.3 / math.log2(3) + 0.5 / 2  # ranking 2, 1, 0 with p as relevance
    ideal = 0.5 / 1 + 0.3 / math.log2(3) + 0.2 / 2
    assert nsdcg(P, REVERSED) == pytest.approx(dcg / ideal)
    assert nsdcg(P, REVERSED) == pytest.approx(0.80995, abs=1e-5)


@pytest.mark.parametrize(
    ("k", "expected"),
    [
        (1, 0.2 / 0.5),  # only the top category counts
        (2, (0.2 + 0.3 / math.log2(3)) / (0.5 + 0.3 / math.log2(3))),
        (10, 0.80995),  # a cut-off beyond the categories ranks them all
    ],
)
def test_nsdcg_cut_off(k: int, expected: float) -> None:
    assert nsdcg(P, REVERSED, k) == pytest.approx(expected, abs=1e-5)


@pytest.mark.parametrize(
    ("original", "anonymized"),
    [
        ([0.5, 0.3, 0.2], [0.5, 0.3, 0.2]),  # unchanged
        ([0.6, 0.3, 0.1], [0.9, 0.08, 0.02]),  # probabilities change, ranking does not
        ([0.5, 0.5, 0.0], [0.5, 0.5, 0.0]),  # ties broken the same way on both sides
    ],
)
def test_same_ranking_scores_one(original: list[float], anonymized: list[float]) -> None:
    p, q = np.array(original), np.array(anonymized)
    assert jaccard_top_k(p, q, 2) == 1.0
    assert nsdcg(p, q) == pytest.approx(1.0)


def test_rows_are_scored_one_note_each() -> None:
    original = np.vstack([P, P])
    anonymized = np.vstack([P, REVERSED])
    assert jaccard_top_k(original, anonymized, 1).tolist() == [1.0, 0.0]
    report = retention_from_probabilities(original, anonymized, RetentionParams(k=1))
    assert report.jsc == 0.5
    assert report.top1 == 0.5
    assert report.nsdcg == pytest.approx((1 + 0.80995) / 2, abs=1e-5)


class Lookup:
    """A classifier that answers a fixed probability row per text."""

    def __init__(self, table: dict[str, list[float]]) -> None:
        self.table = table

    def predict_proba(self, texts: Sequence[str]) -> np.ndarray:
        return np.array([self.table[t] for t in texts])


def test_evaluate_retention_pairs_texts_by_position() -> None:
    classifier = Lookup({"heart": [0.7, 0.2, 0.1], "": [0.2, 0.3, 0.5], "cardiac": [0.6, 0.3, 0.1]})
    report = evaluate_retention(classifier, ["heart", "heart"], ["cardiac", ""], RetentionParams(k=1))
    assert report.documents == 2
    assert report.jsc == 0.5  # same top category for "cardiac", not for the empty note
    assert report.to_json()["params"] == {"k": 1, "ndcg_k": None}


def test_no_note_gives_undefined_scores() -> None:
    report = evaluate_retention(Lookup({}), [], [])
    assert (report.jsc, report.nsdcg, report.documents) == (None, None, 0)


def test_misaligned_inputs_are_refused() -> None:
    with pytest.raises(ConfigError):
        evaluate_retention(Lookup({"a": [1.0]}), ["a"], [])
    with pytest.raises(ConfigError):
        RetentionParams(k=0)
