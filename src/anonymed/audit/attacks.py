"""The four attacks of Abdalla et al. (JMIR 2020) on one embedding, for one distance metric.

1. name reconstruction (``audit.names``), 2a population-level and 2b patient-level association
(``audit.association``), 3 the scenario attack (``audit.scenario``). Statistics come from scipy and
statsmodels; Holm-Bonferroni across configurations is applied by the report, which sees all of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from anonymed.audit.association import (
    PatientResult,
    PopulationResult,
    name_diagnosis_distances,
    patient_tests,
    population_test,
)
from anonymed.audit.data import AuditData
from anonymed.audit.embedding import Embedding
from anonymed.audit.names import NameResult, reconstruct_names
from anonymed.audit.scenario import ScenarioResult, scenario_attack
from anonymed.errors import ConfigError
from anonymed.randomness import RandomSource, check_random_state

METRICS = ("cosine", "cityblock")


@dataclass(frozen=True)
class AttackConfig:
    """Settings of the attacks; the defaults are the paper's.

    ``expected_names``: pairs claimed in experiment 1 (None: half the name tokens found). ``permutations``:
    random in-groups per patient in 2b (raised when too few for Holm, see ``resamples_needed``).
    ``target_sets`` sets of ``targets`` diagnoses held by at least ``min_patients`` subjects in 3, guessing
    ``top`` per name; ``fixed_targets`` runs 3 once on given diagnoses instead. ``alpha``: significance level.
    """

    expected_names: int | None = None
    permutations: int = 1000
    alpha: float = 0.05
    target_sets: int = 1000
    targets: int = 30
    min_patients: int = 10
    top: int = 5
    fixed_targets: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not 0 < self.alpha < 1:
            raise ConfigError(f"alpha must be in (0, 1), got {self.alpha!r}")
        for name in ("permutations", "target_sets", "targets", "min_patients", "top"):
            if getattr(self, name) < 1:
                raise ConfigError(f"{name} must be >= 1, got {getattr(self, name)!r}")
        if self.expected_names is not None and self.expected_names < 1:
            raise ConfigError(f"expected_names must be >= 1, got {self.expected_names!r}")


@dataclass(frozen=True)
class AttackResult:
    """The four experiments on one embedding with one metric."""

    metric: str
    names: NameResult
    population: PopulationResult
    patients: PatientResult
    scenario: ScenarioResult
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON (counts and statistics only: no name, no diagnosis)."""
        return {
            "metric": self.metric,
            **self.meta,
            "names": self.names.to_json(),
            "population": self.population.to_json(),
            "patients": self.patients.to_json(),
            "scenario": self.scenario.to_json(),
        }


def numpy_generator(rng: RandomSource) -> np.random.Generator:
    """A numpy generator seeded from ``rng`` (secure source: secure seed; seeded source: reproducible)."""
    return np.random.default_rng(rng.integers(2**63, size=4).tolist())


def run_attacks(
    embedding: Embedding,
    data: AuditData,
    metric: str = "cosine",
    config: AttackConfig | None = None,
    random_state: int | RandomSource | None = None,
    **meta: Any,
) -> AttackResult:
    """Run experiments 1, 2a, 2b and 3 on ``embedding`` against the ground truth ``data``."""
    if metric not in METRICS:
        raise ConfigError(f"metric must be one of {METRICS}, got {metric!r}")
    config = config or AttackConfig()
    rng = check_random_state(random_state)
    names = reconstruct_names(embedding, data, metric, config.expected_names)
    distances = name_diagnosis_distances(embedding, data, metric)
    population = population_test(distances)
    patients = patient_tests(distances, config.permutations, config.alpha, numpy_generator(rng.spawn("2b")))
    scenario = scenario_attack(
        distances,
        targets=config.targets,
        sets=config.target_sets,
        min_patients=config.min_patients,
        top=config.top,
        rng=numpy_generator(rng.spawn("3")),
        fixed=config.fixed_targets,
    )
    return AttackResult(metric, names, population, patients, scenario, dict(meta))
