"""The dp_age operator: Laplace noise in years (or the age's unit), never an age above 89."""

from __future__ import annotations

import re

import pytest
from dp_montecarlo import check_ratio, make_doc, outputs, substituter
from hypothesis import given, settings
from hypothesis import strategies as st

from anonymed.errors import ConfigError
from anonymed.randomness import RandomSource
from anonymed.substitute.registry import build_operator


@pytest.mark.parametrize(
    ("text", "target", "lang", "pattern"),
    [
        ("He is 40 years old.", "40 years old", "en", r"He is (1 year|\d+ years|90\+ years) old\."),
        ("A 40-year-old man.", "40-year-old", "en", r"A (\d+|90\+)-year-old man\."),
        ("Il est âgé de 40 ans.", "âgé de 40 ans", "fr", r"Il est âgé de (1 an|\d+ ans|90\+ ans)\."),
        ("Baby, 18 months old.", "18 months old", "en", r"Baby, (1 month|\d+ months) old\."),
        ("Age 40.", "40", "en", r"Age (\d+|90\+)\."),
    ],
)
def test_ages_keep_their_words_and_language(text: str, target: str, lang: str, pattern: str) -> None:
    doc = make_doc(text, [(target, "AGE")], lang=lang)
    for _ in range(20):
        assert re.fullmatch(pattern, substituter(0.5)(doc, RandomSource()).result)


@settings(max_examples=60, deadline=None)
@given(
    age=st.integers(0, 130),
    epsilon=st.sampled_from([0.05, 0.5, 5.0]),
    unit=st.sampled_from(["years", "months"]),
)
def test_no_age_above_89_years_is_ever_written(age: int, epsilon: float, unit: str) -> None:
    text = f"Patient aged {age} {unit}."
    out = substituter(epsilon)(make_doc(text, [(f"{age} {unit}", "AGE")]), RandomSource())
    number = re.search(r"aged (90\+|\d+)", out.result)
    assert number is not None
    if number.group(1) != "90+":
        years = int(number.group(1)) / (12 if unit == "months" else 1)
        assert 0 <= years < 90


@pytest.mark.parametrize("digits", ["999999999999999999999999999999", "3000000000"])
def test_an_age_beyond_any_integer_range_is_released_grouped(digits: str) -> None:
    doc = make_doc(f"Patient aged {digits} years.", [(f"{digits} years", "AGE")])
    out = substituter(1.0)(doc, RandomSource())  # had raised: not representable by i32
    assert re.fullmatch(r"Patient aged (90\+|\d{1,2}) years\.", out.result)
    assert digits not in out.result


def test_repeated_age_is_drawn_once() -> None:
    doc = make_doc("98 years old; again: 98 years old.", [("98 years old", "AGE"), ("98 years old", "AGE")])
    out = substituter(1.0)(doc, RandomSource())
    first, second = (r.surrogate for r in out.replacements)
    assert first == second
    assert len(out.privacy["expenses"]) == 1


def test_over89_text_is_configurable_but_cannot_carry_an_age() -> None:
    with pytest.raises(ConfigError):
        build_operator("dp_age", {"over89": "95"})
    doc = make_doc("Aged 120 years.", [("120 years", "AGE")])
    out = substituter(50.0, dp_age={"over89": "90 or older"})(doc, RandomSource())
    assert out.result == "Aged 90 or older years."


def test_neighbouring_ages_are_indistinguishable_up_to_exp_epsilon_d() -> None:
    eps, n = 0.5, 2500
    docs = [make_doc(f"He is {a} years old.", [(f"{a} years old", "AGE")]) for a in (40, 41)]
    sub = substituter(eps)
    result = check_ratio(outputs(sub, docs[0], n), outputs(sub, docs[1], n), eps * 1)
    assert result.tested >= 6
    assert result.violations == ()


def test_ages_routed_to_dp_date_are_still_grouped_above_89() -> None:
    from anonymed.labels import Label
    from anonymed.substitute.stage import Substituter

    sub = Substituter({Label.AGE: build_operator("dp_date", {"fallback": "tag"})}, epsilon=50.0)
    doc = make_doc("Aged 120 years.", [("120 years", "AGE")])
    assert sub(doc, RandomSource()).result == "Aged 90+ years."
