"""The date_shift operator: never the true date, intervals kept within the noise, one shift per patient."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anonymed.dates.over89 import age_at
from anonymed.dates.temporal import parse_temporal
from anonymed.document import Document, Span
from anonymed.errors import ConfigError
from anonymed.labels import Label
from anonymed.randomness import RandomSource
from anonymed.substitute.date_shift import DateShiftParams, patient_shift_days
from anonymed.substitute.invariant import leaks
from anonymed.substitute.registry import build_operator
from anonymed.substitute.stage import Substituter

KEY = b"test-patient-key-0123456789abcdef"
SHIFT = build_operator("date_shift")
W = 7  # the default noise_days


def _run(text: str, targets: list[str], *, lang: str = "en", patient: str = "P1", key: bytes | None = KEY,
         seed: int | None = None, doc_id: str = "d") -> Document:  # fmt: skip
    spans, cursor = [], 0
    for target in targets:
        start = text.index(target, cursor)
        spans.append(Span.of(text, start, start + len(target), Label.DATE))
        cursor = start + len(target)
    doc = Document(doc_id, text, {"lang": lang, "patient_id": patient}, spans=tuple(spans))
    return Substituter({Label.DATE: SHIFT}, patient_key=key)(doc, RandomSource(seed))


def _date(text: str) -> dt.date:
    return dt.datetime.strptime(text, "%m/%d/%Y").date()


def test_intervals_stay_within_twice_the_noise_and_no_date_is_kept() -> None:
    text = "Admitted 02/12/2020, surgery 02/14/2020, discharged 03/01/2020."
    for seed in range(20):
        done = _run(text, ["02/12/2020", "02/14/2020", "03/01/2020"], key=None, seed=seed)
        true = [_date(r.original) for r in done.replacements]
        moved = [_date(r.surrogate) for r in done.replacements]
        assert all(t != m for t, m in zip(true, moved, strict=True))
        for i in range(3):
            for j in range(i + 1, 3):
                error = abs((moved[j] - moved[i]).days - (true[j] - true[i]).days)
                assert error <= 2 * W


def test_a_patient_keeps_one_shift_across_notes_and_the_same_date_the_same_surrogate() -> None:
    first = _run("Seen 02/12/2020.", ["02/12/2020"], doc_id="a")
    second = _run("Again 02/12/2020, then 05/01/2020.", ["02/12/2020", "05/01/2020"], doc_id="b")
    other = _run("Seen 02/12/2020.", ["02/12/2020"], patient="P2", doc_id="c")
    assert first.replacements[0].surrogate == second.replacements[0].surrogate
    moved = [_date(r.surrogate) - _date(r.original) for r in second.replacements]
    assert abs((moved[1] - moved[0]).days) <= 2 * W
    assert other.replacements[0].surrogate != first.replacements[0].surrogate  # another patient's shift


def test_one_revealed_date_does_not_give_the_others_exactly() -> None:
    """The uniform-shift attack: s_j - (s_i - d_i) recovers d_j exactly only when the noises agree."""
    dates = [dt.date(2020, 1, 1) + dt.timedelta(days=11 * k) for k in range(12)]
    texts = [d.strftime("%m/%d/%Y") for d in dates]
    exact, total = 0, 0
    for seed in range(10):
        done = _run(" ".join(texts), texts, key=None, seed=seed)
        moved = [_date(r.surrogate) for r in done.replacements]
        offset = moved[0] - dates[0]
        for true, surrogate in zip(dates[1:], moved[1:], strict=True):
            exact += surrogate - offset == true
            total += 1
    assert exact / total < 0.25  # 1/(2W+1) = 6.7% expected; a uniform shift gives 100%


def test_patient_shift_days_is_the_shift_of_the_patients_notes() -> None:
    """The public ``patient_shift_days`` (FHIR and SQL structured dates) is the ``S`` the notes use."""
    dates = [dt.date(2019, 3, 1) + dt.timedelta(days=37 * k) for k in range(15)]
    texts = [d.strftime("%m/%d/%Y") for d in dates]
    params = DateShiftParams()
    for patient in ("P1", "P2", "Patient/7"):
        shift = patient_shift_days(KEY, patient, params)
        assert params.min_shift_days <= abs(shift) <= params.max_shift_days
        done = _run(" ".join(texts), texts, patient=patient)
        offsets = [
            (_date(r.surrogate) - true).days - shift for r, true in zip(done.replacements, dates, strict=True)
        ]
        assert all(abs(n) <= W for n in offsets)  # S + n, |n| <= noise_days
        assert len(set(offsets)) > 1  # and the noise is per date
    assert patient_shift_days(KEY, "P1", params) != patient_shift_days(b"another key", "P1", params)


YEARS = "20(1[78]|2[01])"  # 2019 moved by one or two years


@pytest.mark.parametrize(
    ("text", "pieces", "lang", "pattern"),
    [
        ("Born in 1992.", ["1992"], "en", r"Born in 199[0134]\."),
        ("In the 1970s.", ["1970s"], "en", r"In the 19[68]0s\."),  # a decade moves by decades
        ("In March 2019, 2019.", ["March 2019", "2019"], "en", rf"In [A-Z][a-z]+ {YEARS}, {YEARS}\."),
        ("Seen on 8/14.", ["8/14"], "en", r"Seen on \d{1,2}/\d{1,2}\."),
        ("Seen 3 days ago, 2 weeks.", ["3 days ago", "2 weeks"], "en", r"Seen [24] days ago, [13] weeks?\."),
        ("Vu le 26 février 2020 à 14h30.", ["26 février 2020", "14h30"], "fr", r"Vu le .+ 20\d\d à .+h.+"),
        ("Vu il y a 10 ans.", ["il y a 10 ans"], "fr", r"Vu il y a (8|9|11|12) ans\."),
        ("At 10:30, then in March.", ["10:30", "March"], "en", r"At \d\d:\d\d, then in [A-Z][a-z]+\."),
    ],
)  # fmt: skip
def test_every_kind_moves_and_keeps_its_layout(text: str, pieces: list[str], lang: str, pattern: str) -> None:
    for seed in range(15):
        done = _run(text, pieces, lang=lang, key=None, seed=seed)
        assert re.fullmatch(pattern, done.result), done.result
        for rep in done.replacements:
            assert not leaks(rep.surrogate, rep.original), (rep.original, rep.surrogate)


@settings(max_examples=300, deadline=None)
@given(day=st.dates(dt.date(1940, 1, 1), dt.date(2030, 12, 31)), seed=st.integers(0, 2**31))
def test_no_field_of_a_date_survives(day: dt.date, seed: int) -> None:
    """Day, month, year and weekday all change, so no part of a date is written back."""
    text = day.strftime("%A %B %d, %Y")
    done = _run(f"Seen {text}.", [text], key=None, seed=seed)
    moved = dt.datetime.strptime(done.replacements[0].surrogate, "%A %B %d, %Y").date()
    assert moved.day != day.day and moved.month != day.month and moved.year != day.year
    assert moved.weekday() != day.weekday()


def test_dates_over_89_years_old_become_the_marker() -> None:
    done = _run("Born 03/04/1925.", ["03/04/1925"], key=None, seed=1)
    assert done.result == "Born [90+]."


def test_unreadable_dates_go_to_the_fallback() -> None:
    done = _run("Seen le deux janvier.", ["le deux janvier"], lang="fr", key=None, seed=1)
    assert not leaks(done.replacements[0].surrogate, "le deux janvier")


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ConfigError):
        build_operator("date_shift", {"noise_days": 10, "max_shift_days": 10})
    with pytest.raises(ConfigError):
        build_operator("date_shift", {"fallback": "date_shift"})


_FORMATS = ["%m/%d/%Y", "%d/%m/%Y", "%B %d, %Y", "%Y-%m-%d", "%m/%d", "%b %Y", "%Y", "%d %B %Y", "%m/%y"]


@settings(max_examples=300, deadline=None)
@given(
    day=st.dates(dt.date(1940, 1, 1), dt.date(2030, 12, 31)),
    fmt=st.sampled_from(_FORMATS),
    lang=st.sampled_from(["en", "fr"]),
    seed=st.one_of(st.none(), st.integers(0, 2**31)),
)
def test_no_date_is_ever_written_back(day: dt.date, fmt: str, lang: str, seed: int | None) -> None:
    text = day.strftime(fmt)
    done = _run(f"Seen {text}.", [text], lang=lang, key=None, seed=seed)
    rep = done.replacements[0]
    assert not leaks(rep.surrogate, rep.original), (rep.original, rep.surrogate)
    assert done.privacy["substitution"]["counts"] == {"DATE|date_shift|replaced": 1}


@settings(max_examples=200, deadline=None)
@given(day=st.dates(dt.date(1900, 1, 1), dt.date(1960, 12, 31)), seed=st.integers(0, 2**31))
def test_no_output_implies_an_age_over_89(day: dt.date, seed: int) -> None:
    """Before or after the shift, a date 90 years or more before the reference becomes the marker."""
    text = day.strftime("%m/%d/%Y")
    doc = Document("d", f"Born {text}.", {"lang": "en", "reference_date": "2024-01-15"},
                   spans=(Span.of(f"Born {text}.", 5, 5 + len(text), Label.DATE),))  # fmt: skip
    surrogate = Substituter({Label.DATE: SHIFT})(doc, RandomSource(seed)).replacements[0].surrogate
    if surrogate != "[90+]":
        assert age_at(_date(surrogate), dt.date(2024, 1, 15)) <= 89


@settings(max_examples=150, deadline=None)
@given(
    moment=st.datetimes(dt.datetime(1950, 1, 1), dt.datetime(2030, 12, 31)),
    layout=st.sampled_from(
        ["%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M:%S.123", "%Y-%m-%dT%H:%M"]
    ),
    zone=st.sampled_from(["", "+02:00", "-05:00", "+0530"]),
    seed=st.integers(0, 2**31),
)
def test_an_iso_8601_timestamp_stays_a_real_timestamp(
    moment: dt.datetime, layout: str, zone: str, seed: int
) -> None:
    """ISO 8601 (RFC 3339) timestamps: the date moves, the time is a real time (seconds too: "14:30:00" had
    become "56:20:05"), a UTC offset is kept (a time zone, not the patient's)."""
    text = moment.strftime(layout) + ("" if layout.endswith("Z") else zone)
    done = _run(f"Seen {text}.", [text], key=None, seed=seed)
    out = done.replacements[0].surrogate
    parsed = dt.datetime.fromisoformat(out.replace("Z", "+00:00") if out.endswith("Z") else out)
    assert parsed.date() != moment.date()
    if zone and not layout.endswith("Z"):
        assert out.endswith(zone)


@pytest.mark.parametrize(
    ("written", "layout", "lang"),
    [
        ("Monday 11/4/2024", "%A %m/%d/%Y", "en"),
        ("Mon, 11/04/2024", "%a, %m/%d/%Y", "en"),
        ("lundi 04/11/2024", "%A %d/%m/%Y", "fr"),
    ],
)
@pytest.mark.parametrize("seed", range(8))
def test_a_weekday_before_a_numeric_date_moves_with_it(
    written: str, layout: str, lang: str, seed: int
) -> None:
    """ "Monday 11/4/2024" had become "Monday 2/23/2023" (a Thursday): the true date's weekday kept."""
    done = _run(f"Seen {written}.", [written], lang=lang, key=None, seed=seed)
    out = done.replacements[0].surrogate
    if lang == "fr":  # strptime reads English weekday names only: compare the French one by hand
        name, rest = out.split(" ", 1)
        moved = dt.datetime.strptime(rest, "%d/%m/%Y").date()
        assert (
            name == ("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche")[moved.weekday()]
        )
    else:
        moved = dt.datetime.strptime(out, layout).date()  # strptime checks nothing: compare by hand
        assert out.split(" ")[0].rstrip(",") == moved.strftime("%A" if "%A" in layout else "%a")
    assert moved.weekday() != dt.date(2024, 11, 4).weekday()


def test_a_yearless_date_with_its_weekday_is_read_in_a_year_that_agrees() -> None:
    """ "Mon 11/4" is 4 November of the latest year up to the reference's that falls on a Monday."""
    value = parse_temporal("Mon 11/4", lang="en", reference=dt.date(2026, 11, 24))
    assert value is not None and dt.date.fromordinal(int(value.quantity)) == dt.date(2024, 11, 4)


@pytest.mark.parametrize(
    "written", ["Spring 2023", "SUMMER OF 2002", "Fall of 2022", "Autumn 2020", "Winter 2019"]
)
@pytest.mark.parametrize("seed", range(10))
def test_a_season_and_its_year_move_as_a_season_and_a_year(written: str, seed: int) -> None:
    """Both change (the season by whole seasons around the shift), in the original's case and form."""
    done = _run(f"Seen {written}.", [written], key=None, seed=seed)
    out = done.replacements[0].surrogate
    season, *_, year = out.split(" ")
    original_season, *_, original_year = written.split(" ")
    names = {"spring", "summer", "fall", "autumn", "winter"}
    assert season.lower() in names and season.lower() != original_season.lower()
    assert (season.isupper(), season.istitle()) == (original_season.isupper(), original_season.istitle())
    assert year.isdigit() and year != original_year
    assert season.lower() != ("fall" if "Autumn" in written else "autumn")  # fall in the original's word
