"""Date surrogates compared: unchanged dates, interval error, and the attack that reveals one true date.

    python benchmarks/date_mechanisms.py --runs 5 --out date_mechanisms.json

Runs each mechanism on the gold DATE spans of the shipped development notes (PhysioNet, English: notes
grouped by patient; EDS-pseudo, French: one note per group, as it has no patient id), with a patient key so
that a patient's notes share their secret shift. For each mechanism and corpus it reports:

* unchanged: share of DATE spans written back as themselves (case-folded);
* interval error: median over pairs of distinct full dates of a patient of |(s2 - s1) - (d2 - d1)| days;
* surrogate error: median |s - d| days (what the surrogate alone tells);
* attack: for each full date revealed in turn, every other date of the patient is estimated as
  s_j - (s_i - d_i); median error in days and share of exact recoveries.

The uniform shift (``date_shift`` with ``noise_days = 0``) is the baseline of the attack: it keeps every
interval and gives every date away from one.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from anonymed.config import PipelineConfig
from anonymed.dates.over89 import has_year
from anonymed.dates.temporal import Kind, detect_order, parse_temporal
from anonymed.document import Document
from anonymed.labels import Label
from anonymed.pipeline import Pipeline
from anonymed.train.recipe import RecognizerRecipe, dev_documents

Mechanism = tuple[str, dict[str, Any]]


def mechanisms(
    widths: Iterable[int], epsilons: Iterable[float], ordered: Iterable[int] = (7,)
) -> list[Mechanism]:
    """(name, operator params) of every mechanism compared."""
    found: list[Mechanism] = [("uniform shift", {"operator": "date_shift", "noise_days": 0})]
    found += [
        (f"shift + noise {w}", {"operator": "date_shift", "noise_days": w, "keep_order": False})
        for w in widths
    ]
    found += [
        (f"shift + ordered noise {w}", {"operator": "date_shift", "noise_days": w, "keep_order": True})
        for w in ordered
    ]
    found += [(f"dp_date eps={e}", {"operator": "dp_date", "epsilon": e}) for e in epsilons]
    found.append(("fake (random dates)", {"operator": "fake"}))
    return found


@dataclass
class Tally:
    """What one mechanism did on one corpus."""

    spans: int = 0
    unchanged: int = 0
    interval_errors: list[int] = field(default_factory=list)
    surrogate_errors: list[int] = field(default_factory=list)
    attack_errors: list[int] = field(default_factory=list)
    #: the attack's errors on the dates at most ``CLOSE`` days from the revealed one
    close_attack_errors: list[int] = field(default_factory=list)
    close_pairs: int = 0
    close_reversed: int = 0

    def add(self, other: Tally) -> None:
        """Add another run's counts and errors."""
        self.spans += other.spans
        self.unchanged += other.unchanged
        self.interval_errors += other.interval_errors
        self.surrogate_errors += other.surrogate_errors
        self.attack_errors += other.attack_errors
        self.close_attack_errors += other.close_attack_errors
        self.close_pairs += other.close_pairs
        self.close_reversed += other.close_reversed

    def summary(self) -> dict[str, Any]:
        """The figures of the table."""

        def median(values: list[int]) -> float | None:
            return statistics.median(values) if values else None

        exact = sum(e == 0 for e in self.attack_errors)
        return {
            "spans": self.spans,
            "unchanged": self.unchanged / self.spans if self.spans else None,
            "interval_error_median_days": median(self.interval_errors),
            "interval_pairs": len(self.interval_errors),
            "surrogate_error_median_days": median(self.surrogate_errors),
            "attack_error_median_days": median(self.attack_errors),
            "attack_exact_share": exact / len(self.attack_errors) if self.attack_errors else None,
            "attack_estimates": len(self.attack_errors),
            "close_attack_exact_share": (
                sum(e == 0 for e in self.close_attack_errors) / len(self.close_attack_errors)
                if self.close_attack_errors
                else None
            ),
            "close_pairs": self.close_pairs,
            "close_reversed_share": self.close_reversed / self.close_pairs if self.close_pairs else None,
        }


def _pipeline(lang: str, params: dict[str, Any], key: bytes) -> Pipeline:
    operator = params["operator"]
    options = {k: v for k, v in params.items() if k != "operator"}
    config = PipelineConfig(
        lang=lang,
        stages=("substitute",),
        operators={Label.DATE: operator},
        operator_params={operator: options} if options else {},
        patient_key=key,
        seed=0,
    )
    return Pipeline(config)


#: dates at most this many days apart are "close": their order and the attack on them are reported apart
CLOSE = 14
#: yearless dates ("3/4") are read in this year; their errors are taken modulo a year
_YEARLESS_REFERENCE = dt.date(2001, 7, 1)
_YEAR = 365


def _day(text: str, lang: str, order: str) -> tuple[int, bool] | None:
    """The day number of a date and whether it was written with its year."""
    value = parse_temporal(text, lang=lang, order=order, reference=_YEARLESS_REFERENCE)
    if value is None or value.kind is not Kind.DATE:
        return None
    return int(value.quantity), has_year(value)


def _signed(days: int, dated: bool) -> int:
    """A difference in days; for yearless dates the nearest one modulo a year."""
    return days if dated else (days + _YEAR // 2) % _YEAR - _YEAR // 2


def _error(days: int, dated: bool) -> int:
    """An error in days; for yearless dates the nearest one modulo a year."""
    return abs(_signed(days, dated))


def run_corpus(docs: list[Document], lang: str, params: dict[str, Any], key: bytes) -> Tally:
    """Substitute the gold DATE spans of every note and score the mechanism."""
    pipeline = _pipeline(lang, params, key)
    tally = Tally()
    by_patient: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for doc in docs:
        spans = [s for s in doc.gold if s.label is Label.DATE]
        if not spans:
            continue
        done = pipeline.run(doc.with_spans(spans))
        order = detect_order([s.text for s in spans], lang)
        for rep in done.replacements:
            tally.spans += 1
            tally.unchanged += rep.surrogate.casefold() == rep.original.casefold()
            true, released = _day(rep.original, lang, order), _day(rep.surrogate, lang, order)
            if true is not None and released is not None:
                dated = true[1] and released[1]
                by_patient[doc.patient_id or doc.id].append((true[0], released[0], dated))
                tally.surrogate_errors.append(_error(released[0] - true[0], dated))
    for found in by_patient.values():
        distinct = {d: (s, dated) for d, s, dated in reversed(found)}  # one surrogate per true date
        items = sorted(distinct.items())
        for i, (d1, (s1, dated1)) in enumerate(items):
            for d2, (s2, dated2) in items[i + 1 :]:
                tally.interval_errors.append(_error((s2 - s1) - (d2 - d1), dated1 and dated2))
                dated = dated1 and dated2
                if 0 < abs(_signed(d2 - d1, dated)) <= CLOSE:
                    tally.close_pairs += 1
                    before, after = _signed(d2 - d1, dated), _signed(s2 - s1, dated)
                    tally.close_reversed += after != 0 and (after > 0) != (before > 0)  # a tie is no reversal
            for d2, (s2, dated2) in items:
                if d2 != d1:
                    error = _error(s2 - (s1 - d1) - d2, dated1 and dated2)
                    tally.attack_errors.append(error)
                    if abs(d2 - d1) <= CLOSE:
                        tally.close_attack_errors.append(error)
    return tally


def main() -> None:
    """Run every mechanism ``--runs`` times on both corpora and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--widths", type=int, nargs="*", default=[1, 2, 3, 5, 7, 14])
    parser.add_argument("--epsilons", type=float, nargs="*", default=[1.0, 0.1])
    parser.add_argument("--ordered", type=int, nargs="*", default=[3, 7], help="widths with keep_order")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    corpora = {lang: dev_documents(RecognizerRecipe(lang)) for lang in ("en", "fr")}
    results: dict[str, dict[str, Any]] = {}
    for name, params in mechanisms(args.widths, args.epsilons, args.ordered):
        for lang, docs in corpora.items():
            total = Tally()
            for run in range(args.runs):
                total.add(run_corpus(docs, lang, params, f"benchmark-patient-key-{run:04d}".encode()))
            results.setdefault(name, {})[lang] = total.summary()
    print(_table(results))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=2)


def _table(results: dict[str, dict[str, Any]]) -> str:
    def cell(value: Any, fmt: str) -> str:
        return "-" if value is None else format(value, fmt)

    lines = [
        "| mechanism | corpus | unchanged | interval error (median d) | surrogate error (median d) "
        f"| attack error (median d) | attack exact | attack exact, dates <= {CLOSE} d away "
        f"| close pairs reversed (<= {CLOSE} d) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, by_lang in results.items():
        for lang, r in by_lang.items():
            cells = [
                cell(r["unchanged"], ".1%"),
                cell(r["interval_error_median_days"], "g"),
                cell(r["surrogate_error_median_days"], "g"),
                cell(r["attack_error_median_days"], "g"),
                cell(r["attack_exact_share"], ".1%"),
                cell(r["close_attack_exact_share"], ".1%"),
                cell(r["close_reversed_share"], ".1%") + f" of {r['close_pairs']:,}",
            ]
            lines.append(f"| {name} | {lang} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
