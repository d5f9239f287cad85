"""Markdown for the audit report: a verdict table, then per protection the paper's four tables."""

from __future__ import annotations

from collections.abc import Callable

from anonymed.audit.grid import GridRow
from anonymed.audit.report import Report

#: the metric each of the paper's tables uses (experiment 1 cosine, the others cityblock)
PAPER_METRICS = {
    "names": "cosine",
    "population": "cityblock",
    "patients": "cityblock",
    "scenario": "cityblock",
}
Cell = Callable[[GridRow, bool, bool], str]


def verdict_table(report: Report) -> str:
    """One line per protection: how far each attack gets above chance, and the verdict."""
    lines = [
        "| protection | 1: best names found | x chance | 1: configs significant | 2a: configs significant "
        "| 2b: patients significant | 3: best scenario | verdict |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for v in report.verdicts:
        lines.append(
            f"| {v.protection} | {v.best_names} | {v.best_lift} | {v.names_significant}/{v.configurations} "
            f"| {v.population_significant}/{v.configurations} | {v.patients_significant}/{v.subjects} "
            f"| {v.best_scenario} | {v.verdict} |"
        )
    return "\n".join(lines)


def _names(row: GridRow, names: bool, population: bool) -> str:
    result = row.result.names
    mark = "" if names else " †"
    return f"{result.found}/{result.expected} ({100 * result.share:.1f}%){mark}"


def _population(row: GridRow, names: bool, population: bool) -> str:
    if not row.result.population.subjects:
        return "-"
    mark = "" if population else " †"
    return f"{row.result.population.difference:+.3f}{mark}"


def _patients(row: GridRow, names: bool, population: bool) -> str:
    result = row.result.patients
    if not result.subjects:
        return "-"
    return f"{result.significant}/{result.subjects} ({100 * result.share:.1f}%)"


def _scenario(row: GridRow, names: bool, population: bool) -> str:
    s = row.result.scenario
    if not s.sets:
        return "-"
    far, near = s.farthest_beats, s.nearest_beats
    return f"{100 * far.top1:.1f}, {100 * far.top5:.1f} / {100 * near.top1:.1f}, {100 * near.top5:.1f}"


_TABLES: tuple[tuple[str, str, Cell], ...] = (
    ("names", "Experiment 1: true full names among the expected number of closest pairs", _names),
    ("population", "Experiment 2a: mean in-group minus out-group distance", _population),
    ("patients", "Experiment 2b: patients significant after Holm-Bonferroni", _patients),
    (
        "scenario",
        "Experiment 3: % of target sets where the attack beats the majority baseline, "
        "A@1, A@5 (farthest five / nearest five)",
        _scenario,
    ),
)


def protection_tables(report: Report, protection: str) -> str:
    """The four tables of one protection, windows down, algorithms across (the paper's layout)."""
    entries = [
        (row, names, population)
        for row, names, population in zip(
            report.rows, report.names_rejected, report.population_rejected, strict=True
        )
        if row.protection == protection
    ]
    if not any(row.trained for row, _, _ in entries):
        return (
            f"### {protection}\n\nNo name token of the attacker's list is frequent enough to enter any model."
        )
    algorithms = list(dict.fromkeys(row.algorithm for row, _, _ in entries))
    windows = sorted({row.window for row, _, _ in entries})
    metrics = list(dict.fromkeys(row.result.metric for row, _, _ in entries))
    parts = [f"### {protection}"]
    for key, title, cell in _TABLES:
        metric = PAPER_METRICS[key] if PAPER_METRICS[key] in metrics else metrics[0]
        found = {(r.algorithm, r.window): (r, n, p) for r, n, p in entries if r.result.metric == metric}
        lines = [
            f"{title} ({metric})",
            "",
            "| window | " + " | ".join(algorithms) + " |",
            "|---" * (len(algorithms) + 1) + "|",
        ]
        for window in windows:
            cells = [cell(*found[(a, window)]) if (a, window) in found else "-" for a in algorithms]
            lines.append(f"| {window} | " + " | ".join(cells) + " |")
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def markdown(report: Report, title: str = "anonymed privacy audit") -> str:
    """The whole report."""
    parts = [
        f"# {title}",
        f"Significance: alpha = {report.alpha}; Holm-Bonferroni across each protection's configurations "
        "(experiments 1 and 2a) and across patients (2b). † = not significant after correction.",
        "## Verdicts",
        verdict_table(report),
        "## Tables",
    ]
    parts.extend(protection_tables(report, v.protection) for v in report.verdicts)
    return "\n\n".join(parts) + "\n"
