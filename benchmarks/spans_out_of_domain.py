"""Spans the default detectors find in notes of another kind (MTSamples dictations), per label.

    python benchmarks/spans_out_of_domain.py [--notes 400] [--seed 7] [--mtsamples CSV] [--json OUT]

The English model and its rules are tuned on ICU nursing notes (PhysioNet). MTSamples are transcribed
dictations of other specialties whose people and places were already removed by their publisher (what
is left is mostly dates, ages, placeholder hospitals and eponyms), so a NAME or LOCATION span there is more
often a false positive than in the development notes. Run on two commits, the counts show how much a
detection change adds or removes outside the notes it was tuned on. Prints counts only (no note text).
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path

from anonymed.evaluate.tokens import TOKEN_RE
from anonymed.io.corpus import mtsamples_notes
from anonymed.pipeline import Pipeline


def span_counts(notes: int, seed: int, path: Path | None) -> tuple[Counter[str], int, int]:
    """Spans per label over a seeded sample of notes, the tokens read and the notes read."""
    docs = [doc for doc in mtsamples_notes(path) if len(doc.text) >= 200]
    random.Random(seed).shuffle(docs)
    sample = docs[:notes]
    pipeline = Pipeline()
    counts: Counter[str] = Counter()
    tokens = 0
    for doc in sample:
        tokens += sum(1 for _ in TOKEN_RE.finditer(doc.text))
        for span in pipeline.detect(doc).spans:
            counts[span.label.split("/")[0]] += 1
    return counts, tokens, len(sample)


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=400, help="notes sampled (at least 200 characters)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the sample")
    parser.add_argument("--mtsamples", type=Path, default=None, help="MTSamples CSV (default: shipped)")
    parser.add_argument("--json", type=Path, default=None, help="write the counts as JSON here")
    args = parser.parse_args()
    counts, tokens, read = span_counts(args.notes, args.seed, args.mtsamples)
    print(f"{read} notes, {tokens:,} tokens, {sum(counts.values())} spans")
    print("| label | spans | per 1,000 tokens |")
    print("|---|---:|---:|")
    for label, count in sorted(counts.items()):
        print(f"| {label} | {count} | {1000 * count / tokens:.2f} |")
    if args.json:
        args.json.write_text(json.dumps({"notes": read, "tokens": tokens, "spans": dict(counts)}, indent=2))


if __name__ == "__main__":
    main()
