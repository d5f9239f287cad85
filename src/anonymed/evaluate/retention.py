"""Clinical information retention: does a clinical classifier see the same note after anonymization?

For one note, with ``p`` the classifier's softmax probabilities on the original and ``q`` on the anonymized
text (one value per category):

* JSC@k: Jaccard similarity ``|T_k(p) & T_k(q)| / |T_k(p) | T_k(q)|`` of the top-k categories of each
  (ties broken by category order).
* NSDCG@k: ``DCG(q) / DCG(p)`` where ``DCG(r) = sum_{i=1..k} p[r_i] / log2(i + 1)`` and ``r_1, r_2, ...``
  are the categories ranked by ``r``: the anonymized note's ranking scored with the original's probabilities
  as relevance, divided by the ideal (the original's own ranking). ``k = None`` ranks every category.
* top-1 agreement: whether the most probable category is unchanged.

Scores are averaged over notes; every one lies in [0, 1] and is 1 when nothing changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from anonymed.errors import ConfigError
from anonymed.evaluate.scores import rounded

FloatArray = npt.NDArray[np.float64]


class Classifier(Protocol):
    """Anything that gives class probabilities for texts (``SpecialtyClassifier`` does)."""

    def predict_proba(self, texts: Sequence[str]) -> FloatArray:
        """One row of probabilities per text."""
        ...


@dataclass(frozen=True)
class RetentionParams:
    """Cut-offs of the retention metrics."""

    k: int = 3
    ndcg_k: int | None = None

    def __post_init__(self) -> None:
        if self.k < 1 or (self.ndcg_k is not None and self.ndcg_k < 1):
            raise ConfigError(f"k and ndcg_k must be >= 1, got k={self.k!r}, ndcg_k={self.ndcg_k!r}")


def _ranking(probabilities: FloatArray) -> npt.NDArray[np.int64]:
    """Categories by decreasing probability, ties by category order (one row per note)."""
    ranked: npt.NDArray[np.int64] = np.argsort(-probabilities, axis=-1, kind="stable")
    return ranked


def jaccard_top_k(original: FloatArray, anonymized: FloatArray, k: int) -> FloatArray:
    """JSC@k per note (rows of probabilities; a 1-D pair gives a 0-D array)."""
    p, q = np.atleast_2d(original), np.atleast_2d(anonymized)
    top_p, top_q = _ranking(p)[:, :k], _ranking(q)[:, :k]
    scores = np.empty(len(p))
    for i, (a, b) in enumerate(zip(top_p.tolist(), top_q.tolist(), strict=True)):
        scores[i] = len(set(a) & set(b)) / len(set(a) | set(b))
    return scores if np.ndim(original) > 1 else scores[0]


def nsdcg(original: FloatArray, anonymized: FloatArray, k: int | None = None) -> FloatArray:
    """NSDCG@k per note (rows of probabilities; a 1-D pair gives a 0-D array)."""
    p, q = np.atleast_2d(original).astype(np.float64), np.atleast_2d(anonymized)
    depth = p.shape[1] if k is None else min(k, p.shape[1])
    discounts = 1.0 / np.log2(np.arange(2, depth + 2))
    gains = np.take_along_axis(p, _ranking(q)[:, :depth], axis=1)
    ideal = np.take_along_axis(p, _ranking(p)[:, :depth], axis=1)
    dcg, idcg = gains @ discounts, ideal @ discounts
    scores = np.divide(dcg, idcg, out=np.ones_like(dcg), where=idcg > 0)
    return scores if np.ndim(original) > 1 else scores[0]


@dataclass(frozen=True)
class RetentionReport:
    """Mean JSC, NSDCG and top-1 agreement over the notes."""

    jsc: float | None
    nsdcg: float | None
    top1: float | None
    documents: int
    params: RetentionParams

    def to_json(self) -> dict[str, Any]:
        """The report as JSON."""
        return {
            "jsc": rounded(self.jsc),
            "nsdcg": rounded(self.nsdcg),
            "top1": rounded(self.top1),
            "documents": self.documents,
            "params": {"k": self.params.k, "ndcg_k": self.params.ndcg_k},
        }


def retention_from_probabilities(
    original: FloatArray, anonymized: FloatArray, params: RetentionParams | None = None
) -> RetentionReport:
    """The report from two aligned probability matrices (one row per note)."""
    params = params or RetentionParams()
    if original.shape != anonymized.shape:
        raise ConfigError(f"probability shapes differ: {original.shape} vs {anonymized.shape}")
    if len(original) == 0:
        return RetentionReport(None, None, None, 0, params)
    same_top = _ranking(original)[:, 0] == _ranking(anonymized)[:, 0]
    return RetentionReport(
        jsc=float(jaccard_top_k(original, anonymized, params.k).mean()),
        nsdcg=float(nsdcg(original, anonymized, params.ndcg_k).mean()),
        top1=float(same_top.mean()),
        documents=len(original),
        params=params,
    )


def evaluate_retention(
    classifier: Classifier,
    originals: Sequence[str],
    anonymized: Sequence[str],
    params: RetentionParams | None = None,
) -> RetentionReport:
    """Classify each original and its anonymized version, then compare (texts aligned by position)."""
    if len(originals) != len(anonymized):
        raise ConfigError(f"{len(originals)} originals but {len(anonymized)} anonymized texts")
    if not originals:
        return retention_from_probabilities(np.zeros((0, 1)), np.zeros((0, 1)), params)
    return retention_from_probabilities(
        classifier.predict_proba(list(originals)), classifier.predict_proba(list(anonymized)), params
    )


__all__ = [
    "Classifier",
    "RetentionParams",
    "RetentionReport",
    "evaluate_retention",
    "jaccard_top_k",
    "nsdcg",
    "retention_from_probabilities",
]
