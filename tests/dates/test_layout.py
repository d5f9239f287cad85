"""Layouts for random dates (the fake operator): the readers of dp_date first, then looser readings."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anonymed.dates.layout import parse_layout
from anonymed.dates.random_date import fake_date
from anonymed.dates.temporal import Slot, render_fields
from anonymed.randomness import RandomSource

REF = dt.date(2021, 5, 1)
FIELDS = {"year": 1987, "month": 6, "day": 9, "weekday": 2, "hour": 7, "minute": 5, "second": 3}


def slots(text: str, lang: str = "en", subtype: str | None = None) -> list[str] | None:
    layout = parse_layout(text, lang, subtype=subtype, reference=REF)
    return None if layout is None else [p.name for p in layout.parts if isinstance(p, Slot)]


@pytest.mark.parametrize(
    ("text", "lang", "subtype", "expected"),
    [
        ("02/12/2020", "en", None, ["month", "day", "year"]),  # a strict reading, as dp_date's
        ("13 / 03", "fr", None, ["day", "month"]),  # spaces around the separator
        ("22|8|1923", "fr", "birth", ["day", "month", "year"]),  # pipes
        ("20 12 2003", "fr", None, ["day", "month", "year"]),  # spaces only
        ("2/31", "en", None, ["month", "day"]),  # an impossible date keeps its layout
        ("20200212", "en", None, ["year", "month", "day"]),  # compact, year first
        ("23022018", "fr", None, ["day", "month", "year"]),  # compact, French order
        ("2014-03-05 10:22:31", "en", None, ["year", "month", "day", "hour", "minute", "second"]),
        ("le 3 mars 2020 à 14h", "fr", None, ["day", "month_name", "year", "hour"]),  # date and time
        ("1430", "en", "time", ["hour", "minute"]),  # a time without separator
        ("Tuesday", "en", None, ["weekday"]),  # a weekday alone
        ("2 9 0 2 1 9 9 5", "fr", "birth", ["day", "month", "year"]),  # spaced-out digits: DDMMYYYY
        ("le 28 mars 19", "fr", None, ["day", "month_name", "year"]),  # a two-digit year after the month
        ("vingt-six 02 2012", "fr", None, None),  # spelled out: no layout (the usual date is written)
        ("Christmas", "en", None, None),  # no date part
    ],
)
def test_layouts_name_every_date_field(
    text: str, lang: str, subtype: str | None, expected: list[str] | None
) -> None:
    assert slots(text, lang, subtype) == expected


@pytest.mark.parametrize(
    ("text", "lang", "written"),
    [
        ("22|8|1923", "fr", "9|6|1987"),  # separators kept, day first in French, no padding
        ("Wed, 26 Feb 2020 10:30:00 GMT", "en", "Tue, 9 Jun 1987 07:05:03 GMT"),  # weekday of the new date
        ("3:45 PM", "en", "7:05 AM"),
        ("14h30", "fr", "07h05"),
    ],
)
def test_layouts_are_written_with_the_fields_given(text: str, lang: str, written: str) -> None:
    layout = parse_layout(text, lang, reference=REF)
    assert layout is not None
    assert render_fields(layout.parts, FIELDS) == written


@pytest.mark.parametrize(
    ("text", "lang", "value"),
    [
        ("22|8|1923", "fr", dt.date(1923, 8, 22)),  # loose separators still read the date
        ("23022018", "fr", dt.date(2018, 2, 23)),
        ("2014-03-05 10:22:31", "en", dt.date(2014, 3, 5)),  # the date of a timestamp
    ],
)
def test_loose_layouts_read_the_date_when_they_can(text: str, lang: str, value: dt.date) -> None:
    layout = parse_layout(text, lang, reference=REF)
    assert layout is not None and layout.value is not None
    assert layout.value.quantity == value.toordinal()


PIECES = st.sampled_from(
    ["12", "3", "2020", "07", "1er", "3rd", "/", "-", ".", "|", ":", " ", ", ", "h", "pm", "mars", "Feb.",
     "lundi", "Tues", "le ", "de", "'", "à", "2,5", "99999", "sept", "vingt"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, min_size=1, max_size=8).map("".join), st.sampled_from(["en", "fr"]))
def test_a_layout_never_keeps_a_digit_of_the_original(text: str, lang: str) -> None:
    layout = parse_layout(text, lang, reference=REF)
    if layout is not None:
        kept = "".join(p for p in layout.parts if isinstance(p, str))
        assert not any(ch.isdigit() for ch in kept), (text, layout.parts)


@pytest.mark.parametrize("text", ["20mar", "3jan", "12mar."])
def test_a_name_glued_after_a_day_is_a_month_even_where_it_is_also_a_weekday(text: str) -> None:
    layout = parse_layout(text, "fr", reference=REF)
    assert layout is not None
    names = [p.name for p in layout.parts if isinstance(p, Slot)]
    assert names[:2] == ["day", "month_name"], layout.parts


def test_a_weekday_alone_stays_a_weekday() -> None:
    layout = parse_layout("mar 20", "fr", reference=REF)
    assert layout is not None
    assert next(p.name for p in layout.parts if isinstance(p, Slot)) == "weekday"


@pytest.mark.parametrize(
    "text",
    [
        "2024-03-15T14:30:00Z",
        "2024-03-15T09:05:00.250-05:00",
        "2024-03-15T09:05+01:00",
        "2024-03-15T23:59:59+0530",
    ],
)
@pytest.mark.parametrize("seed", range(5))
def test_a_random_date_keeps_an_iso_8601_timestamp_real_and_its_zone(text: str, seed: int) -> None:
    """``fake`` (and ``dp_date``'s fallback): a real timestamp; the UTC offset is no hour and minute."""
    out = fake_date(text, RandomSource(seed), "en", (1950, 2030), None)
    parsed = dt.datetime.fromisoformat(out.replace("Z", "+00:00"))
    zone = "Z" if text.endswith("Z") else text[-6:] if ":" in text[-6:] else text[-5:]
    assert out.endswith(zone) and parsed.year in range(1950, 2031)
