"""Belgian NISS, Swiss AVS and Quebec NAM numbers, built from their specifications."""

from __future__ import annotations

import pytest

from anonymed.detect.patterns.detector import PatternDetector
from anonymed.detect.patterns.national import RECOGNIZERS, avs_ok, nam_ok, niss_ok


def found(text: str, lang: str = "fr") -> dict[str, tuple[str, float]]:
    spans = PatternDetector().detect_text(text, lang)
    return {s.text: (s.full_label, s.score) for s in spans}


@pytest.mark.parametrize(
    ("number", "valid"),
    [
        ("85.07.30-033.28", True),  # 97 - 850730033 mod 97 = 28
        ("85.07.30-033.43", False),
        ("01.03.15-123.80", True),  # born in 2001: the check runs over 2010315123
        ("85073003328", True),  # without separators
    ],
)
def test_niss_check_digits(number: str, valid: bool) -> None:
    assert niss_ok(number) is valid


@pytest.mark.parametrize(
    ("number", "valid"),
    [("756.1234.5678.97", True), ("756.1234.5678.91", False), ("757.1234.5678.97", False)],
)
def test_avs_is_an_ean13_from_756(number: str, valid: bool) -> None:
    assert avs_ok(number) is valid


@pytest.mark.parametrize(
    ("number", "valid"),
    [
        ("TREM 5502 1512", True),
        ("TREM 5562 1512", True),
        ("TREM 5513 1512", False),
        ("TREM 5500 1512", False),
    ],
)
def test_a_nam_holds_a_birth_month(number: str, valid: bool) -> None:
    assert nam_ok(number) is valid


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("NISS 85.07.30-033.28.", "85.07.30-033.28"),
        ("Registre national : 85073003328", "85073003328"),
        ("AVS 756.1234.5678.97, domiciliée à Lausanne", "756.1234.5678.97"),
        ("numéro 7561234567897 du patient", "7561234567897"),  # a valid AVS needs no name
        ("Résident de Montréal, NAM TREM 5502 1512.", "TREM 5502 1512"),
        ("carte soleil ABCD 1201 0199", "ABCD 1201 0199"),
    ],
)
def test_named_or_valid_numbers_are_identifiers(text: str, value: str) -> None:
    label, score = found(text)[value]
    assert label.startswith("ID") and score >= 0.9


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("NISS 85.07.30-033.43 erroné", "85.07.30-033.43"),  # a wrong check, named: still an identifier
        ("AVS 756.1234.5678.91", "756.1234.5678.91"),
        ("NAM TREM 5513 1512", "TREM 5513 1512"),  # month 13
    ],
)
def test_a_named_number_with_a_wrong_check_is_still_an_identifier(text: str, value: str) -> None:
    label, score = found(text)[value]
    assert label in ("ID/other", "ID/plan") and 0.9 <= score < 0.97


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Dosage 85.07.30-033.28 relevé", "85.07.30-033.28"),  # a NISS shape without its name
        ("code ABCD 1201 0199 du lot", "ABCD 1201 0199"),  # a NAM shape without its name
        ("lot 7561234567891 du jour", "7561234567891"),  # an AVS shape with a wrong check, unnamed
    ],
)
def test_shapes_without_their_name_or_check_score_as_bare_numbers_at_most(text: str, value: str) -> None:
    _, score = found(text).get(value, ("", 0.0))
    assert score < 0.9


def test_a_number_that_must_be_named_is_looked_for_only_where_its_name_is() -> None:
    niss = next(r for r in RECOGNIZERS if r.name == "niss")
    assert niss.precondition is not None
    assert niss.precondition.search("Registre national : 85073003328")
    assert niss.precondition.search("Dosage 85.07.30-033.28 relevé") is None
