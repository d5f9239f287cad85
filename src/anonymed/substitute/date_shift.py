"""The ``date_shift`` operator: a secret shift per patient plus a little noise per date; never the true date.

Every date of a patient moves by the same secret number of days ``S`` (``min_shift_days <= |S| <=
max_shift_days``, sign and size drawn once per patient) plus a small noise ``n`` of its own (``|n| <=
noise_days``, drawn once per distinct date): intervals within a patient's notes stay within
``2·noise_days`` of the true ones, and an attacker who learns one true date learns ``S + n`` for it, not
the other dates' noise, so the others stay uncertain by up to ``2·noise_days`` (the attack on a uniform
shift, Tchouka et al., recovers them exactly only when two noises agree). ``S`` and ``n`` come from the
value streams (``context.ValueStreams``): with a patient key they are HMAC-derived and the same in all of
a patient's notes; with a seed they are reproducible per document; otherwise secret per document.

With ``keep_order`` the noise of a full date is no longer drawn per date but read off the patient's
yearly line (``ordered_noise``: knots every ``4·noise_days + 1`` days or more, each in ``[-noise_days,
noise_days]``, drawn once per patient): its slope is below half a day per day, so a later date is never
written before an earlier one (two days in a row may land on one day), and an interval of ``t`` days moves
by less than ``t / 2`` days plus rounding. The price: an attacker who learns one true date also learns
the dates within a few days of it to within half their distance (far ones stay uncertain by up to
``2·noise_days``), and the same day of another year gets the same noise (benchmarks/date_mechanisms.py
measures both). A written day or weekday that would survive still moves, to the nearest noise that changes
it, between its neighbours' places when one there does (else past them: a written weekday may need it).

No field of the original survives: the default shift (400 to 690 days) changes the year and the month of
every date, and among the noises allowed the first one (in the value's own random order) that also
changes the day (and the weekday, if written) is used, so "March of 1993", "July 29th" or "'84" give up
no part of themselves. Coarser values move by the same offset at their own granularity (months, years;
never by zero), clock times by a non-zero number of hours and other minutes, and durations and relative
expressions ("3 days ago", "for 2 weeks") keep their unit and get a non-zero relative noise
(``amount_noise``, at least one unit). The text keeps the original's layout and language. Dates
indicative of an age over 89 (before or after the shift) become the ``over89`` marker (``over89``
module). Spans that cannot be read go to the ``fallback`` operator.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from anonymed.dates.over89 import (
    OVER89,
    aggregate,
    birth_in_past,
    cached_reference,
    check_marker,
    has_year,
    implies_over89,
    reference_date,
)
from anonymed.dates.pieces import Piece, read_pieces
from anonymed.dates.random_date import random_fields
from anonymed.dates.ranges import Fields, partner, write_pieces
from anonymed.dates.seasons import season_of
from anonymed.dates.temporal import Kind, Slot, Temporal, fields_of, render_temporal, with_year
from anonymed.dates.values import ORDERS, ReadingKey, document_reading, read_values
from anonymed.document import Span
from anonymed.errors import ConfigError
from anonymed.labels import Label
from anonymed.randomness import RandomSource
from anonymed.substitute.base import Context, Operator, OperatorParams, check_other_operator, fallback_for
from anonymed.substitute.context import patient_stream_key
from anonymed.substitute.invariant import fold

_DAYS_PER_MONTH: Final = 30.436875
_DAYS_PER_YEAR: Final = 365.25
_SHIFT: Final = "\x00date-shift"
#: a year without 29 February: where ``keep_order`` reads a date's place in its year
_PLAIN_YEAR: Final = 2001
#: the fields whose value must change ("number" is an amount's, moved by ``jitter_amount``)
_FIELDS: Final = frozenset({"day", "month", "year", "weekday", "hour", "minute"})


@dataclass(frozen=True)
class DateShiftParams(OperatorParams):
    """Shift and noise sizes (see the module docstring), numeric order, over-89 marker, fallback operator."""

    min_shift_days: int = 400  # above a year and a month: every year and month changes
    max_shift_days: int = 690  # below two years less a month: the month still changes
    noise_days: int = 7
    noise_minutes: int = 30
    amount_noise: float = 0.2
    numeric_order: str = "auto"
    over89: str = OVER89
    fallback: str = "fake"
    keep_order: bool = False


def jitter_amount(quantity: int | float, rng: RandomSource, reach: int, floor: int = 1) -> int | float:
    """``quantity`` moved up or down by a non-zero whole step of at most ``reach``, kept >= ``floor``."""
    step = 1 + rng.randbelow(max(1, reach))
    if quantity - step < floor or rng.randbelow(2):
        return quantity + step
    return quantity - step


class DateShiftOperator(Operator[DateShiftParams]):
    """Move dates by a secret per-patient shift plus per-date noise (see the module docstring)."""

    name = "date_shift"
    params_type = DateShiftParams

    def validate(self) -> None:
        """Sizes must leave room for a non-zero shift; the fallback must be another operator."""
        super().validate()
        p = self.params
        shifts = 0 <= p.noise_days < p.min_shift_days <= p.max_shift_days
        if not shifts or p.noise_minutes < 1 or not 0 < p.amount_noise <= 1:
            raise ConfigError(
                "date_shift needs 0 <= noise_days < min_shift_days <= max_shift_days, noise_minutes >= 1 "
                f"and 0 < amount_noise <= 1, got {p.noise_days!r}, {p.min_shift_days!r}, "
                f"{p.max_shift_days!r}, {p.noise_minutes!r}, {p.amount_noise!r}"
            )
        if p.numeric_order not in ORDERS:
            raise ConfigError(f"date_shift numeric_order must be one of {ORDERS}, got {p.numeric_order!r}")
        check_marker(p.over89, "date_shift")
        check_other_operator(self, p.fallback, "fallback")

    def fallback_operator(self) -> Operator[Any]:
        """The operator of the spans that cannot be read (built once)."""
        return fallback_for(self, self.params.fallback)

    def prepare(self, spans: Sequence[Span], context: Context) -> None:
        """Read the document's dates once; prepare the fallback for those that cannot be read."""
        values = read_values(spans, context, self.params.numeric_order, self._key())
        unread = [s for s in spans if values[(s.start, s.end)] is None]
        if unread:
            self.fallback_operator().prepare(unread, context)

    def _key(self) -> ReadingKey:
        return ReadingKey(f"date_shift:{id(self)}")

    def shift_days(self, context: Context) -> int:
        """The secret shift of the document's patient: ``min_shift_days <= |S| <= max_shift_days``."""
        return _shift_from(context.streams.key_for(Label.DATE.value, _SHIFT), self.params)

    def operate(self, span: Span, context: Context) -> str:
        """The span written with its shifted (or jittered) value; the fallback's surrogate if unread."""
        value = read_values([span], context, self.params.numeric_order, self._key()).get(
            (span.start, span.end)
        )
        if value is None:
            written = self._pieces(span, context)
            return written if written is not None else self.fallback_operator().operate(span, context)
        reference = cached_reference(context.document, context.state)
        if implies_over89(value, value.quantity, reference):
            return aggregate(value.parts, self.params.over89)
        rng = RandomSource.from_key(context.streams.key_for(span.label.value, "\x00value:" + value.key))
        moved = self.moved(value, self.shift_days(context), rng, knots=self._knots(context))
        if implies_over89(value, moved, reference):
            return aggregate(value.parts, self.params.over89)
        return render_moved(value, moved, span.text)

    def _pieces(self, span: Span, context: Context) -> str | None:
        """A span holding several dates or a range, each part moved (see ``dates.pieces``); ``None``: none."""
        order, year = document_reading(context, self._key())
        reference = reference_date(context.document.metadata) or dt.date.today()
        pieces = read_pieces(span.text, context.lang, order, reference)
        if not pieces:
            return None
        born = cached_reference(context.document, context.state)
        shift, marker = self.shift_days(context), self.params.over89

        def choose(index: int, piece: Piece, accept: Callable[[Fields], bool], base: Fields) -> Fields | str:
            value = piece.value
            if value is None:  # a date-shaped piece that is no real date: a real one in its layout
                return random_fields(context.streams.for_span(_piece_span(span, piece)), accept, base)
            value = with_year(value, year) if year is not None and not _year_shared(pieces, index) else value
            value = _after_range_start(pieces, index, value, year)
            value = birth_in_past(value, born) if span.subtype == "birth" else value
            if implies_over89(value, value.quantity, born):
                return aggregate(value.parts, marker)
            rng = RandomSource.from_key(context.streams.key_for(span.label.value, "\x00value:" + value.key))
            moved = self.moved(
                value,
                shift,
                rng,
                accept=lambda q: accept(fields_of(value.kind, q)),
                knots=self._knots(context),
            )
            if implies_over89(value, moved, born):
                return aggregate(value.parts, marker)
            return fields_of(value.kind, moved)

        return write_pieces(span.text, pieces, choose, context.value_rng(span))

    def _knots(self, context: Context) -> Callable[[int], int] | None:
        """The patient's knot noises of ``keep_order`` (knot index -> noise), or ``None`` without it."""
        if not self.params.keep_order:
            return None
        reach = self.params.noise_days

        @cache  # a date reads the knots around it and its two neighbours': mostly the same two
        def knot(index: int) -> int:
            key = context.streams.key_for(Label.DATE.value, f"\x00knot:{index}")
            return RandomSource.from_key(key).randbelow(2 * reach + 1) - reach

        return knot

    def moved(
        self,
        value: Temporal,
        shift: int,
        rng: RandomSource,
        accept: Callable[[int | float], bool] | None = None,
        knots: Callable[[int], int] | None = None,
    ) -> int | float:
        """The new quantity of ``value`` for the patient's ``shift`` and the value's own noise stream.

        ``accept``: a constraint of the value's range (the noises allowed are tried in the value's order);
        ``knots``: the patient's knot noises (``keep_order``), which fix a full date's noise.
        """
        p = self.params
        if value.kind is Kind.AMOUNT:
            return jitter_amount(value.quantity, rng, round(abs(value.quantity) * p.amount_noise))
        if value.kind in (Kind.TIME, Kind.HOUR):
            hours = 1 + rng.randbelow(max(1, p.noise_minutes // 30))
            hours = hours if rng.randbelow(2) else -hours
            if value.kind is Kind.HOUR:
                return value.quantity + hours
            minute = int(value.quantity) % 60
            other = (minute + 1 + rng.randbelow(59)) % 60  # any other minute
            return int(value.quantity) - minute + 60 * hours + other
        noises = list(range(-p.noise_days, p.noise_days + 1))
        if knots is not None and value.kind is Kind.DATE:
            day = int(value.quantity)
            base = ordered_noise(day, knots, p.noise_days)
            # base first, then one day later, one earlier...; past the next or previous day's place only
            # when no noise between them changes every field (a written weekday too)
            low = ordered_noise(day - 1, knots, p.noise_days) - 1
            high = ordered_noise(day + 1, knots, p.noise_days) + 1
            noises.sort(key=lambda n: (not low <= n <= high, abs(n - base), n < base))
        else:
            first = noises.pop(rng.randbelow(len(noises)))
            rng.python.shuffle(noises)
            noises.insert(0, first)
        candidates = [_shifted(value, shift + n) for n in noises]
        if _writes_season(value):  # "Spring 2023": also a season earlier or later, so the season can change
            candidates += [q + step for q in candidates for step in (3, -3)]
        allowed = [q for q in candidates if accept is None or accept(q)] or candidates
        return next((q for q in allowed if _all_fields_change(value, q)), allowed[0])


def ordered_noise(day: int, knots: Callable[[int], int], reach: int) -> int:
    """The noise of the date of ordinal ``day`` on the patient's yearly line (``keep_order``).

    The line runs through ``365 // (4·reach + 1)`` knots spread over a year, each in ``[-reach, reach]``,
    linear between two and rounded half up, and depends on the month and day only: a yearless "8/25" gets
    the same noise whatever year a note implies. From one day to the next it moves by less than half a day
    (New Year's Eve to New Year's Day too), so ``day + noise`` never decreases and never stays two days.
    """
    date = dt.date.fromordinal(day)
    position = (dt.date(_PLAIN_YEAR, date.month, min(date.day, 28 if date.month == 2 else 31)).toordinal()
                - dt.date(_PLAIN_YEAR, 1, 1).toordinal())  # fmt: skip
    count = max(1, 365 // (4 * reach + 1))
    index = position * count // 365
    while (index + 1) * 365 // count <= position:
        index += 1
    first, width = index * 365 // count, (index + 1) * 365 // count - index * 365 // count
    low, high = knots(index), knots((index + 1) % count)
    return (2 * low * width + 2 * (high - low) * (position - first) + width) // (2 * width)


def _shift_from(stream_key: bytes, p: DateShiftParams) -> int:
    rng = RandomSource.from_key(stream_key)
    size = p.min_shift_days + rng.randbelow(p.max_shift_days - p.min_shift_days + 1)
    return size if rng.randbelow(2) else -size


def patient_shift_days(patient_key: bytes, patient_id: str, params: DateShiftParams) -> int:
    """The secret shift ``S`` the operator gives ``patient_id``'s dates under ``patient_key``.

    For the structured dates of the FHIR and SQL paths: the same ``S`` as in the patient's notes (whose
    dates also get their own noise), so both lie on one timeline.
    """
    return _shift_from(patient_stream_key(patient_key, patient_id, Label.DATE.value, _SHIFT), params)


def _shifted(value: Temporal, days: int) -> int:
    """The quantity of ``value`` moved by ``days`` at its own granularity (never by zero steps)."""
    quantity = int(value.quantity)
    if value.kind is Kind.DATE:
        return quantity + days
    if value.kind is Kind.DAY_OF_MONTH:
        return (quantity - 1 + days) % 28 + 1
    per_step = _DAYS_PER_YEAR if value.kind is Kind.YEAR else _DAYS_PER_MONTH
    if any(isinstance(p, Slot) and p.form == "decade" for p in value.parts):
        per_step *= 10  # "the 1940s" moves by decades: a year would not show
        return quantity + 10 * (round(days / per_step) or (1 if days > 0 else -1))
    return quantity + (round(days / per_step) or (1 if days > 0 else -1))


def _written(value: Temporal) -> set[str]:
    """The fields the original writes (a month name is its month)."""
    names = {p.name for p in value.parts if isinstance(p, Slot)}
    return {"month" if n == "month_name" else n for n in names} & _FIELDS


def _all_fields_change(value: Temporal, quantity: int | float) -> bool:
    """Whether every field the original writes gets another value (day, month, year, a season...)."""
    before, after = fields_of(value.kind, value.quantity), fields_of(value.kind, quantity)
    if _writes_season(value) and season_of(int(before["month"])) == season_of(int(after["month"])):
        return False
    return all(before.get(f) != after.get(f) for f in _written(value) if f in before)


def _writes_season(value: Temporal) -> bool:
    return value.kind is Kind.MONTH_YEAR and any(
        isinstance(p, Slot) and p.name == "season" for p in value.parts
    )


def render_moved(value: Temporal, moved: int | float, original: str) -> str:
    """``value`` written with ``moved``, one more step away while it still reads as ``original``."""
    step = 1 if moved >= value.quantity else -1
    for _ in range(4):
        text = render_temporal(value, moved)
        if fold(text) != fold(original):
            return text
        moved += step
    return render_temporal(value, moved)


def _piece_span(span: Span, piece: Piece) -> Span:
    """The piece as a span of its own (its value stream: equal pieces get equal dates)."""
    text = span.text[piece.start : piece.end]
    return Span(span.start + piece.start, span.start + piece.end, span.label, text, subtype=span.subtype)


def _after_range_start(pieces: Sequence[Piece], index: int, value: Temporal, year: int | None) -> Temporal:
    """A yearless date ending a range, read before the range's start ("12/31-1/1"), is in the next year."""
    start = pieces[index - 1].value if index > 0 and pieces[index - 1].range_start else None
    if start is None or start.kind is not Kind.DATE or value.kind is not Kind.DATE or has_year(value):
        return value
    if year is not None and not _year_shared(pieces, index - 1):
        start = with_year(start, year)
    if start.quantity <= value.quantity:
        return value
    return with_year(value, dt.date.fromordinal(int(value.quantity)).year + 1)


def _year_shared(pieces: Sequence[Piece], index: int) -> bool:
    """Whether a partial day takes its year from a date that writes it (then no year is inferred)."""
    other = partner(pieces, index)
    return other is not None and has_year(pieces[other].layout.value or pieces[index].layout.value)  # type: ignore[arg-type]
