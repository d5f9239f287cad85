"""The pattern detector as a whole: interface, options, offsets, overlaps, and regex safety."""

from __future__ import annotations

import time
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anonymed.detect.patterns.detector import PatternDetector, PatternParams, all_patterns
from anonymed.detect.registry import build_detector
from anonymed.document import Document
from anonymed.errors import ConfigError

NOTE_EN = (
    "98 yo gentleman admitted 12/02/2020 at 10:30. PMH: S/P MI 1992. "
    "Son cell# 410-322-1419, email son@example.com. MRN: 1234567. BP 120/80, 5 MG."
)
NOTE_FR = "Mme X, âgée de 46 ans, née le 3 mars 1975, tél 01 23 45 67 89, NIR 1 85 05 78 006 084 91."


def test_the_registry_builds_the_pattern_detector() -> None:
    detector = build_detector("patterns")
    assert isinstance(detector, PatternDetector)
    assert detector.params == PatternParams()


def test_options_can_be_given_as_a_mapping() -> None:
    assert build_detector("patterns", {"high_recall": True}).params.high_recall is True


def test_unknown_options_are_configuration_errors_naming_the_option() -> None:
    with pytest.raises(ConfigError, match="recal"):
        build_detector("patterns", {"recal": True})


def test_detect_reads_the_document_language() -> None:
    doc = Document("n1", NOTE_FR, {"lang": "fr"})
    found = {(span.full_label, span.text) for span in PatternDetector().detect(doc)}
    assert ("AGE", "46") in found
    assert ("DATE/birth", "3 mars 1975") in found
    assert ("CONTACT/phone", "01 23 45 67 89") in found
    assert ("ID/nir", "1 85 05 78 006 084 91") in found


@pytest.mark.parametrize("note", [NOTE_EN, NOTE_FR])
def test_spans_slice_the_text_and_carry_the_source(note: str) -> None:
    spans = PatternDetector().detect_text(note)
    assert spans
    for span in spans:
        assert note[span.start : span.end] == span.text
        assert span.source == "patterns"
        assert 0.0 <= span.score <= 1.0


def test_spans_are_sorted_and_do_not_overlap() -> None:
    spans = PatternDetector().detect_text(NOTE_EN + " " + NOTE_FR)
    for left, right in pairwise(spans):
        assert left.end <= right.start


def test_the_english_note_yields_the_expected_phi_and_nothing_for_vitals() -> None:
    found = {
        (span.full_label, span.text)
        for span in PatternDetector(PatternParams(times=True)).detect_text(NOTE_EN)
    }
    assert {
        ("AGE/over89", "98"),
        ("DATE", "12/02/2020"),
        ("DATE/time", "10:30"),
        ("DATE/year", "1992"),
        ("CONTACT/phone", "410-322-1419"),
        ("CONTACT/email", "son@example.com"),
        ("ID/mrn", "1234567"),
    } <= found
    assert not any(text in {"120/80", "5"} for _, text in found)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("0123456789 /.-:()+@#'aeMnsé\n|")), max_size=120))
def test_spans_stay_inside_any_text_and_match_it(text: str) -> None:
    spans = PatternDetector(PatternParams(high_recall=True)).detect_text(text, "fr")
    for span in spans:
        assert 0 <= span.start < span.end <= len(text)
        assert text[span.start : span.end] == span.text
    for left, right in pairwise(spans):
        assert left.end <= right.start


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_unicode_never_breaks_the_detector(text: str) -> None:
    for span in PatternDetector().detect_text(text, "en"):
        assert text[span.start : span.end] == span.text


ADVERSARIAL = ("1" * 20_000, "a." * 10_000, "/ " * 10_000, "1 " * 10_000, "1/" * 10_000, "# " * 10_000)


def test_no_pattern_backtracks_catastrophically_on_adversarial_input() -> None:
    started = time.perf_counter()
    for pattern in all_patterns():
        for text in ADVERSARIAL[:3]:
            for _ in pattern.finditer(text):
                pass
    assert time.perf_counter() - started < 2.0


def test_the_whole_detector_handles_adversarial_input() -> None:
    detector = PatternDetector(PatternParams(high_recall=True))
    for text in ADVERSARIAL:
        for span in detector.detect_text(text, "fr"):
            assert text[span.start : span.end] == span.text
