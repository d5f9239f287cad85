"""The false-positive word counts of benchmarks/known_identifiers_cv.py."""

from __future__ import annotations

import sys
from pathlib import Path

from anonymed.document import Document, Span
from anonymed.evaluate.detection import evaluate_detection

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import known_identifiers_cv  # lives in benchmarks/, no package


def at(text: str, needle: str, occurrence: int = 0) -> Span:
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(needle, start + 1)
    return Span.of(text, start, start + len(needle), "NAME")


def test_false_positive_words_are_the_reports_spurious_tokens_by_word() -> None:
    text = "Foley placed by Dr Foley. Mark FOLEY-Smith seen."
    doc = Document("d", text, gold=(at(text, "Foley", 1),))
    predicted = [at(text, "Foley"), at(text, "Foley", 1), at(text, "Mark FOLEY-Smith")]
    counts = known_identifiers_cv.false_positive_words([(doc, predicted)])
    assert counts == {"foley": 2, "mark": 1, "smith": 1}
    spurious = evaluate_detection([(doc, predicted)]).overall.tokens.spurious
    assert counts.total() == spurious == 4
