"""Utility of the differentially private surrogates on the PhysioNet deid dev notes (gold spans).

For each epsilon (per value: no document budget, each distinct value gets epsilon), every note's gold
Date/DateYear, Age and Location phrases (``id-phi.phrase``) go through ``dp_date``, ``dp_age`` and
``dp_location`` (default world-cities table) exactly as in the pipeline. Reported: the mean absolute error
of released dates in their unit (days for dates and days of the month, months, years), of ages in years
(before the HIPAA 90+ grouping), the median distance in km between a place and its surrogate, the share of
places left unchanged (the mechanism may return the place itself), and the
coverage (share of gold phrases the operator could parse or find; the rest go to the fallback operator).
Repeated ``--runs`` times (OpenDP noise cannot be seeded). Usage:

    .venv/bin/python benchmarks/dp_utility.py --runs 5 [--data DATA/physionet_deid]
"""

from __future__ import annotations

import argparse
import re
import statistics
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

from anonymed.dates.temporal import Temporal, Unit
from anonymed.document import Document, Span
from anonymed.labels import Label
from anonymed.randomness import RandomSource
from anonymed.substitute.base import Context
from anonymed.substitute.context import ValueStreams
from anonymed.substitute.dp_common import DPOperator
from anonymed.substitute.places import load_places
from anonymed.substitute.registry import build_operator
from anonymed.train.recipe import training_root

EPSILONS = (0.1, 0.5, 1.0, 2.0, 5.0)
CATEGORIES = {"Date": (Label.DATE, None), "DateYear": (Label.DATE, "year"), "Age": (Label.AGE, None)}
CATEGORIES["Location"] = (Label.LOCATION, None)
_RECORD = re.compile(r"START_OF_RECORD=(\d+)\|\|\|\|(\d+)\|\|\|\|\n(.*?)\|\|\|\|END_OF_RECORD", re.S)


def read_notes(data: Path) -> Iterator[Document]:
    """The dev notes that carry at least one Date, DateYear, Age or Location gold phrase."""
    phrases: dict[tuple[str, str], list[tuple[int, int, str]]] = defaultdict(list)
    for line in (data / "id-phi.phrase").read_text(encoding="ascii").splitlines():
        pid, note, start, end, category = line.split(" ", 5)[:5]
        if category in CATEGORIES:
            phrases[(pid, note)].append((int(start), int(end), category))
    for match in _RECORD.finditer((data / "id.text").read_text(encoding="ascii")):
        pid, note, body = match.groups()
        spans = [
            Span.of(body, s, e, CATEGORIES[c][0], subtype=CATEGORIES[c][1])
            for s, e, c in phrases.get((pid, note), [])
        ]
        if spans:
            yield Document(f"{pid}-{note}", body, {"lang": "en"}).with_spans(spans)


def _operators(epsilon: float) -> dict[Label, DPOperator]:
    built = {
        Label.DATE: build_operator("dp_date", {"epsilon": epsilon, "fallback": "tag"}),
        Label.AGE: build_operator("dp_age", {"epsilon": epsilon, "fallback": "tag"}),
        Label.LOCATION: build_operator("dp_location", {"epsilon": epsilon, "fallback": "tag"}),
    }
    return {label: op for label, op in built.items() if isinstance(op, DPOperator)}


def measure(docs: list[Document], epsilon: float) -> dict[str, list[float]]:
    """Errors per measure for one pass over the notes at ``epsilon`` per value."""
    operators, table = _operators(epsilon), load_places("default")
    errors: dict[str, list[float]] = defaultdict(list)
    for doc in docs:
        rng = RandomSource()
        context = Context(doc, rng, ValueStreams(doc, rng), "en", None)
        for label, op in operators.items():
            op.prepare([s for s in doc.spans if s.label is label], context)
        for span in doc.spans:
            operators[span.label].operate(span, context)
        for label, op in operators.items():
            releases = op.releases(context)
            errors[f"found:{label.value}"] += [
                float((s.start, s.end) in releases) for s in doc.spans if s.label is label
            ]
            for value, released in releases.values():
                if label is Label.LOCATION:
                    errors["km"].append(float(table.kilometres(value)[released]))
                    errors["kept"].append(100.0 * (released == value))
                elif isinstance(value, Temporal):
                    unit = "age" if label is Label.AGE else value.unit.value
                    errors[unit].append(abs(float(released) - float(value.quantity)))
    return errors


def _cell(values: list[float], how: str = "mean") -> str:
    if not values:
        return "n/a"
    centre = statistics.fmean(values) if how == "mean" else statistics.median(values)
    return f"{centre:.2f}"


def main() -> None:
    """Print the markdown utility table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data",
        type=Path,
        default=training_root() / "physionet_deid",
        help="PhysioNet deid folder (default: the development notes shipped in the package)",
    )
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    docs = list(read_notes(args.data))
    rows = []
    for epsilon in EPSILONS:
        pooled: dict[str, list[float]] = defaultdict(list)
        for _ in range(args.runs):
            for key, values in measure(docs, epsilon).items():
                pooled[key] += values
        rows.append((epsilon, pooled))
    last = rows[-1][1]
    counts = {k: len(v) // args.runs for k, v in last.items()}
    print(f"{len(docs)} notes; per run: {counts}")
    print(
        "| epsilon (per value) | dates MAE (days) | years MAE (years) | months MAE (months) "
        "| ages MAE (years) | places median (km) | places unchanged (%) |"
    )
    print("|---|---|---|---|---|---|---|")
    for epsilon, pooled in rows:
        cells = [
            _cell(pooled[Unit.DAY.value]),
            _cell(pooled[Unit.YEAR.value]),
            _cell(pooled[Unit.MONTH.value]),
        ]
        cells += [_cell(pooled["age"]), _cell(pooled["km"], "median"), _cell(pooled["kept"])]
        print(f"| {epsilon} | " + " | ".join(cells) + " |")
    coverage = {
        k.split(":")[1]: f"{100 * statistics.fmean(v):.1f}%"
        for k, v in last.items()
        if k.startswith("found:")
    }
    print(f"coverage (gold phrases parsed or found in the table): {coverage}")


if __name__ == "__main__":
    main()
