"""The redact operator masks a span character by character, or removes it."""

from __future__ import annotations

import pytest

from anonymed.document import Document, Span
from anonymed.errors import ConfigError
from anonymed.randomness import RandomSource
from anonymed.substitute.base import Context
from anonymed.substitute.context import ValueStreams
from anonymed.substitute.registry import build_operator

TEXT = "Name: John\nSmith; city: Lyon"


def _context() -> Context:
    doc = Document("d1", TEXT)
    return Context(doc, RandomSource(1), ValueStreams(doc, RandomSource(1)))


@pytest.mark.parametrize(
    ("mask", "start", "end", "expected"),
    [
        ("*", 6, 16, "****\n*****"),  # same length, line break kept
        ("#", 24, 28, "####"),  # another mask character
        ("", 24, 28, ""),  # empty mask removes the span
    ],
)
def test_redact_masks_or_removes(mask: str, start: int, end: int, expected: str) -> None:
    span = Span.of(TEXT, start, end, "NAME")
    assert build_operator("redact", {"mask": mask}).operate(span, _context()) == expected


def test_redact_refuses_a_mask_of_several_characters() -> None:
    with pytest.raises(ConfigError, match="one character"):
        build_operator("redact", {"mask": "**"})
