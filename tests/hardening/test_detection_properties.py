"""Detectors and merging on hostile text: spans always valid; merged spans sorted and non-overlapping."""

from __future__ import annotations

from functools import cache
from itertools import pairwise

import pytest
from hardening_inputs import texts, unicode_texts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anonymed.config import PipelineConfig
from anonymed.detect.merge import merge_spans
from anonymed.document import Document, Span
from anonymed.labels import Label
from anonymed.pipeline import Pipeline

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: (language, high recall, detectors): every detector option that changes which rules run
MODES = [
    ("en", False, "patterns,lexicons"),
    ("en", True, "patterns,lexicons"),
    ("fr", False, "patterns,lexicons"),
    ("fr", True, "patterns,lexicons"),
    ("en", False, "tagger,patterns"),  # the default
    ("fr", False, "tagger,patterns"),
    ("en", True, "tagger,patterns"),
]


@cache
def pipeline(lang: str, high_recall: bool, detectors: str = "patterns,lexicons") -> Pipeline:
    """A detection pipeline per mode, built once (times, states and countries switched on too)."""
    params = {"patterns": {"times": True}, "lexicons": {"regions": True}}
    return Pipeline(
        PipelineConfig(
            lang=lang, high_recall=high_recall, detector_params=params, detectors=tuple(detectors.split(","))
        )
    )


def check_valid(text: str, spans: list[Span] | tuple[Span, ...]) -> None:
    for span in spans:
        assert 0 <= span.start < span.end <= len(text)
        assert text[span.start : span.end] == span.text
        assert 0.0 <= span.score <= 1.0


@pytest.mark.parametrize(("lang", "high_recall", "detectors"), MODES)
@SETTINGS
@given(text=st.one_of(texts, unicode_texts))
def test_every_detector_gives_valid_spans_and_the_merge_disjoint_ones(
    lang: str, high_recall: bool, detectors: str, text: str
) -> None:
    engine = pipeline(lang, high_recall, detectors)
    doc = Document("d", text, {"lang": lang})
    for detector in engine.detectors_:
        check_valid(text, detector.detect(doc))
    merged = engine.detect(doc).spans
    check_valid(text, merged)
    for left, right in pairwise(merged):
        assert left.end <= right.start


_labels = st.sampled_from(list(Label))


@st.composite
def text_and_spans(draw: st.DrawFn) -> tuple[str, list[Span]]:
    """A text and arbitrary (overlapping, nested, duplicated) spans over it."""
    text = draw(st.text(min_size=1, max_size=60))
    bounds = st.tuples(st.integers(0, len(text) - 1), st.integers(1, len(text)))
    raw = draw(st.lists(st.tuples(bounds, _labels, st.floats(0, 1)), max_size=12))
    spans = [
        Span.of(text, min(a, b - 1), max(a + 1, b), label, score=score, source=f"s{i % 3}")
        for i, ((a, b), label, score) in enumerate(raw)
    ]
    return text, spans


@settings(max_examples=400, deadline=None)
@given(case=text_and_spans())
def test_merging_any_spans_covers_them_all_with_disjoint_unions(case: tuple[str, list[Span]]) -> None:
    text, spans = case
    merged = merge_spans(text, spans)
    check_valid(text, merged)
    assert merged == sorted(merged, key=lambda s: s.start)
    for left, right in pairwise(merged):
        assert left.end <= right.start
    for span in spans:  # recall first: nothing any detector found is dropped
        assert any(m.start <= span.start and span.end <= m.end for m in merged)
    for m in merged:  # each merged span is the union of the spans it covers, labelled by one of them
        inside = [s for s in spans if m.start <= s.start and s.end <= m.end]
        assert min(s.start for s in inside) == m.start and max(s.end for s in inside) == m.end
        assert m.label in {s.label for s in inside}
