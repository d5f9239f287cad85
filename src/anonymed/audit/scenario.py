"""Experiment 3 of Abdalla et al.: the scenario attack, target diagnoses guessed from distances alone.

The attacker picks target diagnoses and, for each name, predicts the five targets farthest from it (the
paper's finding: own diagnoses lie farther) or nearest to it. A@1 counts names whose first guess is one of
their diagnoses, A@5 names with a hit among the five. The majority baseline guesses the targets most
patients have; chance is the expectation of a random ranking. Repeated over random target sets (the paper:
1000 sets of 30 among diagnoses held by at least 10 patients); the paper reports how often the attack
beats the majority baseline.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.stats import hypergeom

from anonymed.audit.association import Distances


@dataclass(frozen=True)
class Accuracy:
    """Top-1 and top-k accuracy (or, for ``beats``, the share of target sets where the attack won)."""

    top1: float
    top5: float


@dataclass(frozen=True)
class ScenarioResult:
    """Experiment 3 over ``sets`` target sets of ``targets`` diagnoses out of ``eligible``."""

    eligible: int
    targets: int
    sets: int
    patients: float
    farthest: Accuracy
    nearest: Accuracy
    majority: Accuracy
    chance: Accuracy
    farthest_beats: Accuracy
    nearest_beats: Accuracy

    def to_json(self) -> dict[str, Any]:
        """Plain JSON."""
        return asdict(self)


_EMPTY = Accuracy(0.0, 0.0)


def scenario_attack(
    distances: Distances,
    *,
    targets: int,
    sets: int,
    min_patients: int,
    top: int,
    rng: np.random.Generator,
    fixed: Sequence[str] = (),
) -> ScenarioResult:
    """Run the scenario over random target sets (or once over ``fixed`` target diagnoses)."""
    member = distances.member
    if fixed:
        wanted = set(fixed)
        eligible = np.asarray([i for i, d in enumerate(distances.diagnoses) if d in wanted], dtype=np.int64)
    else:
        eligible = np.flatnonzero(member.sum(axis=0) >= min_patients)
    size = min(targets, len(eligible)) if not fixed else len(eligible)
    if size < 2 or len(distances.subjects) == 0:
        return ScenarioResult(len(eligible), size, 0, 0.0, *([_EMPTY] * 6))
    count = sets if len(eligible) > size else 1
    scores = np.zeros((count, 9))
    for index in range(count):
        columns = rng.choice(eligible, size=size, replace=False) if count > 1 else eligible
        scores[index] = _one_set(distances.matrix[:, columns], member[:, columns], min(top, size))
    kept = scores[~np.isnan(scores[:, 0])]
    if len(kept) == 0:
        return ScenarioResult(len(eligible), size, 0, 0.0, *([_EMPTY] * 6))
    mean = kept.mean(axis=0)
    return ScenarioResult(
        eligible=len(eligible),
        targets=size,
        sets=len(kept),
        patients=float(mean[8]),
        farthest=Accuracy(float(mean[0]), float(mean[1])),
        nearest=Accuracy(float(mean[2]), float(mean[3])),
        majority=Accuracy(float(mean[4]), float(mean[5])),
        chance=Accuracy(float(mean[6]), float(mean[7])),
        farthest_beats=Accuracy(_beats(kept, 0, 4), _beats(kept, 1, 5)),
        nearest_beats=Accuracy(_beats(kept, 2, 4), _beats(kept, 3, 5)),
    )


def _one_set(
    matrix: npt.NDArray[np.float64], member: npt.NDArray[np.bool_], top: int
) -> npt.NDArray[np.float64]:
    """A@1 and A@top of farthest, nearest, majority and chance, and the number of patients evaluated."""
    rows = member.any(axis=1)
    if not rows.any():
        return np.full(9, np.nan)
    member, matrix = member[rows], matrix[rows]
    farthest = _hits(member, np.argsort(-matrix, axis=1, kind="stable")[:, :top])
    nearest = _hits(member, np.argsort(matrix, axis=1, kind="stable")[:, :top])
    order = np.argsort(-member.sum(axis=0), kind="stable")[:top]
    majority = _hits(member, np.broadcast_to(order, (len(member), top)))
    held = member.sum(axis=1)
    width = member.shape[1]
    chance = (float(np.mean(held / width)), float(np.mean(1 - hypergeom.pmf(0, width, held, top))))
    return np.asarray([*farthest, *nearest, *majority, *chance, float(len(member))])


def _beats(scores: npt.NDArray[np.float64], attack: int, baseline: int) -> float:
    """The share of target sets where the attack's accuracy is strictly above the baseline's."""
    return float(np.mean(scores[:, attack] > scores[:, baseline]))


def _hits(member: npt.NDArray[np.bool_], guesses: npt.NDArray[np.int64]) -> tuple[float, float]:
    hit = np.take_along_axis(member, guesses, axis=1)
    return float(hit[:, 0].mean()), float(hit.any(axis=1).mean())
