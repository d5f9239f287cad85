"""HIPAA Safe Harbor for dates: the operators write a date indicative of an age over 89 as "90+"."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from dp_montecarlo import make_doc
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from anonymed.dates.layout import parse_layout
from anonymed.dates.over89 import OVER89, age_at, earliest_day
from anonymed.document import Document, Span
from anonymed.errors import ConfigError
from anonymed.labels import Label
from anonymed.randomness import RandomSource
from anonymed.substitute.registry import build_operator
from anonymed.substitute.stage import Substituter

REF = dt.date(2021, 5, 1)


def _run(operator: str, text: str, target: str, *, lang: str = "en", **params: object) -> str:
    """The text with its one birth-date span replaced by ``operator`` (reference date ``REF``)."""
    doc = make_doc(text, [(target, "DATE")], lang=lang, reference_date=REF.isoformat())
    doc = doc.with_spans([Span.of(doc.text, s.start, s.end, Label.DATE, subtype="birth") for s in doc.spans])
    operators = {label: build_operator("tag") for label in Label}
    operators[Label.DATE] = build_operator(operator, dict(params))
    return Substituter(operators, epsilon=1.0)(doc, RandomSource()).result


@pytest.mark.parametrize("operator", ["fake", "dp_date"])
@pytest.mark.parametrize(
    ("text", "target", "lang", "written"),
    [
        ("DOB: 03/04/1925.", "03/04/1925", "en", "DOB: [90+]."),
        ("Né le 4 mars 1925.", "le 4 mars 1925", "fr", "Né le [90+]."),  # the span's "le " is kept
        ("Born in 1920.", "1920", "en", "Born in [90+]."),
        ("DOB 03/04/25", "03/04/25", "en", "DOB [90+]"),  # two-digit birth year read as 1925
        ("Né le 22|08|1923", "22|08|1923", "fr", "Né le [90+]"),  # dp_date: via its fake fallback
    ],
)
def test_a_birth_date_over_89_years_old_is_written_as_the_category(
    operator: str, text: str, target: str, lang: str, written: str
) -> None:
    assert _run(operator, text, target, lang=lang) == written


@pytest.mark.parametrize("operator", ["fake", "dp_date"])
def test_the_marker_is_configurable_but_cannot_carry_a_year(operator: str) -> None:
    assert _run(operator, "DOB 1925", "1925", over89="(90 or older)") == "DOB (90 or older)"
    with pytest.raises(ConfigError):
        build_operator(operator, {"over89": "[born 1925]"})


def test_an_aggregated_date_spends_no_budget_and_leaves_the_chronology() -> None:
    text = "DOB 03/04/1925, admitted 02/12/2020, discharged 02/20/2020."
    doc = make_doc(text, [("03/04/1925", "DATE"), ("02/12/2020", "DATE"), ("02/20/2020", "DATE")])
    doc = doc.evolve(metadata={**doc.metadata, "reference_date": "2021-05-01"})
    operators = {label: build_operator("tag") for label in Label}
    operators[Label.DATE] = build_operator("dp_date")
    out = Substituter(operators, epsilon=1.0)(doc, RandomSource())
    assert out.result.startswith("DOB [90+], admitted ")
    assert out.privacy["values"] == 2  # the budget is split over the two dates that get noise
    assert [e["start"] for e in out.privacy["expenses"]] == [text.index("02/12"), text.index("02/20")]
    assert out.privacy["epsilon_spent"] == pytest.approx(1.0)


FORMATS = {
    "en": ["{m}/{d}/{Y}", "{B} {d}, {Y}", "{Y}-{mm}-{dd}", "{Y}", "{B} {Y}", "{mm}/{Y}", "{m}/{d}/{yy}"],
    "fr": ["{dd}/{mm}/{Y}", "{d} {b} {Y}", "{dd}.{mm}.{Y}", "{dd}|{mm}|{Y}", "{Y}", "{dd}/{mm}/{yy}"],
}
MONTHS = {
    "en": {1: "January", 3: "March", 7: "July", 10: "October"},
    "fr": {1: "janvier", 3: "mars", 7: "juillet", 10: "octobre"},
}


def _write(day: dt.date, fmt: str, lang: str) -> str:
    return fmt.format(
        d=day.day, dd=f"{day.day:02d}", m=day.month, mm=f"{day.month:02d}", Y=day.year,
        yy=f"{day.year % 100:02d}", B=MONTHS[lang][day.month], b=MONTHS[lang][day.month],
    )  # fmt: skip


@st.composite
def birth_dates(draw: st.DrawFn, *, over: bool) -> tuple[str, str, dt.date, dt.date]:
    """(text, language, birth date, reference date) of a birth date implying 90+ (or under 90)."""
    lang = draw(st.sampled_from(["en", "fr"]))
    fmt = draw(st.sampled_from(FORMATS[lang] if over else [f for f in FORMATS[lang] if "yy" not in f]))
    reference = draw(st.dates(dt.date(1990, 1, 1), dt.date(2030, 12, 31)))
    years = draw(st.integers(90, 116) if over else st.integers(60, 89))
    month, day = draw(st.sampled_from(sorted(MONTHS[lang]))), draw(st.integers(1, 28))
    birth = dt.date(reference.year - years, month, day)
    assume((age_at(birth, reference) >= 90) is over)
    assume(not over or "yy" not in fmt or birth.year > reference.year - 100)  # read in the last century
    return _write(birth, fmt, lang), lang, birth, reference


def _surrogate(operator: str, text: str, lang: str, reference: dt.date, epsilon: float) -> str:
    doc = Document("d", f"DOB {text}.", {"lang": lang, "reference_date": reference.isoformat()})
    doc = doc.with_spans([Span.of(doc.text, 4, 4 + len(text), Label.DATE, subtype="birth")])
    operators = {label: build_operator("tag") for label in Label}
    operators[Label.DATE] = build_operator(operator)
    (replacement,) = Substituter(operators, epsilon=epsilon)(doc, RandomSource()).replacements
    return replacement.surrogate


PROPERTY = settings(max_examples=150, deadline=None)
OPERATORS = st.sampled_from(["fake", "dp_date"])
Birth = tuple[str, str, dt.date, dt.date]


@PROPERTY
@given(birth=birth_dates(over=True), operator=OPERATORS, epsilon=st.sampled_from([0.001, 1.0, 100.0]))
def test_a_birth_date_implying_90_or_more_never_gives_another_age_nor_its_year(
    birth: Birth, operator: str, epsilon: float
) -> None:
    text, lang, born, reference = birth
    surrogate = _surrogate(operator, text, lang, reference, epsilon)
    assert surrogate == OVER89, (text, surrogate)  # the category's "90" is the only number written
    assert str(born.year) not in surrogate


@PROPERTY
@given(birth=birth_dates(over=False), operator=OPERATORS, epsilon=st.sampled_from([0.0005, 0.01, 1.0]))
def test_no_surrogate_date_implies_an_age_over_89(birth: Birth, operator: str, epsilon: float) -> None:
    text, lang, _, reference = birth
    surrogate = _surrogate(operator, text, lang, reference, epsilon)
    if surrogate == OVER89:  # a noisy date past the line is written as the category (post-processing)
        return
    layout = parse_layout(surrogate, lang, reference=reference)
    value = None if layout is None else layout.value
    if value is not None:
        day = earliest_day(value, value.quantity)
        assert day is not None and age_at(day, reference) < 90, (text, surrogate)
    else:  # a year noised by thousands of years is not read as a date: still not past the line
        years = [int(y) for y in re.findall(r"\d{4}", surrogate)]
        assert all(reference.year - y < 90 for y in years), (text, surrogate)
