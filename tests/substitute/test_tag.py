"""The tag operator writes the span's label (and subtype) into a template."""

from __future__ import annotations

import pytest

from anonymed.document import Document, Span
from anonymed.errors import ConfigError
from anonymed.randomness import RandomSource
from anonymed.substitute.base import Context
from anonymed.substitute.context import ValueStreams
from anonymed.substitute.registry import build_operator

TEXT = "Dr. Helen Park, Boston"


def _context() -> Context:
    doc = Document("d1", TEXT)
    return Context(doc, RandomSource(1), ValueStreams(doc, RandomSource(1)))


@pytest.mark.parametrize(
    ("template", "span", "expected"),
    [
        ("[{label}]", Span.of(TEXT, 4, 14, "NAME", subtype="clinician"), "[NAME]"),  # default template
        (
            "<{label}/{subtype}>",
            Span.of(TEXT, 4, 14, "NAME", subtype="clinician"),
            "<NAME/clinician>",
        ),  # subtype
        ("<{label}/{subtype}>", Span.of(TEXT, 16, 22, "LOCATION"), "<LOCATION/>"),  # missing subtype: empty
        ("XXX", Span.of(TEXT, 16, 22, "LOCATION"), "XXX"),  # constant template
    ],
)
def test_tag_fills_the_template(template: str, span: Span, expected: str) -> None:
    assert build_operator("tag", {"template": template}).operate(span, _context()) == expected


@pytest.mark.parametrize("template", ["[{name}]", "[{0}]", "[{label"])
def test_tag_template_with_unknown_fields_is_refused(template: str) -> None:
    with pytest.raises(ConfigError, match="template"):
        build_operator("tag", {"template": template})
