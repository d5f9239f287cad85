"""``anonymed review report``: residual PHI, notes with a miss, precision, agreement, notes still needed.

Figures are estimates for the whole input (every note the sample was drawn from), from the notes finished
so far, with the design weights recomputed per stratum over them (the review order is random, so the
finished notes of a stratum are a random sample of it). See ``estimate.py`` for the method.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from anonymed.labels import Label
from anonymed.review.agreement import agreement
from anonymed.review.decisions import DecisionLog
from anonymed.review.estimate import Interval, Unit, notes_for_target, ratio_interval, rule_of_three
from anonymed.review.folder import ReviewFolder
from anonymed.review.outcome import Item, NoteOutcome, outcomes

REPORT_FORMAT = "anonymed-review-report"
METHOD = (
    "Hajek (weighted ratio) estimates over the finished notes, weights N_h / n_h per stratum; two-sided "
    "intervals: exact Clopper-Pearson for a simple random sample of notes, else Korn-Graubard (Clopper-"
    "Pearson at the effective sample size from the linearised stratified variance, df-adjusted, capped "
    "at Kish's effective size and at the binomial size with the estimator's skewness); coverage measured "
    "by simulation in docs/review.md."
)
Pick = Callable[[NoteOutcome], Sequence[Item]]


def _count(items: Sequence[Item], label: str | None) -> int:
    return sum(1 for item in items if label is None or item.top == label)


def _residual(
    found: Sequence[NoteOutcome], population: dict[str, int], label: str | None, c: float
) -> dict[str, Any]:
    per_token = ratio_interval(
        [Unit(o.stratum, _count(o.missed, label), o.tokens) for o in found],
        population,
        c,
    )
    notes = ratio_interval(
        [Unit(o.stratum, min(1, _count(o.missed, label)), 1) for o in found], population, c
    )
    return {
        "missed": int(per_token.observed),
        "per_1000_tokens": per_token.scaled(1000),
        "notes_with_missed": notes.scaled(1),
        **_three(per_token, notes),
    }


def _three(per_token: Interval, notes: Interval) -> dict[str, Any]:
    """The rule of three (one-sided 95% upper bounds) when nothing was missed."""
    if per_token.observed > 0 or per_token.n_effective is None or notes.n_effective is None:
        return {}
    return {
        "rule_of_three": {
            "per_1000_tokens_upper": rule_of_three(per_token.n_effective) * 1000,
            "notes_with_missed_upper": rule_of_three(notes.n_effective),
        }
    }


def _precision(
    found: Sequence[NoteOutcome], population: dict[str, int], label: str | None, c: float
) -> dict[str, Any]:
    units = [
        Unit(o.stratum, _count(o.confirmed, label), _count(o.confirmed, label) + _count(o.rejected, label))
        for o in found
    ]
    return ratio_interval(units, population, c).scaled(1)


def _labels(found: Sequence[NoteOutcome]) -> list[str]:
    seen = {item.top for o in found for item in (*o.missed, *o.confirmed, *o.rejected)}
    return [label.value for label in Label if label.value in seen]


def _progress(folder: ReviewFolder, found: Sequence[NoteOutcome], log: DecisionLog) -> dict[str, Any]:
    strata = {h: {"population": size, "sampled": 0, "reviewed": 0} for h, size in folder.population.items()}
    for note in folder.notes:
        strata[note.stratum]["sampled"] += 1
    for o in found:
        strata[o.stratum]["reviewed"] += 1
    uncovered = [h for h, s in strata.items() if s["reviewed"] == 0 and s["population"] > 0]
    return {
        "sampled": len(folder.notes),
        "reviewed": len(found),
        "reviewers": log.reviewers(),
        "complete": len(found) == len(folder.notes),
        "uncovered_strata": uncovered,
        "population_covered": sum(s["population"] for h, s in strata.items() if h not in uncovered),
        "strata": strata,
    }


def _target(
    found: Sequence[NoteOutcome], population: dict[str, int], target: float, c: float
) -> dict[str, Any]:
    interval = ratio_interval([Unit(o.stratum, len(o.missed), o.tokens) for o in found], population, c)
    needed = notes_for_target(interval, target) if found else None
    reason = None
    if needed is None:
        reason = "no finished note yet" if not found else "the estimate itself is at or above the target"
    return {
        "per_token": target,
        "per_1000_tokens": target * 1000,
        "notes_needed": needed,
        "additional_notes": None if needed is None else max(0, needed - len(found)),
        "reason": reason,
    }


def build_report(
    folder: ReviewFolder,
    *,
    target: float = 0.001,
    confidence: float = 0.95,
    models: tuple[Path, Path] | None = None,
) -> dict[str, Any]:
    """The review report as JSON-ready data: counts and estimates only, never note text.

    ``models`` (before, after): tagger model folders scored on the finished notes neither was trained on.
    """
    log = DecisionLog(folder.decisions_path, writable=False)
    found = outcomes(folder.notes, log)
    population = folder.population
    manifest = folder.manifest
    labels = _labels(found)
    report: dict[str, Any] = {
        "format": REPORT_FORMAT,
        "version": 1,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "anonymed": metadata.version("anonymed"),
        "input": {k: manifest["input"][k] for k in ("fingerprint", "notes", "tokens", "failed", "format")},
        "detection": manifest["detection"],
        "design": {k: v for k, v in manifest["design"].items() if k != "strata"},
        "sample_command": manifest.get("command", []),
        "progress": _progress(folder, found, log),
        "confidence": confidence,
        "method": METHOD,
        "residual": {
            "overall": _residual(found, population, None, confidence),
            "by_label": {label: _residual(found, population, label, confidence) for label in labels},
        },
        "precision": {
            "overall": _precision(found, population, None, confidence),
            "by_label": {label: _precision(found, population, label, confidence) for label in labels},
        },
        "target": _target(found, population, target, confidence),
        "agreement": agreement(folder.notes, log),
    }
    if models is not None:
        from anonymed.review.learning import before_after

        report["learning"] = before_after(folder, found, *models)
    return report
