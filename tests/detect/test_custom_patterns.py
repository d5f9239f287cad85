"""The site's own identifier formats in configuration: recognizers as data, named validators, context words,
and regular expressions refused at load when they can backtrack catastrophically."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from anonymed.config import PipelineConfig
from anonymed.detect.custom import VALIDATORS, CustomPattern, compile_patterns, custom_patterns
from anonymed.detect.patterns.base import PatternParams, Scan
from anonymed.detect.patterns.detector import PatternDetector
from anonymed.detect.patterns.recognizer import find_declared
from anonymed.detect.regex_safety import checked_regex, nested_repetition
from anonymed.detect.registry import build_detector
from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.pipeline import Pipeline

#: the site's patient numbers: an 8 and nine digits, the last a Luhn check digit
SITE_ID: dict[str, Any] = {
    "name": "site_ipp",
    "label": "ID/mrn",
    "regex": r"(?<![\w-])8\d{9}(?![\w-])",
    "context": ["ipp", "patient number"],
    "validator": "luhn",
    "score": 0.8,
    "context_score": 0.97,
}
VALID, INVALID = "8001234569", "8001234568"


def spans(entries: list[dict[str, Any]], text: str, **params: Any) -> list[tuple[str, str, float]]:
    """What the custom recognizers alone find (the built-in formats left out)."""
    recognizers = compile_patterns(custom_patterns(entries))
    scan = Scan(text, "en", PatternParams(**params))
    return [(s.text, s.full_label, s.score) for s in find_declared(recognizers, scan)]


def test_a_custom_format_is_found_with_its_label_and_context_raises_its_score() -> None:
    assert spans([SITE_ID], f"ref {VALID} ok") == [(VALID, "ID/mrn", 0.8)]
    assert spans([SITE_ID], f"IPP: {VALID}") == [(VALID, "ID/mrn", 0.97)]
    assert spans([SITE_ID], f"Patient number {VALID}") == [(VALID, "ID/mrn", 0.97)]


def test_a_wrong_check_digit_drops_the_match_unless_an_invalid_score_keeps_it_with_context() -> None:
    assert spans([SITE_ID], f"IPP: {INVALID}") == []
    lenient = {**SITE_ID, "invalid_score": 0.5}
    assert spans([lenient], f"IPP: {INVALID}") == [(INVALID, "ID/mrn", 0.5)]
    assert spans([lenient], f"ref {INVALID}") == []  # no context: not kept (unless high recall)
    assert spans([lenient], f"ref {INVALID}", high_recall=True) == [(INVALID, "ID/mrn", 0.5)]


def test_needs_context_keeps_only_cued_matches() -> None:
    cued = {**SITE_ID, "needs_context": True}
    assert spans([cued], f"ref {VALID}") == []
    assert spans([cued], f"ipp {VALID}") == [(VALID, "ID/mrn", 0.97)]


@pytest.mark.parametrize(
    ("validator", "good", "bad"),
    [
        ("luhn", "4111 1111 1111 1111", "4111 1111 1111 1112"),
        ("mod97", "GB82 WEST 1234 5698 7654 32", "GB82 WEST 1234 5698 7654 33"),
        ("mod11", "943 476 5919", "943 476 5918"),
        ("nir", "1 85 05 78 006 084 91", "1 85 05 78 006 084 92"),
    ],
)
def test_each_named_validator_is_the_built_in_formats_check(validator: str, good: str, bad: str) -> None:
    check = VALIDATORS[validator]
    assert check(good) and not check(bad)


def test_the_pattern_detector_runs_the_custom_formats_with_its_own() -> None:
    detector = build_detector("patterns", {"custom": [SITE_ID]})
    doc = Document("d", f"patient number {VALID} on 03/04/2020")
    found = {(s.text, s.full_label) for s in detector.detect(doc)}
    assert found == {(VALID, "ID/mrn"), ("03/04/2020", "DATE")}


def test_entries_from_a_toml_file_reach_the_pipeline(tmp_path: Path) -> None:
    path = tmp_path / "site.toml"
    path.write_text(
        '[pipeline]\ndetectors = ["patterns"]\n'
        "[[detector_params.patterns.custom]]\n"
        'name = "badge"\nlabel = "ID"\nsubtype = "other"\nregex = \'BDG-[0-9]{5}\'\ncontext = ["badge"]\n',
        encoding="utf-8",
    )
    config = PipelineConfig.from_toml(path)
    doc = Pipeline(config).detect(Document("d", "Staff badge BDG-00412 at the desk."))
    found = [(s.text, s.full_label, s.score) for s in doc.spans]
    assert found == [("BDG-00412", "ID/other", pytest.approx(0.95))]


@pytest.mark.parametrize(
    ("regex", "reason"),
    [
        (r"^(\d+[-/]?)+x", "nested repetition"),  # static check
        (r"(\w+\s?)*$", "nested repetition"),
        (r"(a|aa)+$", "backtracks catastrophically"),  # found by timing only
        (r"\d+\d+\d+x", "backtracks catastrophically"),  # polynomial: each start scans the run three ways
        (r"(unclosed", "not a valid regular expression"),
    ],
)
def test_a_catastrophic_or_invalid_regex_is_refused_naming_the_entry(regex: str, reason: str) -> None:
    entries = [SITE_ID, {"name": "bad_one", "label": "ID", "regex": regex}]
    with pytest.raises(ConfigError, match=reason) as caught:
        PatternDetector(PatternParams(custom=entries))
    assert str(caught.value).startswith("custom pattern 1 ('bad_one')")


@pytest.mark.parametrize(
    ("entry", "reason"),
    [
        ({"label": "ID"}, "needs regex and label"),
        ({"label": "ID", "regex": "x", "colour": 1}, "unknown keys \\['colour'\\]"),
        ({"label": "PLACE", "regex": "x"}, "unknown label"),
        ({"label": "ID/zip", "regex": "x"}, "unknown subtype"),
        ({"label": "ID", "regex": "x", "validator": "crc32"}, "unknown validator 'crc32'"),
        ({"label": "ID", "regex": "x", "score": 2.0}, "score must be within"),
        ({"label": "ID", "regex": "x", "needs_context": True}, "needs_context without context"),
        ({"label": "ID", "regex": "(x)", "group": 2}, "group 2 but the regex has 1 groups"),
        ({"label": "ID", "regex": "x", "context": "ipp"}, "context must be a list of strings"),
        ({"label": "ID", "regex": "x", "window": "40"}, "parameter 'window' must be int"),
    ],
)
def test_bad_entries_are_errors_naming_the_entry(entry: dict[str, Any], reason: str) -> None:
    with pytest.raises(ConfigError, match=reason) as caught:
        custom_patterns([entry])
    assert "custom pattern 0" in str(caught.value)


def test_the_static_check_accepts_bounded_and_anchored_repetitions() -> None:
    for sound in (r"[^\W_]+(?:[/&][^\W_]+)*", r"(?: ?[A-Z0-9]{4}){2,7}", r"(?:[- ]?\d){8}", r"([a-z]+ )+x"):
        assert not nested_repetition(sound), sound
        checked_regex(sound, 0, "test")


def test_the_check_runs_in_any_thread_no_signal_needed() -> None:
    errors: list[BaseException] = []

    def check() -> None:
        try:
            checked_regex(r"(b|bb)+$", 0, "thread entry")
        except ConfigError as exc:
            errors.append(exc)

    worker = threading.Thread(target=check)
    worker.start()
    worker.join(timeout=30)
    assert len(errors) == 1 and "thread entry" in str(errors[0])


def test_a_typed_entry_is_taken_as_is() -> None:
    typed = CustomPattern(regex=r"ZZ\d{4}", label="ID", subtype="other")
    assert custom_patterns([typed]) == (typed,)
