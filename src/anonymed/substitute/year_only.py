"""The ``year_only`` operator (HIPAA Safe Harbor dates): a date keeps at most its year.

45 CFR 164.514(b)(2)(i)(C) removes "all elements of dates (except year)". A date written with its year
becomes that year in four digits, with the words around its fields kept ("le 3 mars 2020" -> "le 2020",
"12/83" -> "1983"); a bare year stays as it is (the rule allows it: counted as kept in the run summary).
Everything else that carries no year (a yearless date, a month, a weekday, a clock time, a duration or a
relative expression) and every span that cannot be read becomes ``redacted`` ("[DATE]"), so no full
date, and no day or month, is ever written. Dates indicative of an age over 89 become the ``over89``
marker (``over89`` module), year included, as the rule asks.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from anonymed.dates.over89 import (
    OVER89,
    aggregate,
    cached_reference,
    check_marker,
    has_year,
    implies_over89,
)
from anonymed.dates.temporal import Kind, Temporal
from anonymed.dates.values import ORDERS, ReadingKey, read_values
from anonymed.document import Span
from anonymed.errors import ConfigError
from anonymed.substitute.base import Context, Operator, OperatorParams

_YEARS: Final = (Kind.DATE, Kind.MONTH_YEAR, Kind.YEAR)


@dataclass(frozen=True)
class YearOnlyParams(OperatorParams):
    """``redacted``: what replaces a span without a year; ``over89``: the marker of ages over 89."""

    redacted: str = "[DATE]"
    over89: str = OVER89
    numeric_order: str = "auto"


def year_of(value: Temporal) -> int | None:
    """The year a value was written with, if any."""
    if value.kind not in _YEARS or not has_year(value):
        return None
    if value.kind is Kind.YEAR:
        return int(value.quantity)
    if value.kind is Kind.MONTH_YEAR:
        return int(value.quantity) // 12
    return dt.date.fromordinal(int(value.quantity)).year


class YearOnlyOperator(Operator[YearOnlyParams]):
    """Keep at most the year of a date (see the module docstring)."""

    name = "year_only"
    params_type = YearOnlyParams

    def validate(self) -> None:
        """No digit in the redaction text; a valid over-89 marker and numeric order."""
        super().validate()
        p = self.params
        if any(ch.isdigit() for ch in p.redacted) or p.numeric_order not in ORDERS:
            raise ConfigError(
                f"year_only needs a redaction text without digits and a numeric order in {ORDERS}, "
                f"got {p.redacted!r}, {p.numeric_order!r}"
            )
        check_marker(p.over89, "year_only")

    def prepare(self, spans: Sequence[Span], context: Context) -> None:
        """Read the document's dates once."""
        read_values(spans, context, self.params.numeric_order, self._key())

    def _key(self) -> ReadingKey:
        return ReadingKey(f"year_only:{id(self)}")

    def _value(self, span: Span, context: Context) -> Temporal | None:
        return read_values([span], context, self.params.numeric_order, self._key()).get(
            (span.start, span.end)
        )

    def promises_change(self, span: Span, context: Context) -> bool:
        """Not for a bare year (Safe Harbor keeps years): it may come back as itself."""
        value = self._value(span, context)
        return value is None or value.kind is not Kind.YEAR

    def operate(self, span: Span, context: Context) -> str:
        """The year alone, the over-89 marker, or the redaction text."""
        p = self.params
        value = self._value(span, context)
        year = None if value is None else year_of(value)
        if value is None or year is None:
            return p.redacted
        if implies_over89(value, value.quantity, cached_reference(context.document, context.state)):
            return aggregate(value.parts, p.over89)
        if value.kind is Kind.YEAR and not any(ch.isalpha() for ch in span.text):
            return span.text
        return aggregate(value.parts, str(year))
