"""Safe Harbor operators (year_only, age_over89, zip3) and the hipaa-safe-harbor profile, generated notes."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anonymed.config import PipelineConfig
from anonymed.document import Document, Span
from anonymed.labels import SUBTYPES, Label
from anonymed.pipeline import Pipeline, substitution_report
from anonymed.randomness import RandomSource
from anonymed.substitute.checklist import kind_of
from anonymed.substitute.registry import build_operator
from anonymed.substitute.stage import Substituter
from anonymed.substitute.zip3 import generalise_zip, restricted_prefixes


def _one(label: Label, operator: str, text: str, target: str, *, subtype: str | None = None,
         lang: str = "en", reference: str = "2024-01-15") -> str:  # fmt: skip
    start = text.index(target)
    span = Span.of(text, start, start + len(target), label, subtype=subtype)
    doc = Document("d", text, {"lang": lang, "reference_date": reference}, spans=(span,))
    done = Substituter({label: build_operator(operator)})(doc, RandomSource(1))
    return done.result


@pytest.mark.parametrize(
    ("text", "target", "lang", "expected"),
    [
        ("Admitted 02/12/2020.", "02/12/2020", "en", "Admitted 2020."),
        ("Seen February 26, 2020.", "February 26, 2020", "en", "Seen 2020."),
        ("Vu le 3 mars 2020.", "le 3 mars 2020", "fr", "Vu le 2020."),
        ("Since 12/83.", "12/83", "en", "Since 1983."),
        ("Born in 1992.", "1992", "en", "Born in 1992."),  # a year may stay
        ("Seen on 8/14.", "8/14", "en", "Seen on [DATE]."),  # no year: nothing of it stays
        ("Seen 3 days ago.", "3 days ago", "en", "Seen [DATE]."),
        ("Born 03/04/1925.", "03/04/1925", "en", "Born [90+]."),  # indicative of an age over 89
        ("Seen le deux janvier.", "le deux janvier", "fr", "Seen [DATE]."),  # unread
    ],
)
def test_year_only_keeps_at_most_the_year(text: str, target: str, lang: str, expected: str) -> None:
    assert _one(Label.DATE, "year_only", text, target, lang=lang) == expected


@pytest.mark.parametrize(
    ("text", "target", "expected"),
    [
        ("A 58 years old man.", "58 years old", "A 58 years old man."),
        ("A 95 years old man.", "95 years old", "A 90+ years old man."),
        ("A 92 y/o woman.", "92 y/o", "A 90+ y/o woman."),
        ("Aged 1100 months.", "1100 months", "Aged 1079 months."),  # capped below 90 years, as dp_age
    ],
)
def test_age_over89_keeps_younger_ages_and_groups_older_ones(text: str, target: str, expected: str) -> None:
    assert _one(Label.AGE, "age_over89", text, target) == expected


def test_zip_codes_keep_three_digits_or_000_in_small_areas() -> None:
    listed = "036 059 063 102 203 556 692 790 821 823 830 831 878 879 884 890 893"
    assert restricted_prefixes() == frozenset(listed.split(" "))
    assert generalise_zip("02139", 3, restricted_prefixes()) == "021**"
    assert generalise_zip("02139-4307", 3, restricted_prefixes()) == "021**-****"
    assert generalise_zip("05901", 3, restricted_prefixes()) == "000**"
    assert _one(Label.LOCATION, "zip3", "Boston MA 02139.", "02139", subtype="zip") == "Boston MA 021**."
    assert _one(Label.LOCATION, "zip3", "21000 Dijon", "21000", subtype="zip", lang="fr") == "21*** Dijon"
    assert _one(Label.LOCATION, "zip3", "In Illinois.", "Illinois", subtype="state") == "In Illinois."
    city = _one(Label.LOCATION, "zip3", "In Springfield.", "Springfield", subtype="city")
    assert "Springfield" not in city


#: notes generated from parts: every date, ZIP code and age written in one of several ways
_DATE_FORMATS = ["%m/%d/%Y", "%B %d, %Y", "%Y-%m-%d", "%d %b %Y", "%m/%d/%y"]


@st.composite
def generated_notes(draw: st.DrawFn) -> tuple[Document, list[str], list[str], list[int]]:
    """A note with gold-like spans for dates, ZIP codes and ages; the true values to look for."""
    parts: list[tuple[str, Label | None, str | None]] = [("Patient seen on ", None, None)]
    dates, zips, ages = [], [], []
    for _ in range(draw(st.integers(1, 4))):
        day = draw(st.dates(dt.date(1900, 1, 1), dt.date(2023, 12, 31)))
        text = day.strftime(draw(st.sampled_from(_DATE_FORMATS)))
        dates.append(text)
        parts += [(text, Label.DATE, None), (", lives in Boston MA ", None, None)]
        code = f"{draw(st.integers(0, 99999)):05d}"
        zips.append(code)
        parts += [(code, Label.LOCATION, "zip"), (", aged ", None, None)]
        age = draw(st.integers(1, 120))
        ages.append(age)
        parts += [(f"{age} years old", Label.AGE, None), (". Then ", None, None)]
    text, spans = "", []
    for piece, label, subtype in parts:
        if label is not None:
            spans.append(Span(len(text), len(text) + len(piece), label, piece, subtype=subtype))
        text += piece
    doc = Document("g", text, {"lang": "en", "reference_date": "2024-01-15"}, spans=tuple(spans))
    return doc, dates, zips, ages


SAFE_HARBOR = Pipeline(PipelineConfig(profile="hipaa-safe-harbor", stages=("substitute",)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(note=generated_notes())
def test_safe_harbor_output_holds_no_full_date_no_zip_beyond_three_digits_no_age_over_89(
    note: tuple[Document, list[str], list[str], list[int]],
) -> None:
    doc, dates, zips, ages = note
    out = SAFE_HARBOR.run(doc).result
    assert not any(date in out for date in dates)
    assert not re.search(r"\d{1,2}/\d{1,2}|\d{4}-\d\d|[A-Z][a-z]{2,} \d{1,2}\b|\d{1,2} [A-Z][a-z]{2}", out)
    assert len(re.findall(r"MA (\d{3})\*\*(?!\d)", out)) == len(zips)  # every ZIP code cut to three digits
    assert not re.search(r"(?<!\d)\d{5}(?!\d)", out)
    written = re.findall(r"aged (\d+\+?) years old", out)
    assert len(written) == len(ages)
    for true, shown in zip(ages, written, strict=True):
        assert shown == (str(true) if true <= 89 else "90+")


def test_safe_harbor_summary_has_the_18_kinds_checklist() -> None:
    text = "John Smith, 95 years old, seen 02/12/2020 at Boston MA 02139, phone 617-555-0142, MRN 1234567."
    spans = [
        Span.of(text, 0, 10, Label.NAME, subtype="patient"),
        Span.of(text, 12, 24, Label.AGE),
        Span.of(text, 31, 41, Label.DATE),
        Span.of(text, 45, 51, Label.LOCATION, subtype="city"),
        Span.of(text, 55, 60, Label.LOCATION, subtype="zip"),
        Span.of(text, 68, 80, Label.CONTACT, subtype="phone"),
        Span.of(text, 86, 93, Label.ID, subtype="mrn"),
    ]
    doc = Document("d", text, {"lang": "en"}, spans=tuple(spans))
    config = PipelineConfig(profile="hipaa-safe-harbor", stages=("substitute",))
    done = Pipeline(config).run(doc)
    report = substitution_report(config, done.privacy["substitution"]["counts"])
    checklist = {row["kind"]: row for row in report["checklist"]}
    assert sorted(checklist) == [chr(c) for c in range(ord("A"), ord("S"))]  # A to R: 18 kinds
    assert checklist["A"]["found"] == 1 and checklist["A"]["done"] == {"fake": {"replaced": 1}}
    assert checklist["B"]["found"] == 2 and checklist["B"]["done"] == {"zip3": {"replaced": 2}}
    assert checklist["C"]["found"] == 2
    assert checklist["D"]["found"] == 1 and checklist["H"]["found"] == 1
    assert checklist["L"]["found"] == 0 and "when named" in checklist["L"]["note"]
    assert "Smith" not in str(report) and "02139" not in str(report)


def test_every_subtype_belongs_to_one_kind_of_the_checklist() -> None:
    """A new subtype (a social-media handle) is counted in the checklist, not lost: "any other identifier"."""
    for label, subtypes in SUBTYPES.items():
        for subtype in subtypes:
            assert kind_of(f"{label.value}/{subtype}") is not None, (label, subtype)
    assert kind_of("CONTACT/handle") == "R"


def test_the_checklist_counts_licences_vehicles_devices_and_plan_numbers_under_their_kinds() -> None:
    # each was "no dedicated detector" before and counted, as ID/other or ID/account, under R or J
    text = "DL# S530-4605-3429, license plate 7ABC123, pump S/N 88231XZ, Medicare MBI 1EG4-TE5-MK73."
    config = PipelineConfig(profile="hipaa-safe-harbor")
    done = Pipeline(config).run(Document("d", text, {"lang": "en"}))
    report = substitution_report(config, done.privacy["substitution"]["counts"])
    found = {row["kind"]: row["found"] for row in report["checklist"]}
    assert (found["I"], found["K"], found["L"], found["M"]) == (1, 1, 1, 1)
    assert found["J"] == 0 and found["R"] == 0
