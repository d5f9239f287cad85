"""Abdalla et al.'s published tables (JMIR 2020, PHI removal leaving 1% of names) beside the benchmark's.

The paper's cells, by experiment, window and algorithm (skip-gram, CBOW, GloVe; it has no fastText).
Experiment 1 uses cosine distance and 600 expected names, the others cityblock; † marks the one result the
paper found not significant after Holm-Bonferroni.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from anonymed.audit.grid import GridRow
from anonymed.audit.report import Report
from anonymed.audit.report_tables import PAPER_METRICS

_ALGORITHMS = ("skipgram", "cbow", "glove")
PAPER: dict[str, dict[int, tuple[str, str, str]]] = {
    "names": {
        1: ("51 (8.5%)", "17 (2.8%)", "8 (1.3%) †"),
        3: ("369 (61.5%)", "265 (44.2%)", "158 (26.3%)"),
        5: ("393 (65.6%)", "323 (53.8%)", "278 (46.3%)"),
        7: ("410 (68.3%)", "331 (55.2%)", "317 (52.8%)"),
        9: ("411 (68.5%)", "340 (56.7%)", "323 (53.8%)"),
    },
    "population": {
        1: ("+3.91", "+7.59", "+4.85"),
        3: ("+2.88", "+28.53", "+5.69"),
        5: ("+2.33", "+39.55", "+5.45"),
        7: ("+1.84", "+47.10", "+5.12"),
        9: ("+1.51", "+51.61", "+5.54"),
    },
    "patients": {
        1: ("49 (7.7%)", "77 (12.1%)", "400 (62.7%)"),
        3: ("41 (6.4%)", "149 (23.4%)", "401 (62.8%)"),
        5: ("33 (5.2%)", "152 (23.8%)", "403 (63.2%)"),
        7: ("16 (2.5%)", "153 (24.0%)", "380 (59.6%)"),
        9: ("12 (1.9%)", "153 (24.0%)", "449 (70.4%)"),
    },
    "scenario": {
        1: ("55.8, 56.7", "61.8, 61.8", "55.4, 56.9"),
        3: ("55.6, 53.1", "51.2, 52.6", "60.5, 59.5"),
        5: ("57.4, 55.6", "53.6, 54.5", "59.4, 57.2"),
        7: ("57.4, 53.5", "54.6, 53.9", "55.9, 54.0"),
        9: ("57.2, 53.2", "53.7, 51.2", "60.6, 56.7"),
    },
}
_TITLES = {
    "names": "Experiment 1, true names among the closest pairs, n (% of pairs claimed)",
    "population": "Experiment 2a, mean in-group minus out-group distance",
    "patients": "Experiment 2b, patients significant after Holm-Bonferroni, n (%)",
    "scenario": "Experiment 3, % of target sets beating the majority baseline, A@1, A@5 "
    "(benchmark: the better of farthest / nearest five)",
}


def _names(row: GridRow, significant: bool) -> str:
    names = row.result.names
    return f"{names.found} ({100 * names.share:.1f}%)" + ("" if significant else " †")


def _population(row: GridRow, significant: bool) -> str:
    if not row.result.population.subjects:
        return "-"
    return f"{row.result.population.difference:+.3f}" + ("" if significant else " †")


def _patients(row: GridRow, significant: bool) -> str:
    patients = row.result.patients
    if not patients.subjects:
        return "-"
    return f"{patients.significant} ({100 * patients.share:.1f}%)"


def _scenario(row: GridRow, significant: bool) -> str:
    s = row.result.scenario
    if not s.sets:
        return "-"
    top1 = max(s.farthest_beats.top1, s.nearest_beats.top1)
    top5 = max(s.farthest_beats.top5, s.nearest_beats.top5)
    return f"{100 * top1:.1f}, {100 * top5:.1f}"


_CELLS: dict[str, Callable[[GridRow, bool], str]] = {
    "names": _names,
    "population": _population,
    "patients": _patients,
    "scenario": _scenario,
}


def side_by_side(report: Report, protections: Sequence[str]) -> str:
    """Per experiment, windows down; per algorithm the paper's cell then each protection's."""
    decisions = {
        (r.protection, r.algorithm, r.window, r.result.metric): (r, names, population)
        for r, names, population in zip(
            report.rows, report.names_rejected, report.population_rejected, strict=True
        )
    }
    algorithms = [a for a in _ALGORITHMS if any(k[1] == a for k in decisions)]
    parts = []
    for key, table in PAPER.items():
        metric = PAPER_METRICS[key]
        header = ["window"]
        for algorithm in algorithms:
            header += [f"{algorithm} paper"] + [f"{algorithm} {p}" for p in protections]
        lines = [
            f"{_TITLES[key]} ({metric})",
            "",
            "| " + " | ".join(header) + " |",
            "|---" * len(header) + "|",
        ]
        for window, paper_cells in table.items():
            cells = [str(window)]
            for algorithm in algorithms:
                cells.append(paper_cells[_ALGORITHMS.index(algorithm)])
                for protection in protections:
                    found = decisions.get((protection, algorithm, window, metric))
                    significant = bool(found and (found[1] if key == "names" else found[2]))
                    cells.append(_CELLS[key](found[0], significant) if found else "-")
            lines.append("| " + " | ".join(cells) + " |")
        parts.append("\n".join(lines))
    return "\n\n".join(parts)
