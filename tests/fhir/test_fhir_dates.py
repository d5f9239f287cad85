"""The per-patient date shift and the FHIR date forms it moves."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anonymed.errors import ConfigError
from anonymed.fhir.dates import DateShift, as_date, shift_date, year_of


def test_shift_is_never_zero_and_stays_in_range() -> None:
    shift = DateShift(key=b"k" * 32, min_days=3, max_days=10)
    days = [shift.days(f"p{i}") for i in range(400)]
    assert all(3 <= abs(d) <= 10 for d in days)
    assert {d > 0 for d in days} == {True, False}
    assert len(set(days)) > 10


def test_same_key_same_shift_other_key_or_patient_differs() -> None:
    a, b = DateShift(key=b"a" * 32), DateShift(key=b"a" * 32)
    assert [a.days(f"p{i}") for i in range(50)] == [b.days(f"p{i}") for i in range(50)]
    other = DateShift(key=b"b" * 32)
    assert [a.days(f"p{i}") for i in range(50)] != [other.days(f"p{i}") for i in range(50)]


def test_seed_reproduces_and_no_secret_means_a_fresh_secret_per_run() -> None:
    assert DateShift(seed=7).days("x") == DateShift(seed=7).days("x")
    assert DateShift(seed=7).reproducible and DateShift(key=b"k" * 16).reproducible
    secret = DateShift()
    assert not secret.reproducible
    assert secret.days("x") == secret.days("x")  # consistent within the run
    runs = {DateShift().days(f"p{i}") for i in range(3) for _ in range(5)}
    assert len(runs) > 3


def test_bad_range_is_refused() -> None:
    with pytest.raises(ConfigError, match="min_days"):
        DateShift(min_days=0)


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
    shift = DateShift(key=b"property-key-0123")
    moved = [dt.date.fromisoformat(shift.shift(d.isoformat(), patient) or "") for d in (first, second)]
    assert moved[1] - moved[0] == second - first
    assert moved[0] != first
