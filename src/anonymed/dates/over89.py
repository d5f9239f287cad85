"""HIPAA Safe Harbor for dates: date elements indicative of an age over 89 become one "90+" category.

Safe Harbor asks that "all elements of dates (including year) indicative of [an age over 89]" be removed
or "aggregated into a single category of age 90 or older". A date is indicative of such an age when it
lies 90 years or more before the reference date: a birth date of a patient aged 90 or more, and equally
any event of the patient's life that long ago. ``implies_over89`` reads that from a parsed value: a full
date (its own day), a month and year (its first day), a year or decade (its 1 January), and, for DATE
spans, an amount of 90 years or more ("95 years ago"). Yearless dates say nothing of an age.

Such a span is written as one marker (``OVER89``, "[90+]" by default), the same for every date it
replaces, so the output tells "90 or older" and nothing more: no year, day or month survives, and no
output date can be turned into another age of the category. Text of the span outside the date fields
(a leading "le ") is kept. A marker rather than a date in the original's shape: any fixed date standing
for the category falls in the birth year of some patients aged 90, so it would repeat their true year.

The reference date is ``metadata["reference_date"]`` when the document has one (the data steward's
choice, e.g. the note's date). Without it, the later of the run date and the latest dated DATE span of
the note (not a birth date, at most 10 years after the run date) is used: ages only grow, so this can
only aggregate more than the note's own date would, and it stays right for notes dated in the future.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Final

from anonymed.dates.model import UNITS_PER_YEAR
from anonymed.dates.temporal import Kind, Part, Slot, Temporal, parse_temporal
from anonymed.document import DocState, Document, StateKey
from anonymed.errors import ConfigError
from anonymed.labels import Label

#: the oldest age HIPAA Safe Harbor lets a release state (45 CFR 164.514(b)(2)(i)(C)); older is "90+"
HIPAA_MAX_AGE: Final = 89
#: what replaces a date indicative of an age over 89 (the category "90 or older")
OVER89: Final = "[90+]"
#: the first age of the aggregated category (the ages ``dp_age`` groups as "90+")
AGE_CATEGORY: Final = HIPAA_MAX_AGE + 1
_REFERENCE: Final = StateKey[dt.date]("over89:reference")
#: note dates further than this after the run date are taken for misreadings, not the note's date
_HORIZON_YEARS: Final = 10


def check_marker(marker: str, operator: str) -> None:
    """The marker may not carry a number other than 89 or 90 (it would read as a year or an age)."""
    if any(ch.isdigit() for ch in marker.replace("90", "").replace("89", "")):
        raise ConfigError(f"{operator} over89 may only use the numbers 89 and 90, got {marker!r}")


def reference_date(metadata: Any) -> dt.date | None:
    """The document's ``reference_date`` metadata (ISO date or datetime), if any and valid."""
    value = metadata.get("reference_date") if hasattr(metadata, "get") else None
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def age_reference(document: Document, *, today: dt.date | None = None) -> dt.date:
    """The date ages are counted at (see the module docstring)."""
    given = reference_date(document.metadata)
    if given is not None:
        return given
    now = today or dt.date.today()
    horizon = now.replace(year=now.year + _HORIZON_YEARS, day=min(now.day, 28))
    latest = now
    for span in document.spans:
        if span.label is Label.DATE and span.subtype != "birth":
            value = parse_temporal(span.text, lang=document.lang, reference=now)
            day = earliest_day(value, value.quantity) if value is not None and has_year(value) else None
            if day is not None and latest < day <= horizon:
                latest = day
    return latest


def cached_reference(document: Document, state: DocState) -> dt.date:
    """``age_reference`` of the document, computed once (kept in the substitution context's ``state``)."""
    return state.computed(_REFERENCE, lambda: age_reference(document))


def has_year(value: Temporal) -> bool:
    """Whether the value was written with its year (a yearless date's year is only inferred)."""
    return any(isinstance(p, Slot) and p.name == "year" for p in value.parts)


def earliest_day(value: Temporal, quantity: int | float) -> dt.date | None:
    """The first day ``quantity`` can mean in the value's kind (``date.min``/``max`` beyond the calendar)."""
    if value.kind is Kind.DATE:
        ordinal = int(quantity)
        return dt.date.fromordinal(min(max(ordinal, 1), dt.date.max.toordinal()))
    if value.kind is Kind.MONTH_YEAR:
        year, month = divmod(int(quantity), 12)
        return dt.date(min(max(year, 1), 9999), month + 1, 1)
    if value.kind is Kind.YEAR:
        return dt.date(min(max(int(quantity), 1), 9999), 1, 1)
    return None


def age_at(day: dt.date, reference: dt.date) -> int:
    """Whole years from ``day`` to ``reference``."""
    return reference.year - day.year - ((reference.month, reference.day) < (day.month, day.day))


def implies_over89(value: Temporal, quantity: int | float, reference: dt.date) -> bool:
    """Whether ``quantity`` (in the value's kind and unit) lies 90 years or more before ``reference``."""
    if value.kind is Kind.AMOUNT:
        return quantity / UNITS_PER_YEAR.get(value.unit, 1.0) >= AGE_CATEGORY
    if value.kind is Kind.DATE and not has_year(value):
        return False
    day = earliest_day(value, quantity)
    return day is not None and age_at(day, reference) >= AGE_CATEGORY


def birth_in_past(value: Temporal, reference: dt.date) -> Temporal:
    """A birth date with a two-digit year read in the century that puts it before ``reference``."""
    two_digits = any(isinstance(p, Slot) and p.name == "year" and p.width == 2 for p in value.parts)
    day = earliest_day(value, value.quantity)
    if not two_digits or day is None or day <= reference or day.year <= 100:
        return value
    if value.kind is Kind.DATE:
        year = day.year - 100
        earlier = dt.date(year, day.month, min(day.day, calendar.monthrange(year, day.month)[1]))
        return replace(value, quantity=earlier.toordinal())
    return replace(value, quantity=value.quantity - (1200 if value.kind is Kind.MONTH_YEAR else 100))


def aggregate(parts: Sequence[Part], marker: str = OVER89) -> str:
    """The span's text with its date fields replaced by ``marker``; separate words around them kept.

    "le 3 mars 1925" gives "le [90+]"; the "s" of "1920s" or the "h" of "14h" go with their fields.
    """
    where = [i for i, p in enumerate(parts) if isinstance(p, Slot)]
    if not where:
        return marker
    before = "".join(p for p in parts[: where[0]] if isinstance(p, str))
    after = "".join(p for p in parts[where[-1] + 1 :] if isinstance(p, str))
    kept_before = re.match(r".*\s", before, re.S)
    kept_after = re.search(r"\s.*", after, re.S)
    return (
        (kept_before.group(0) if kept_before else "") + marker + (kept_after.group(0) if kept_after else "")
    )
