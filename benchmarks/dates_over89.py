"""Dates of the gold corpora through ``fake`` and ``dp_date``: readings, and ages over 89 (HIPAA Safe Harbor).

Every gold DATE span of the PhysioNet deid notes, the EDS-pseudo dev split and the Presidio synthetic set is
read (``parse_temporal``: what ``dp_date`` perturbs; ``parse_layout``: what ``fake`` writes random dates in),
then replaced by each operator (``dp_date`` with epsilon 1 per value) with ages counted at each note's
reference date (``over89.age_reference`` at ``--today``). Reported per operator: spans whose original lies
90+ years back, surrogates that are the ``[90+]`` marker, and surrogates that are dates implying 90+ (read
back with ``parse_layout``; birth dates with two-digit years in the past). Usage:

    .venv/bin/python benchmarks/dates_over89.py --data DATA --runs 3 --today 2026-11-22
"""

from __future__ import annotations

import argparse
import datetime as dt
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from anonymed.dates.layout import parse_layout
from anonymed.dates.over89 import OVER89, age_reference, birth_in_past, implies_over89
from anonymed.dates.temporal import parse_temporal
from anonymed.document import Document, Span
from anonymed.io.registry import open_reader
from anonymed.labels import Label
from anonymed.randomness import RandomSource
from anonymed.substitute.registry import build_operator
from anonymed.substitute.stage import Substituter

CORPORA = (
    ("physionet_deid/id.text", "physionet-deid"),
    ("eds_pseudo_fr_synth/dev.jsonl", "eds-pseudo"),
    ("presidio_synth/synth_dataset_v2.json", "presidio"),
)


def documents(data: Path, today: dt.date) -> Iterator[Document]:
    """Each note with gold DATE spans, its spans set to them and its reference date fixed."""
    for path, fmt in CORPORA:
        for doc in open_reader(data / path, fmt):
            dates = tuple(s for s in getattr(doc, "gold", ()) if s.label is Label.DATE)
            if isinstance(doc, Document) and dates:
                note = Document(doc.id, doc.text, doc.metadata, spans=dates)
                reference = age_reference(note, today=today).isoformat()
                yield note.evolve(metadata={**doc.metadata, "reference_date": reference})


def over89(text: str, span: Span, doc: Document) -> bool:
    """Whether ``text``, read as the span's kind of date, lies 90 years or more before the reference."""
    reference = dt.date.fromisoformat(str(doc.metadata["reference_date"]))
    layout = parse_layout(text, doc.lang, subtype=span.subtype, reference=reference)
    value = None if layout is None else layout.value
    if value is not None and span.subtype == "birth":
        value = birth_in_past(value, reference)
    return value is not None and implies_over89(value, value.quantity, reference)


def measure(docs: list[Document], runs: int) -> Counter[str]:
    """Counts over every span, run and operator."""
    counts: Counter[str] = Counter()
    for doc in docs:
        for span in doc.spans:
            counts["spans"] += 1
            value = parse_temporal(span.text, lang=doc.lang, year_only=span.subtype == "year")
            counts["read by dp_date"] += value is not None
            counts["laid out by fake"] += parse_layout(span.text, doc.lang, subtype=span.subtype) is not None
            counts["original 90+"] += over89(span.text, span, doc)
    for name in ("fake", "dp_date"):
        operators = {label: build_operator("tag") for label in Label}
        operators[Label.DATE] = build_operator(name)
        for run in range(runs):
            for doc in docs:
                rng = RandomSource(run) if name == "fake" else RandomSource()
                done = Substituter(operators)(doc, rng)
                for span, rep in zip(doc.spans, done.replacements, strict=True):
                    counts[f"{name}: surrogates"] += 1
                    counts[f"{name}: [90+] marker"] += OVER89 in rep.surrogate
                    counts[f"{name}: dates implying 90+"] += over89(rep.surrogate, span, doc)
    return counts


def main() -> None:
    """Print the counts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data",
        type=Path,
        required=True,
        help="data root with physionet_deid/, eds_pseudo_fr_synth/ and presidio_synth/",
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--today", type=dt.date.fromisoformat, default=dt.date.today())
    args = parser.parse_args()
    counts = measure(list(documents(args.data, args.today)), args.runs)
    for key, value in counts.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
