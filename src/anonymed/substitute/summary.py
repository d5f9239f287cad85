"""What a run's substitution did, from its counts: per label and operator, outcomes, DP values unchanged.

The substitution stage counts every span under ``LABEL[/subtype]|operator|outcome`` (``stage.count_key``)
and the runner sums the counts over the run. ``substitution_summary`` turns them into the summary the CLI
prints and writes (``--summary run.json``): counts only, never a value.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.substitute.registry import operator_class
from anonymed.substitute.stage import EXPECTED_UNCHANGED_PPM, FALLBACK, KEPT, REPLACED, UNCHANGED

OUTCOMES = (REPLACED, FALLBACK, KEPT, UNCHANGED)


@dataclass(frozen=True)
class Count:
    """One count of the run: spans of a label (and subtype) given an outcome by an operator."""

    label: str
    operator: str
    outcome: str
    count: int


def document_counts(doc: Document) -> dict[str, int]:
    """The substitution counts of one processed document (none if substitution did not run)."""
    substitution = doc.privacy.get("substitution", {})
    return {str(k): int(v) for k, v in substitution.get("counts", {}).items()}


def parse_counts(counters: Mapping[str, int]) -> list[Count]:
    """The run's counters read back into counts (other counters are ignored)."""
    found = []
    for key, value in counters.items():
        parts = key.split("|")
        if len(parts) == 3:
            found.append(Count(parts[0], parts[1], parts[2], int(value)))
    return sorted(found, key=lambda c: (c.label, c.operator, c.outcome))


def substitution_summary(counters: Mapping[str, int]) -> dict[str, Any]:
    """Per label and operator the outcome counts, totals, and the DP values unchanged (observed, expected)."""
    by_label: dict[str, dict[str, dict[str, int]]] = defaultdict(lambda: defaultdict(dict))
    totals = dict.fromkeys(OUTCOMES, 0)
    expected_ppm = 0
    for count in parse_counts(counters):
        if count.outcome == EXPECTED_UNCHANGED_PPM:
            expected_ppm += count.count
            continue
        by_label[count.label][count.operator][count.outcome] = count.count
        totals[count.outcome] = totals.get(count.outcome, 0) + count.count
    dp_values = sum(  # values drawn by a DP mechanism: not those its fallback operator wrote
        count
        for ops in by_label.values()
        for name, outcomes in ops.items()
        if _is_dp(name)
        for outcome, count in outcomes.items()
        if outcome != FALLBACK
    )
    return {
        "by_label": {
            label: {op: dict(o) for op, o in ops.items()} for label, ops in sorted(by_label.items())
        },
        "totals": totals,
        "dp": {
            "spans": dp_values,
            "unchanged": totals[UNCHANGED],
            "expected_unchanged": round(expected_ppm / 1_000_000, 3),
        },
    }


def _is_dp(name: str) -> bool:
    """Whether the operator registered as ``name`` is differentially private (unknown names are not)."""
    try:
        return operator_class(name).differentially_private
    except ConfigError:
        return False
