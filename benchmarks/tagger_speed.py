"""Throughput of the PHI tagger on PhysioNet nursing notes, in one process (notes per second per core).

    python benchmarks/tagger_speed.py --notes 1000

Measures the tagger alone (it runs the pattern and lexicon detectors for its hint features) and the
ensemble patterns + lexicons + tagger merged, after one warm-up note (model loading is not timed); then
the default detectors (tagger + patterns) as the pipeline runs them, one shared view per note, and their
rate against patterns + lexicons in the same run.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from anonymed.detect.base import Detector
from anonymed.detect.merge import merge_spans
from anonymed.detect.registry import DEFAULT_DETECTORS, build_detector
from anonymed.detect.view import NoteView
from anonymed.document import Document
from anonymed.train.corpora import read_gold_documents
from anonymed.train.recipe import DEV_CORPORA, training_root
from shared_detect import merged_spans


def _rate(detectors: list[Detector], docs: list[Document], *, shared: bool = False) -> tuple[float, str]:
    """Notes per CPU second of this process (the per-core figure), and a line with the wall rate too.
    ``shared``: one ``NoteView`` per note, whose tokens and spans the detectors share (as the pipeline)."""
    for detector in detectors:
        detector.detect(docs[0])
    wall, cpu = time.perf_counter(), time.process_time()
    for doc in docs:
        if shared:
            merged_spans(NoteView(doc), detectors)
        else:
            merge_spans(doc.text, [span for detector in detectors for span in detector.detect(doc)])
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    rate = len(docs) / cpu
    return rate, f"{rate:.1f} notes per CPU second ({len(docs) / wall:.1f} notes/s wall)"


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=1000, help="how many notes to tag")
    parser.add_argument("--model", type=str, default=None, help="model folder (default: the shipped one)")
    parser.add_argument("--data", type=Path, default=None, help="PhysioNet folder with id.text")
    args = parser.parse_args()
    relative, fmt = DEV_CORPORA["en"]
    path = (args.data / "id.text") if args.data else training_root() / relative
    docs = read_gold_documents(path, fmt, "en")[: args.notes]
    lengths = [len(doc.text) for doc in docs]
    params = {"model": args.model} if args.model else {}
    tagger = build_detector("tagger", params)
    others = [build_detector("patterns"), build_detector("lexicons")]
    print(
        f"{len(docs)} notes, median {statistics.median(lengths):.0f} characters, "
        f"mean {statistics.mean(lengths):.0f}"
    )
    baseline, line = _rate(others, docs)
    print(f"patterns+lexicons: {line}")
    print(f"tagger (with its hints): {_rate([tagger], docs)[1]}")
    print(f"patterns+lexicons+tagger: {_rate([*others, tagger], docs)[1]}")
    named = {"tagger": tagger, "patterns": others[0]}
    rate, line = _rate([named[name] for name in DEFAULT_DETECTORS], docs, shared=True)
    names = "+".join(DEFAULT_DETECTORS)
    print(f"default ({names}, one view per note): {line}; {rate / baseline:.2f}x patterns+lexicons")


if __name__ == "__main__":
    main()
