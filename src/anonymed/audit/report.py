"""The audit report: Holm-Bonferroni across configurations, tables like the paper's, a verdict per protection.

Families for Holm (statsmodels): per protection, the experiment 1 p-values of all its configurations
(algorithm x window x metric), and likewise for experiment 2a. Experiment 2b is already corrected across
patients; experiment 3 reports accuracies against the majority baseline and chance, as the paper does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from statsmodels.stats.multitest import multipletests

from anonymed.audit.grid import GridRow


def holm(p_values: Sequence[float], alpha: float) -> list[bool]:
    """Which hypotheses Holm-Bonferroni rejects at ``alpha``."""
    if not p_values:
        return []
    return [bool(x) for x in multipletests(list(p_values), alpha=alpha, method="holm")[0]]


@dataclass(frozen=True)
class Verdict:
    """How far each attack gets above chance on one protection, over all its configurations."""

    protection: str
    configurations: int
    names_significant: int
    best_names: str
    best_lift: float
    population_significant: int
    patients_significant: int
    subjects: int
    best_scenario: str
    verdict: str

    def to_json(self) -> dict[str, Any]:
        """Plain JSON."""
        return dict(self.__dict__)


@dataclass(frozen=True)
class Report:
    """Grid rows with their Holm decisions, and the verdicts."""

    rows: tuple[GridRow, ...]
    names_rejected: tuple[bool, ...]
    population_rejected: tuple[bool, ...]
    verdicts: tuple[Verdict, ...]
    alpha: float

    def to_json(self) -> dict[str, Any]:
        """Plain JSON: every row's statistics, Holm decisions and the verdicts (no names, no diagnoses)."""
        rows = []
        for row, names, population in zip(
            self.rows, self.names_rejected, self.population_rejected, strict=True
        ):
            data = row.result.to_json()
            data.update(
                vocabulary=row.vocabulary,
                seconds=round(row.seconds, 2),
                cpu_seconds=round(row.cpu_seconds, 2),
                trained=row.trained,
            )
            data["names"]["significant_holm"] = names
            data["population"]["significant_holm"] = population
            rows.append(data)
        return {"alpha": self.alpha, "verdicts": [v.to_json() for v in self.verdicts], "rows": rows}


def build_report(rows: Sequence[GridRow], alpha: float) -> Report:
    """Apply Holm per protection and experiment, then judge each protection."""
    names = [False] * len(rows)
    population = [False] * len(rows)
    protections = list(dict.fromkeys(r.protection for r in rows))
    for protection in protections:
        index = [i for i, r in enumerate(rows) if r.protection == protection]
        for target, p_of in ((names, _names_p), (population, _population_p)):
            for i, rejected in zip(index, holm([p_of(rows[i]) for i in index], alpha), strict=True):
                target[i] = rejected
    verdicts = tuple(
        _verdict(p, [(r, names[i], population[i]) for i, r in enumerate(rows) if r.protection == p])
        for p in protections
    )
    return Report(tuple(rows), tuple(names), tuple(population), verdicts, alpha)


def _names_p(row: GridRow) -> float:
    return row.result.names.p_value


def _population_p(row: GridRow) -> float:
    return row.result.population.p_value


def _verdict(protection: str, entries: list[tuple[GridRow, bool, bool]]) -> Verdict:
    best = max(entries, key=lambda e: (e[0].result.names.lift, e[0].result.names.found))[0]
    names = best.result.names
    scenario = max(entries, key=lambda e: _scenario_gain(e[0]))[0]
    patients = max(e[0].result.patients.significant for e in entries)
    subjects = max(e[0].result.patients.subjects for e in entries)
    names_significant = sum(e[1] for e in entries)
    population_significant = sum(e[2] for e in entries)
    tokens = max(e[0].result.names.tokens for e in entries)
    if names_significant or population_significant or patients:
        verdict = "LEAKS"
    elif tokens == 0 and subjects == 0:
        verdict = "holds: no name token in any model"
    else:
        verdict = "holds: no attack significant"
    return Verdict(
        protection=protection,
        configurations=len(entries),
        names_significant=names_significant,
        best_names=f"{names.found}/{names.expected} ({_label(best)}, chance {names.chance:.1f})",
        best_lift=round(names.lift, 1),
        population_significant=population_significant,
        patients_significant=patients,
        subjects=subjects,
        best_scenario=_scenario_text(scenario),
        verdict=verdict,
    )


def _scenario_gain(row: GridRow) -> float:
    """The best A@5 (farthest or nearest guesses) above chance."""
    scenario = row.result.scenario
    return max(scenario.farthest.top5, scenario.nearest.top5) - scenario.chance.top5


def _scenario_text(row: GridRow) -> str:
    scenario = row.result.scenario
    if not scenario.sets:
        return "no target set"
    best = max(scenario.farthest.top5, scenario.nearest.top5)
    return (
        f"A@5 {best:.2f} vs chance {scenario.chance.top5:.2f}, majority {scenario.majority.top5:.2f} "
        f"({_label(row)})"
    )


def _label(row: GridRow) -> str:
    return f"{row.algorithm} w{row.window} {row.result.metric}"
