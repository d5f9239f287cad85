"""Token precision of each English context rule (``contexts.<rule>``) on the shipped PhysioNet dev notes.

    python benchmarks/tagger_cv_rules.py [--data DATA]

The rules are not trained, so these figures are no cross-validation: they say how far each rule can be
trusted as a hint (``TaggerParams.trusted_hints``), and the CV of ``tagger_cv.py`` says what trusting it
gives. A rule's token is correct when a gold span of any label covers it. Prints counts only (no note text).
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from anonymed.detect.lexicons.contexts import ContextDetector
from anonymed.detect.tagger.detector import DECODE_DEFAULTS
from anonymed.detect.view import NoteView
from anonymed.evaluate.tokens import TOKEN_RE
from anonymed.train.recipe import RecognizerRecipe, dev_documents


def rule_counts(data: Path | None) -> tuple[Counter[str], Counter[str]]:
    """Per rule source, the tokens inside gold spans and the tokens outside."""
    correct: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    detector = ContextDetector()
    for doc in dev_documents(RecognizerRecipe("en", data=data)):
        gold = bytearray(len(doc.text))
        for span in doc.gold:
            gold[span.start : span.end] = b"\x01" * (span.end - span.start)
        for span in detector.detect_view(NoteView(doc)):
            for match in TOKEN_RE.finditer(doc.text, span.start, span.end):
                counter = correct if any(gold[match.start() : match.end()]) else wrong
                counter[span.source] += 1
    return correct, wrong


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None, help="training data root (default: shipped)")
    args = parser.parse_args()
    correct, wrong = rule_counts(args.data)
    trusted = set(DECODE_DEFAULTS["en"].trusted_hints)
    print("| rule | tokens in gold | tokens outside | precision | trusted |")
    print("|---|---:|---:|---:|---|")
    for source in sorted(set(correct) | set(wrong)):
        total = correct[source] + wrong[source]
        mark = "yes" if source in trusted else "no"
        print(f"| {source} | {correct[source]} | {wrong[source]} | {correct[source] / total:.2f} | {mark} |")


if __name__ == "__main__":
    main()
