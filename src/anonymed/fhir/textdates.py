"""Dates found in notes, written on the structured timeline: the patient's shift, or the year alone.

``TextDateOperator`` takes the DATE label in the FHIR and SQL text passes. In ``shift`` mode an absolute
date (a full or day-month date, or a month and year) moves by the same ``DateShift`` as the patient's
structured dates, written in its own layout, so a note dated like its encounter stays dated like it. In
``year`` mode (Safe Harbor) a date with a year is written as its year alone. In both modes a date
indicative of an age over 89 becomes the over-89 marker, like the other date operators. Whatever it
cannot place on the timeline (relative expressions, durations, times, lone years in ``shift`` mode,
unreadable dates) and any result equal to the original goes to ``fallback``: the operator the
pipeline's configuration gives dates.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Final

from anonymed.document import Span
from anonymed.fhir.dates import DateShift
from anonymed.substitute.base import Context, Operator
from anonymed.substitute.over89 import OVER89, aggregate, has_year, implies_over89, reference_date
from anonymed.substitute.temporal import Kind, Temporal, parse_temporal, render_temporal

_STATE: Final = "fhir_date:placed"
MODES: Final = ("shift", "year")


class TextDateOperator(Operator):
    """DATE spans on the patient's timeline (see module docstring); the rest to ``fallback``."""

    name = "fhir_date"

    def __init__(self, shift: DateShift, mode: str, fallback: Operator) -> None:
        super().__init__()
        self.shift, self.mode, self.fallback = shift, mode, fallback

    def prepare(self, spans: Sequence[Span], context: Context) -> None:
        """Place each span; the fallback prepares the spans it will receive."""
        placed = {(s.start, s.end): self._place(s, context) for s in spans}
        context.state[_STATE] = placed
        rest = [s for s in spans if placed[(s.start, s.end)] is None]
        if rest:
            self.fallback.prepare(rest, context)

    def operate(self, span: Span, context: Context) -> str:
        """The placed surrogate, else the fallback's."""
        placed = context.state.get(_STATE, {}).get((span.start, span.end))
        return placed if placed is not None else self.fallback.operate(span, context)

    def _place(self, span: Span, context: Context) -> str | None:
        metadata = context.document.metadata
        reference = reference_date(metadata) or dt.date.today()
        value = parse_temporal(span.text, lang=context.lang, reference=reference)
        if value is None or value.kind not in (Kind.DATE, Kind.MONTH_YEAR, Kind.YEAR):
            return None
        if implies_over89(value, value.quantity, reference):
            return aggregate(value.parts, OVER89)
        if self.mode == "year":
            written = str(_year(value)) if has_year(value) else None
        else:
            subject = metadata.get("shift_subject") or context.document.patient_id
            written = None if subject is None else _shifted(value, self.shift.days(str(subject)))
        if written is None or (written == span.text and self.mode == "shift"):
            return None
        return written  # in year mode a lone year is kept as written: Safe Harbor keeps years


def _year(value: Temporal) -> int:
    if value.kind is Kind.DATE:
        return dt.date.fromordinal(int(value.quantity)).year
    return int(value.quantity) // 12 if value.kind is Kind.MONTH_YEAR else int(value.quantity)


def _shifted(value: Temporal, days: int) -> str | None:
    """The value moved by ``days`` in its own layout (a month-year moves its 15th; a lone year: None)."""
    if value.kind is Kind.DATE:
        return render_temporal(value, int(value.quantity) + days)
    if value.kind is Kind.MONTH_YEAR:
        year, month = divmod(int(value.quantity), 12)
        try:
            moved = dt.date(year, month + 1, 15) + dt.timedelta(days=days)
        except (ValueError, OverflowError):
            return None
        return render_temporal(value, moved.year * 12 + moved.month - 1)
    return None
