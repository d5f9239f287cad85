"""Experiments 2a and 2b of Abdalla et al.: are a name's own diagnoses at a different distance from it?

A name's vector is the mean of its tokens' vectors, a diagnosis's the mean of its words'. For each subject
(a patient whose whole name is in the vocabulary) the in-group is the mean distance to their diagnoses, the
out-group the mean distance to every other diagnosis of the universe.

* 2a, population level: Wilcoxon signed-rank test over the subjects' (in, out) pairs (scipy.stats.wilcoxon).
* 2b, patient level: per subject, a permutation test of in- against out-group distances (random in-groups of
  the same size, scipy.stats.permutation_test), then Holm-Bonferroni across subjects (statsmodels).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.spatial.distance import cdist
from scipy.stats import permutation_test, wilcoxon
from statsmodels.stats.multitest import multipletests

from anonymed.audit.data import AuditData, Patient
from anonymed.audit.embedding import Embedding


@dataclass(frozen=True, eq=False)
class Distances:
    """Subjects x diagnoses: distances and membership (True where the diagnosis is the subject's)."""

    subjects: tuple[Patient, ...]
    diagnoses: tuple[str, ...]
    matrix: npt.NDArray[np.float64]
    member: npt.NDArray[np.bool_]


def name_diagnosis_distances(embedding: Embedding, data: AuditData, metric: str) -> Distances:
    """The distance matrix between subjects' name vectors and the diagnoses that have a vector."""
    kept, diag_vectors = [], []
    for diagnosis in data.diagnoses:
        vector = embedding.mean_vector(diagnosis.split())
        if vector is not None:
            kept.append(diagnosis)
            diag_vectors.append(vector)
    column = {d: i for i, d in enumerate(kept)}
    subjects, name_vectors = [], []
    for patient in data.patients:
        own = sum(1 for d in patient.diagnoses if d in column)
        vector = embedding.mean_vector(patient.name)
        if vector is None or not all(t in embedding for t in patient.name) or not 0 < own < len(kept):
            continue
        subjects.append(patient)
        name_vectors.append(vector)
    member = np.zeros((len(subjects), len(kept)), dtype=bool)
    for row, patient in enumerate(subjects):
        member[row, [column[d] for d in patient.diagnoses if d in column]] = True
    if not subjects:
        matrix = np.zeros((0, len(kept)))
    else:
        matrix = cdist(np.vstack(name_vectors), np.vstack(diag_vectors), metric=metric)
    return Distances(tuple(subjects), tuple(kept), np.asarray(matrix, dtype=np.float64), member)


def group_means(distances: Distances) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Per subject, the mean in-group and mean out-group distance."""
    member, matrix = distances.member, distances.matrix
    inside = (matrix * member).sum(axis=1) / member.sum(axis=1)
    outside = (matrix * ~member).sum(axis=1) / (~member).sum(axis=1)
    return inside, outside


@dataclass(frozen=True)
class PopulationResult:
    """Experiment 2a: mean in- and out-group distances, their mean difference, Wilcoxon's test."""

    subjects: int
    in_group: float
    out_group: float
    difference: float
    statistic: float
    p_value: float

    def to_json(self) -> dict[str, Any]:
        """Plain JSON."""
        return asdict(self)


def population_test(distances: Distances) -> PopulationResult:
    """Wilcoxon signed-rank test of in- against out-group distance across subjects (two-sided)."""
    size = len(distances.subjects)
    if size == 0:
        return PopulationResult(0, math.nan, math.nan, math.nan, math.nan, 1.0)
    inside, outside = group_means(distances)
    difference = inside - outside
    if size < 2 or not np.any(difference != 0):
        statistic, p_value = math.nan, 1.0
    else:
        test = wilcoxon(inside, outside)
        statistic, p_value = float(test.statistic), float(test.pvalue)
    return PopulationResult(
        size, float(inside.mean()), float(outside.mean()), float(difference.mean()), statistic, p_value
    )


@dataclass(frozen=True)
class PatientResult:
    """Experiment 2b: subjects whose in-group differs significantly after Holm-Bonferroni."""

    subjects: int
    significant: int
    permutations: int
    alpha: float

    @property
    def share(self) -> float:
        """Significant / subjects."""
        return self.significant / self.subjects if self.subjects else 0.0

    def to_json(self) -> dict[str, Any]:
        """Plain JSON."""
        return {**asdict(self), "share": self.share}


def resamples_needed(subjects: int, permutations: int, alpha: float) -> int:
    """At least ``permutations``, and enough that Holm over ``subjects`` tests can reject (2 S / alpha).

    The smallest permutation p-value is 1 / (R + 1); Holm needs the smallest below alpha / S. With the
    paper's 1000 permutations no patient can be significant once there are more than 50 of them.
    """
    return max(permutations, math.ceil(2 * subjects / alpha))


def patient_tests(
    distances: Distances, permutations: int, alpha: float, rng: np.random.Generator
) -> PatientResult:
    """Per subject: permutation p-value of mean(in) - mean(out); Holm across subjects."""
    size = len(distances.subjects)
    resamples = resamples_needed(size, permutations, alpha)
    if size == 0:
        return PatientResult(0, 0, resamples, alpha)
    p_values = [
        _permutation_p(row[member], row[~member], resamples, rng)
        for row, member in zip(distances.matrix, distances.member, strict=True)
    ]
    rejected = multipletests(p_values, alpha=alpha, method="holm")[0]
    return PatientResult(size, int(np.sum(rejected)), resamples, alpha)


def _difference(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], axis: int) -> Any:
    return np.mean(x, axis=axis) - np.mean(y, axis=axis)


def _permutation_p(
    inside: npt.NDArray[np.float64],
    outside: npt.NDArray[np.float64],
    resamples: int,
    rng: np.random.Generator,
) -> float:
    if len(inside) < 2 or len(outside) < 2:  # scipy needs two observations per group: not significant
        return 1.0
    result = permutation_test((inside, outside), _difference, vectorized=True, n_resamples=resamples, rng=rng)
    return float(result.pvalue)
