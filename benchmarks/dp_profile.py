"""The ``dp`` profile's budget and distance unit, by measurement: P(date unchanged) and error per setting.

    python benchmarks/dp_profile.py --runs 5 --out dp_profile.json

Runs the ``dp`` profile (dp_date, dp_age, dp_location; one epsilon per document shared by its values, as in
Tchouka et al.) on the gold DATE, AGE and LOCATION spans of the shipped development notes (PhysioNet,
EDS-pseudo), for each document budget and distance unit of the grid. For the DATE values the mechanism
drew, it reports the mean probability of an unchanged value stated by the privacy report, the share
observed unchanged, and the mean absolute error of full dates in days and of bare years in years.
"""

from __future__ import annotations

import argparse
import json
import statistics
from dataclasses import dataclass, field
from typing import Any

from anonymed.config import PipelineConfig
from anonymed.dates.over89 import has_year
from anonymed.dates.temporal import Kind, detect_order, parse_temporal
from anonymed.detect.merge import merge_spans
from anonymed.document import Document
from anonymed.labels import Label
from anonymed.pipeline import Pipeline
from anonymed.train.recipe import RecognizerRecipe, dev_documents

LABELS = (Label.DATE, Label.AGE, Label.LOCATION)


@dataclass
class Tally:
    """What one setting did on one corpus."""

    drawn: int = 0
    unchanged: int = 0
    expected: float = 0.0
    day_errors: list[int] = field(default_factory=list)
    year_errors: list[int] = field(default_factory=list)
    epsilons: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """The figures of the table."""

        def mean(values: list[int]) -> float | None:
            return statistics.fmean(values) if values else None

        return {
            "dates_drawn": self.drawn,
            "p_unchanged_reported": self.expected / self.drawn if self.drawn else None,
            "unchanged_observed": self.unchanged / self.drawn if self.drawn else None,
            "mae_days": mean(self.day_errors),
            "mae_years": mean(self.year_errors),
            "epsilon_per_date_median": statistics.median(self.epsilons) if self.epsilons else None,
        }


def run_setting(docs: list[Document], lang: str, epsilon: float, metric: str) -> Tally:
    """The dp profile with document budget ``epsilon`` and dp_date ``metric`` on the gold spans."""
    config = PipelineConfig(
        lang=lang,
        profile="dp",
        epsilon=epsilon,
        operator_params={"dp_date": {"metric": metric}},
        stages=("substitute",),
        seed=0,
    )
    pipeline = Pipeline(config)
    tally = Tally()
    for doc in docs:
        spans = merge_spans(doc.text, [s for s in doc.gold if s.label in LABELS])  # a few gold spans overlap
        if not spans:
            continue
        done = pipeline.run(doc.with_spans(spans))
        order = detect_order([s.text for s in spans if s.label is Label.DATE], lang)
        drawn = {(e["start"], e["end"]): e for e in done.privacy.get("expenses", []) if e["label"] == "DATE"}
        for expense in list(drawn.values()):
            for start, end in expense["repeats"]:
                drawn[(start, end)] = expense
        for rep in done.replacements:
            expense = drawn.get((rep.start, rep.end))
            if expense is None:
                continue  # fallback or aggregated over 89
            tally.drawn += 1
            tally.expected += expense["parameters"]["p_unchanged"]
            tally.epsilons.append(expense["epsilon"])
            tally.unchanged += rep.surrogate.casefold() == rep.original.casefold()
            _errors(tally, rep.original, rep.surrogate, lang, order)
    return tally


def _errors(tally: Tally, original: str, surrogate: str, lang: str, order: str) -> None:
    before = parse_temporal(original, lang=lang, order=order)
    after = parse_temporal(surrogate, lang=lang, order=order)
    if before is None or after is None or before.kind is not after.kind:
        return
    if before.kind is Kind.DATE and has_year(before) and has_year(after):
        tally.day_errors.append(abs(int(after.quantity) - int(before.quantity)))
    elif before.kind is Kind.YEAR:
        tally.year_errors.append(abs(int(after.quantity) - int(before.quantity)))


def main() -> None:
    """Run the grid and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--epsilons", type=float, nargs="+", default=[0.1, 0.25, 0.5, 1.0, 2.0, 5.0])
    parser.add_argument("--metrics", nargs="+", default=["own", "week"])
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    corpora = {lang: dev_documents(RecognizerRecipe(lang)) for lang in ("en", "fr")}
    results: list[dict[str, Any]] = []
    for metric in args.metrics:
        for epsilon in args.epsilons:
            for lang, docs in corpora.items():
                total = Tally()
                for _ in range(args.runs):
                    tally = run_setting(docs, lang, epsilon, metric)
                    total.drawn += tally.drawn
                    total.unchanged += tally.unchanged
                    total.expected += tally.expected
                    total.day_errors += tally.day_errors
                    total.year_errors += tally.year_errors
                    total.epsilons += tally.epsilons
                results.append({"metric": metric, "epsilon": epsilon, "lang": lang, **total.summary()})
    print(_table(results))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=2)


def _table(results: list[dict[str, Any]]) -> str:
    def cell(value: Any, fmt: str) -> str:
        return "-" if value is None else format(value, fmt)

    lines = [
        "| unit | epsilon per note | corpus | epsilon per date (median) | P(date unchanged) reported "
        "| unchanged observed | MAE full dates (days) | MAE years (years) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        unit = "day (own unit)" if r["metric"] == "own" else r["metric"]
        cells = [
            cell(r["epsilon_per_date_median"], ".3g"),
            cell(r["p_unchanged_reported"], ".1%"),
            cell(r["unchanged_observed"], ".1%"),
            cell(r["mae_days"], ".1f"),
            cell(r["mae_years"], ".1f"),
        ]
        lines.append(f"| {unit} | {r['epsilon']:g} | {r['lang']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
