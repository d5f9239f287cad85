"""Experiment 1 of Abdalla et al.: rebuild full names by pairing name tokens that lie close together.

The attacker holds a list of name tokens (those a PHI removal missed, plus any decoys) and claims the N
closest pairs as full names, N being half the number of tokens by default (names of two tokens, no token
shared). Under random pairing the number of true names among N distinct pairs drawn from all C(T, 2)
pairs is hypergeometric, which gives the p-value (scipy.stats.hypergeom).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from scipy.spatial.distance import pdist
from scipy.stats import hypergeom

from anonymed.audit.data import AuditData
from anonymed.audit.embedding import Embedding


@dataclass(frozen=True)
class NameResult:
    """Experiment 1: ``found`` true names among the ``expected`` closest pairs of ``tokens`` name tokens."""

    tokens: int
    expected: int
    found: int
    true_pairs: int
    pairs: int
    chance: float
    p_value: float

    @property
    def share(self) -> float:
        """Found / expected (the paper's percentage, as a fraction)."""
        return self.found / self.expected if self.expected else 0.0

    @property
    def lift(self) -> float:
        """Found / expected by chance (1 is chance level; 0 when chance is 0)."""
        return self.found / self.chance if self.chance > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """Plain JSON."""
        return {**asdict(self), "share": self.share, "lift": self.lift}


def reconstruct_names(
    embedding: Embedding, data: AuditData, metric: str, expected: int | None = None
) -> NameResult:
    """Pair the attacker's in-vocabulary name tokens by ``metric`` distance and count true full names."""
    tokens = [t for t in data.candidates if t in embedding]
    size = len(tokens)
    pairs = size * (size - 1) // 2
    truth = data.true_pairs()
    claims = min(pairs, expected if expected is not None else size // 2)
    if claims <= 0:
        return NameResult(size, 0, 0, 0, pairs, 0.0, 1.0)
    left, right = np.triu_indices(size, k=1)  # the order of pdist's condensed vector
    is_true = np.fromiter(
        ((tokens[i], tokens[j]) in truth for i, j in zip(left.tolist(), right.tolist(), strict=True)),
        dtype=bool,
        count=pairs,
    )
    distances = pdist(embedding.vectors[embedding.rows(tokens)], metric=metric)
    closest = np.argsort(distances, kind="stable")[:claims]
    found = int(is_true[closest].sum())
    true_pairs = int(is_true.sum())
    p_value = float(hypergeom.sf(found - 1, pairs, true_pairs, claims))
    return NameResult(size, claims, found, true_pairs, pairs, claims * true_pairs / pairs, min(1.0, p_value))
