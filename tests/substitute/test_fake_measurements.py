"""A span that looks like a measurement or a setting is replaced by one of the same shape, readable."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anonymed.document import Document, Span
from anonymed.labels import Label
from anonymed.randomness import RandomSource
from anonymed.substitute.fake.numbers import fake_measurement, measurement_like
from anonymed.substitute.registry import build_operator
from anonymed.substitute.stage import Substituter


def _replace(text: str, label: Label, subtype: str | None = None, seed: int = 0) -> str:
    doc = Document("d", f"on {text} today", {"lang": "en"})
    doc = doc.with_spans([Span.of(doc.text, 3, 3 + len(text), label, subtype=subtype)])
    operators = {lab: build_operator("tag") for lab in Label}
    operators[label] = build_operator("fake")
    (rep,) = Substituter(operators)(doc, RandomSource(seed)).replacements
    return rep.surrogate


@pytest.mark.parametrize(
    ("text", "label", "subtype"),
    [
        ("700x12x", Label.ID, "other"),
        ("AC700X10", Label.ID, "other"),
        ("#30f/30cc", Label.OTHER, None),
        ("PACING @ 60", Label.CONTACT, None),  # an "@" without an address is no e-mail
        ("800x12AC", Label.ID, None),
    ],
)
def test_settings_keep_their_units_and_shape(text: str, label: Label, subtype: str | None) -> None:
    out = _replace(text, label, subtype)
    assert "@" not in out or "@" in text
    assert re.sub(r"\d", "9", out) == re.sub(r"\d", "9", text), out  # same shape, same letters
    assert out != text


@settings(max_examples=100, deadline=None)
@given(
    numbers=st.lists(st.integers(1, 999), min_size=2, max_size=3),
    unit=st.sampled_from(["x", "X", "cc", "f", "ml"]),
    seed=st.integers(0, 1000),
)
def test_every_setting_is_redrawn_in_its_shape(numbers: list[int], unit: str, seed: int) -> None:
    text = unit.join(str(n) for n in numbers) + unit
    assert measurement_like(text)
    out = _replace(text, Label.ID, "other", seed)
    assert re.sub(r"\d", "9", out) == re.sub(r"\d", "9", text)
    assert re.findall(r"[^\W\d_]+", out) == re.findall(r"[^\W\d_]+", text)  # no random letters
    assert out != text


def test_words_that_are_not_units_make_no_measurement() -> None:
    assert not measurement_like("John 60")
    assert not measurement_like("rg17")


def test_a_long_number_in_a_setting_is_redrawn_without_listing_its_range() -> None:
    # "4406178252792u" once listed 2.6 million million numbers (the pipeline fuzz target ran out of memory)
    out = fake_measurement("4406178252792u", RandomSource(1))
    assert out.endswith("u") and out[:-1].isdigit() and len(out) == 14 and out != "4406178252792u"
    low, high = int(4406178252792 * 0.7), int(4406178252792 * 1.3) + 1
    assert low <= int(out[:-1]) <= high
