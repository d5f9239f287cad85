"""The data model of temporal expressions: units, kinds, template slots, and small helpers."""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class Unit(StrEnum):
    """The unit a quantity is counted in; the metric of the noise is one unit."""

    MINUTE = "minute"
    HOUR = "hour"
    DAY = "day"
    WEEK = "week"
    MONTH = "month"
    YEAR = "year"


#: units in a year (a month is 1/12 year, a day 1/365.25)
UNITS_PER_YEAR: Final = {
    Unit.YEAR: 1.0,
    Unit.MONTH: 12.0,
    Unit.WEEK: 52.1775,
    Unit.DAY: 365.25,
    Unit.HOUR: 8766.0,
}


class Kind(StrEnum):
    """What the quantity means (and how it is written back)."""

    DATE = "date"  # proleptic ordinal day (year inferred when absent)
    MONTH_YEAR = "month_year"  # 12 * year + month - 1
    MONTH = "month"  # 12 * year + month - 1, written as a month name only
    YEAR = "year"
    DAY_OF_MONTH = "day_of_month"
    AMOUNT = "amount"  # a count of units: relative expression, duration or age
    TIME = "time"  # minutes since midnight (a clock time with minutes)
    HOUR = "hour"  # hour of the day (a clock time without minutes, "3 pm")


@dataclass(frozen=True)
class Slot:
    """One field of a template, filled from the new quantity."""

    #: day | month | month_name | season | year | weekday | number | unit | hour | minute | second |
    #: meridiem | digits
    name: str
    width: int = 0
    lang: str = "en"
    form: str = "full"
    case: str = "asis"
    dot: bool = False
    ascii: bool = False
    suffix: str = ""
    decimals: int = 0
    forms: tuple[str, str] = ("", "")


Part = str | Slot


@dataclass(frozen=True)
class Temporal:
    """A parsed temporal expression: kind, unit, quantity and the template of its surface form."""

    kind: Kind
    unit: Unit
    quantity: int | float
    parts: tuple[Part, ...]

    @property
    def key(self) -> str:
        """The memoization key: equal values (in any format) share one draw."""
        return f"{self.kind.value}:{self.unit.value}:{self.quantity}"


@dataclass(frozen=True)
class Layout:
    """A span's template, with the value read from it (``None``: a layout to fill with random values only)."""

    parts: tuple[Part, ...]
    value: Temporal | None = None

    def slots(self) -> tuple[Slot, ...]:
        """The fields of the template."""
        return tuple(p for p in self.parts if isinstance(p, Slot))


#: a numeric date: D/M/Y, M/D/Y, Y-M-D, D.M.Y, or two components (day-month, month-year, year-month);
#: groups: first number, separator, second number, separator again, third number
NUMERIC_DATE = re.compile(
    r"(?<![\d/.\-])(\d{1,4})([/.\-])(\d{1,2}|\d{4})(?:(\2)(\d{4}|\d{2}))?(?!\d|[/.\-]\d)"
)
#: the same with any separators ("13 / 03", "22|8|1923", "20 12 2003"): layouts for random values only
_ANY_SEPARATOR = r"(\s*[/.|\-]\s*|\s+)"
LOOSE_NUMERIC_DATE = re.compile(
    rf"(?<!\d)(\d{{1,4}}){_ANY_SEPARATOR}(\d{{1,4}})(?:{_ANY_SEPARATOR}(\d{{1,4}}))?(?!\d)"
)


def case_of(word: str) -> str:
    """The case style of a word: upper, lower, title or asis."""
    letters = [c for c in word if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return "upper"
    if all(c.islower() for c in letters):
        return "lower"
    return "title" if letters and letters[0].isupper() else "asis"


def apply_case(word: str, case: str) -> str:
    """``word`` in the case style ``case``."""
    if case == "upper":
        return word.upper()
    if case == "lower":
        return word.lower()
    if case == "title":
        return word[:1].upper() + word[1:]
    return word


def two_digit_year(yy: int, reference: dt.date) -> int:
    """The four-digit year of ``yy``: the latest century putting it at most 10 years after the reference."""
    year = reference.year // 100 * 100 + yy
    return year - 100 if year > reference.year + 10 else year


def valid_date(year: int, month: int, day: int) -> bool:
    """Whether the year, month and day form a real date."""
    return 1 <= month <= 12 and 1 <= year <= 9999 and 1 <= day <= calendar.monthrange(year, month)[1]
