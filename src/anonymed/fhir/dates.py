"""Dates of the FHIR and SQL paths: one timeline per patient, the same as in the patient's notes.

``Timeline`` is what both paths use for structured dates. ``days(subject)`` is the patient's secret shift
``S`` of the profile's ``date_shift`` operator (``anonymed.substitute.date_shift.patient_shift_days``:
``HMAC(run key, patient id, ...)``, ``min_shift_days <= |S| <= max_shift_days``), the very ``S`` the
operator adds, with a per-date noise, to the dates it finds in the patient's notes. Structured dates take
``S`` alone: intervals between a patient's structured dates are exact, and a structured date and the same
day written in a note differ by that note date's noise only (at most ``noise_days``). docs/fhir.md says
what an attacker who knows one true date learns.

The run key (``run_key``) is the patient key when given, else derived from the seed by the project's seed
rule (reproducible by anyone with the seed), else a secret drawn once per run: in every case one key for
the run, so the notes (the value streams), the structured dates and the pseudonyms of a patient agree.

As in the notes (``anonymed.dates.over89``), a date indicative of an age over 89 (90 years or more
before the reference day ``as_of``), before or after its move, is not written (``over89``).
"""

from __future__ import annotations

import datetime as dt
import re
import secrets
from typing import Final

from anonymed.dates.over89 import AGE_CATEGORY, age_at
from anonymed.randomness import check_random_state
from anonymed.substitute.date_shift import DateShiftParams, patient_shift_days

#: a FHIR date, dateTime or instant: year, optional month and day, optional time and zone (kept verbatim)
FHIR_DATE: Final = re.compile(
    r"(?P<year>\d{4})(?:-(?P<month>\d{2})(?:-(?P<day>\d{2}))?)?"
    r"(?P<rest>T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?"
)


def run_key(patient_key: bytes | None, seed: int | None) -> bytes:
    """The run's one key: the patient key, else 32 bytes from the seed's stream, else a secret."""
    if patient_key is not None:
        return patient_key
    if seed is not None:
        return check_random_state(seed).spawn("anonymed-run-key").python.getrandbits(256).to_bytes(32, "big")
    return secrets.token_bytes(32)


class Timeline:
    """Structured dates of each patient moved by the patient's ``date_shift`` shift (module docstring)."""

    def __init__(self, key: bytes, params: DateShiftParams, as_of: dt.date) -> None:
        self.key, self.params, self.as_of = key, params, as_of
        self._cache: dict[str, int] = {}

    def days(self, subject: str) -> int:
        """The subject's (a patient's) shift in days, never 0 (memoised)."""
        found = self._cache.get(subject)
        if found is None:
            found = self._cache[subject] = patient_shift_days(self.key, subject, self.params)
        return found

    def shift(self, value: str, subject: str) -> str | None:
        """A FHIR date string moved by the subject's shift (``None`` if it is not a FHIR date)."""
        return shift_date(value, self.days(subject))

    def over89(self, value: str | dt.date) -> bool:
        """Whether a date (its first day) lies 90 years or more before ``as_of``."""
        day = as_date(value) if isinstance(value, str) else value
        return day is not None and age_at(day, self.as_of) >= AGE_CATEGORY


def _parts(value: str) -> re.Match[str] | None:
    found = FHIR_DATE.fullmatch(value)
    if found is None or (found["rest"] is not None and found["day"] is None):
        return None
    return found


def shift_date(value: str, days: int) -> str | None:
    """``value`` moved by ``days``, in its own precision; ``None`` if it is not a FHIR date.

    A full date moves by ``days`` (time of day and zone kept as written); a year-month moves its first day
    and a year alone its 2 July, keeping the precision, so partial dates move only across a boundary.
    """
    found = _parts(value)
    if found is None:
        return None
    year, month, day = int(found["year"]), found["month"], found["day"]
    try:
        anchor = dt.date(year, int(month) if month else 7, int(day) if day else (1 if month else 2))
        moved = anchor + dt.timedelta(days=days)
    except (ValueError, OverflowError):
        return None
    if day is not None:
        return moved.isoformat() + (found["rest"] or "")
    if month is not None:
        return f"{moved.year:04d}-{moved.month:02d}"
    return f"{moved.year:04d}"


def year_of(value: str) -> str | None:
    """The year of a FHIR date string (``None`` if it is not one)."""
    found = _parts(value)
    return None if found is None else found["year"]


def as_date(value: str) -> dt.date | None:
    """The first day a FHIR date string can mean (``None`` if it is not one)."""
    found = _parts(value)
    if found is None:
        return None
    try:
        return dt.date(int(found["year"]), int(found["month"] or 1), int(found["day"] or 1))
    except ValueError:
        return None
