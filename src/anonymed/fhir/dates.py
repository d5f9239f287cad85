"""Dates of the FHIR and SQL paths: one secret shift per patient, and the FHIR date forms it applies to.

``DateShift`` is the one interface both paths use for "one patient, one timeline": ``days(patient_id)``
is a whole number of days, never 0, the same for every structured date of the patient and every date
found in the patient's notes (``anonymed.fhir.textdates``), so every interval within a patient's record
is kept exactly. It is derived, in order of precedence:

* from the patient key: ``HMAC-SHA256(key, "anonymed-date-shift" NUL patient_id)`` (the same patient gets
  the same shift in every run and export made with the key);
* from the seed, by the project's seed rule (``anonymed.randomness``): reproducible by anyone with it;
* from a secret drawn from the operating system's CSPRNG once per run (consistent within the run only).

Note: a pure shift is pseudonymisation, not Safe Harbor, and one true date revealed reveals the shift
(and so every date of the patient). The per-patient date mechanism of the profiles work (shift plus
per-date noise) is meant to replace this class behind the same ``days``/``shift`` interface.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import re
import secrets
from typing import Final

from anonymed.errors import ConfigError
from anonymed.randomness import check_random_state

#: a FHIR date, dateTime or instant: year, optional month and day, optional time and zone (kept verbatim)
FHIR_DATE: Final = re.compile(
    r"(?P<year>\d{4})(?:-(?P<month>\d{2})(?:-(?P<day>\d{2}))?)?"
    r"(?P<rest>T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?"
)
_LABEL: Final = b"anonymed-date-shift"


class DateShift:
    """A secret number of days per patient, in ``[-max_days, -min_days] U [min_days, max_days]``."""

    def __init__(
        self, *, key: bytes | None = None, seed: int | None = None, min_days: int = 1, max_days: int = 365
    ) -> None:
        if not 1 <= min_days <= max_days:
            raise ConfigError(f"date shift needs 1 <= min_days <= max_days, got {min_days}, {max_days}")
        self.min_days, self.max_days = min_days, max_days
        seeded = key is None and seed is not None
        self.reproducible = key is not None or seeded
        self._source = check_random_state(seed) if seeded else None
        self._key = key if key is not None else (None if seeded else secrets.token_bytes(32))
        self._cache: dict[str, int] = {}

    def days(self, patient_id: str) -> int:
        """The patient's shift in days (memoised)."""
        found = self._cache.get(patient_id)
        if found is None:
            found = self._cache[patient_id] = self._draw(patient_id)
        return found

    def _draw(self, patient_id: str) -> int:
        width = self.max_days - self.min_days + 1
        if self._source is not None:
            draw = self._source.spawn(f"date-shift:{patient_id}").randbelow(2 * width)
        else:
            assert self._key is not None
            message = _LABEL + b"\x00" + patient_id.encode("utf-8", "surrogatepass")
            digest = hmac.new(self._key, message, hashlib.sha256).digest()
            draw = int.from_bytes(digest[:8], "big") % (2 * width)  # bias < 2**-50
        magnitude = self.min_days + draw % width
        return magnitude if draw < width else -magnitude

    def shift(self, value: str, patient_id: str) -> str | None:
        """A FHIR date string moved by the patient's shift (``None`` if it is not a FHIR date)."""
        return shift_date(value, self.days(patient_id))


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
