"""The per-patient timeline (the profile's date_shift shift) and the FHIR date forms it moves."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anonymed.document import Document, Span
from anonymed.fhir.dates import Timeline, as_date, run_key, shift_date, year_of
from anonymed.labels import Label
from anonymed.randomness import RandomSource
from anonymed.substitute.date_shift import DateShiftParams, patient_shift_days
from anonymed.substitute.registry import build_operator
from anonymed.substitute.stage import Substituter

PARAMS = DateShiftParams()
AS_OF = dt.date(2025, 1, 1)


def test_shift_is_the_profiles_never_zero_and_in_range() -> None:
    timeline = Timeline(b"k" * 32, DateShiftParams(min_shift_days=3, max_shift_days=10, noise_days=2), AS_OF)
    days = [timeline.days(f"p{i}") for i in range(400)]
    assert all(3 <= abs(d) <= 10 for d in days)
    assert {d > 0 for d in days} == {True, False}
    assert len(set(days)) > 10
    default = Timeline(b"k" * 32, PARAMS, AS_OF)
    assert all(default.days(f"p{i}") == patient_shift_days(b"k" * 32, f"p{i}", PARAMS) for i in range(50))


def test_same_key_same_shift_other_key_or_patient_differs() -> None:
    a, b = Timeline(b"a" * 32, PARAMS, AS_OF), Timeline(b"a" * 32, PARAMS, AS_OF)
    assert [a.days(f"p{i}") for i in range(50)] == [b.days(f"p{i}") for i in range(50)]
    other = Timeline(b"b" * 32, PARAMS, AS_OF)
    assert [a.days(f"p{i}") for i in range(50)] != [other.days(f"p{i}") for i in range(50)]


def test_run_key_is_the_patient_key_else_from_the_seed_else_a_fresh_secret() -> None:
    assert run_key(b"given", 7) == b"given"
    assert run_key(None, 7) == run_key(None, 7) != run_key(None, 8)
    assert len(run_key(None, 7)) == 32
    assert len({run_key(None, None) for _ in range(5)}) == 5


def test_over89_counts_from_the_reference_day() -> None:
    timeline = Timeline(b"k" * 32, PARAMS, AS_OF)
    assert timeline.over89("1935-01-01") and timeline.over89("1934")
    assert not timeline.over89("1935-01-02") and not timeline.over89("not a date")
    assert timeline.over89(dt.date(1930, 6, 1))


@pytest.mark.parametrize(
    ("value", "days", "expected"),
    [
        ("1987-11-19", 13, "1987-12-02"),
        ("1987-11-19T00:22:16.824-05:00", -20, "1987-10-30T00:22:16.824-05:00"),
        ("2020-02-28T23:59:59Z", 1, "2020-02-29T23:59:59Z"),
        ("1987-11", 45, "1987-12"),
        ("1987-11", 10, "1987-11"),
        ("1987", 200, "1988"),
        ("1987", -200, "1986"),
        ("1987", 100, "1987"),
    ],
)
def test_shift_keeps_precision_time_and_zone(value: str, days: int, expected: str) -> None:
    assert shift_date(value, days) == expected


@pytest.mark.parametrize(
    "value", ["19871119", "1987-11-19T", "1987-1-2", "yesterday", "1987-13-01", "9999-12-31"]
)
def test_non_dates_are_refused(value: str) -> None:
    assert shift_date(value, 400) is None


def test_year_and_first_day() -> None:
    assert year_of("1987-11-19T00:22:16Z") == "1987"
    assert year_of("June 1987") is None
    assert as_date("1987-11") == dt.date(1987, 11, 1)


@given(
    st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2090, 1, 1)),
    st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2090, 1, 1)),
    st.text(min_size=1, max_size=12),
)
def test_one_patient_one_timeline_intervals_are_kept(first: dt.date, second: dt.date, patient: str) -> None:
    timeline = Timeline(b"property-key-0123", PARAMS, AS_OF)
    moved = [dt.date.fromisoformat(timeline.shift(d.isoformat(), patient) or "") for d in (first, second)]
    assert moved[1] - moved[0] == second - first
    assert PARAMS.min_shift_days <= abs((moved[0] - first).days) <= PARAMS.max_shift_days


def test_a_known_structured_date_gives_the_shift_not_the_notes_dates() -> None:
    """The attack on a pure shift: one true structured date reveals S exactly (every structured date of
    the patient), but the patient's note dates carry their own noise, so s_j - S misses them by up to
    noise_days and finds them exactly only about 1 time in 2·noise_days + 1."""
    key = b"attack-key-0123456789"
    days = [dt.date(2018, 1, 3) + dt.timedelta(days=9 * k) for k in range(40)]
    texts = [d.strftime("%m/%d/%Y") for d in days]
    text = " ; ".join(texts)
    spans, cursor = [], 0
    for piece in texts:
        start = text.index(piece, cursor)
        spans.append(Span.of(text, start, start + len(piece), Label.DATE))
        cursor = start + len(piece)
    exact = total = 0
    for patient in [f"P{i}" for i in range(10)]:
        timeline = Timeline(key, PARAMS, AS_OF)
        known_true = dt.date(1961, 4, 2)  # e.g. a birth date, found in the structured Patient resource
        shift = dt.date.fromisoformat(timeline.shift(known_true.isoformat(), patient) or "") - known_true
        doc = Document("n", text, {"lang": "en", "patient_id": patient}, spans=tuple(spans))
        done = Substituter({Label.DATE: build_operator("date_shift")}, patient_key=key)(doc, RandomSource())
        for true, rep in zip(days, done.replacements, strict=True):
            guess = dt.datetime.strptime(rep.surrogate, "%m/%d/%Y").date() - shift
            assert abs((guess - true).days) <= PARAMS.noise_days
            exact += guess == true
            total += 1
    assert exact / total < 0.2  # 1/15 expected; the notes alone under a pure shift: 100%
