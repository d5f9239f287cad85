"""The keep operator leaves a span as it is."""

from __future__ import annotations

from anonymed.document import Document, Span
from anonymed.labels import Label
from anonymed.randomness import RandomSource
from anonymed.substitute.registry import build_operator
from anonymed.substitute.stage import Substituter


def test_keep_returns_the_original_and_the_output_equals_the_input() -> None:
    text = "Seen in Boston by Dr. Park."
    doc = Document("d1", text, spans=(Span.of(text, 8, 14, "LOCATION"), Span.of(text, 22, 26, "NAME")))
    result = Substituter(dict.fromkeys(Label, build_operator("keep")))(doc, RandomSource(1))
    assert result.result == text
    assert [(r.surrogate, r.operator) for r in result.replacements] == [("Boston", "keep"), ("Park", "keep")]
