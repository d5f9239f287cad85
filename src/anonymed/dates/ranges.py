"""Writing a span read as pieces (``pieces.read_pieces``) back with new dates, keeping its layout.

Every piece is written in its own template with new fields; the text between pieces is kept, and digits
outside any piece (an identifier merged into a date span) become random digits. Ranges stay in order:
``choose`` gives each piece its new value under the constraints of its range (after the piece that opens
the range, in the same month and year as the date whose fields it shares).
"""

from __future__ import annotations

import datetime as dt
import string
from collections.abc import Callable, Mapping, Sequence

from anonymed.dates.model import Kind, Slot, Temporal
from anonymed.dates.parse import UTC_OFFSET
from anonymed.dates.pieces import Piece
from anonymed.dates.temporal import fields_of, render_fields
from anonymed.randomness import RandomSource

Fields = Mapping[str, int | float]
#: a piece's new fields (or a whole text, such as a marker), given a check its fields must pass and the
#: fields it shares with the other date of its range (month, year; empty when it shares none)
Chooser = Callable[[int, Piece, Callable[[Fields], bool], Fields], Fields | str]


def partner(pieces: Sequence[Piece], index: int) -> int | None:
    """The piece whose month and year a partial day shares: the next one, else the previous one."""
    if not pieces[index].shares:
        return None
    if index + 1 < len(pieces) and pieces[index].range_start:
        return index + 1
    return index - 1 if index > 0 else None


def day_of(fields: Mapping[str, int | float]) -> tuple[int, int, int] | None:
    """(year, month, day) of full-date fields."""
    if {"year", "month", "day"} <= fields.keys():
        return int(fields["year"]), int(fields["month"]), int(fields["day"])
    return None


def constraint(
    pieces: Sequence[Piece], index: int, chosen: Mapping[int, Mapping[str, int | float]]
) -> Callable[[Mapping[str, int | float]], bool]:
    """What the new fields of piece ``index`` must satisfy given those already chosen for its range."""
    checks: list[Callable[[Mapping[str, int | float]], bool]] = []
    other = partner(pieces, index)
    if other is not None and other in chosen:
        shared = chosen[other]
        checks.append(lambda f: all(f.get(k) == shared.get(k) for k in pieces[index].shares))
    before = chosen.get(index - 1) if index > 0 and pieces[index - 1].range_start else None
    after = chosen.get(index + 1) if pieces[index].range_start else None

    def key(fields: Fields) -> tuple[int, int, int] | None:
        return day_of(fields)

    for j in (index - 1, index + 1):
        room = _room(pieces, j, index)
        if room is not None:
            checks.append(room)
    low, high = (key(before) if before else None), (key(after) if after else None)
    if low is not None:
        checks.append(lambda f: key(f) is None or key(f) > low)  # type: ignore[operator]
    if high is not None:
        checks.append(lambda f: key(f) is None or key(f) < high)  # type: ignore[operator]
    return lambda fields: all(check(fields) for check in checks)


def _room(pieces: Sequence[Piece], sharer: int, index: int) -> Callable[[Fields], bool] | None:
    """For the date a partial day shares its month with: room in that month for the day's original gap."""
    if not 0 <= sharer < len(pieces) or partner(pieces, sharer) != index:
        return None
    mine, theirs = pieces[index].value, pieces[sharer].value
    if mine is None or theirs is None:
        return None
    gap = int(mine.quantity) - int(theirs.quantity)  # positive when the partial day comes first

    def fits(fields: Fields) -> bool:
        day = day_of(fields)
        if day is None:
            return True
        other = day[2] - gap
        return 1 <= other <= _month_length(day[0], day[1])

    return fits


def _month_length(year: int, month: int) -> int:
    following = dt.date(year, month, 28) + dt.timedelta(days=4)
    return (following - dt.timedelta(days=following.day)).day


def _writes_year(piece: Piece) -> bool:
    """Whether the piece writes its year (or shares it with a piece that does)."""
    return "year" in piece.shares or any(isinstance(p, Slot) and p.name == "year" for p in piece.layout.parts)


def order_of(pieces: Sequence[Piece]) -> list[int]:
    """Pieces with fields of their own first, then the partial days that share them."""
    return sorted(range(len(pieces)), key=lambda i: (bool(pieces[i].shares), i))


def write_pieces(text: str, pieces: Sequence[Piece], choose: Chooser, rng: RandomSource) -> str:
    """``text`` with every piece written by ``choose`` (fields, or a whole text such as a marker)."""
    chosen: dict[int, Mapping[str, int | float]] = {}
    written: dict[int, str] = {}
    for index in order_of(pieces):
        piece = pieces[index]
        other = partner(pieces, index)
        base = {k: chosen[other][k] for k in piece.shares if k in chosen[other]} if other in chosen else {}
        neighbour = next((chosen[j] for j in (index - 1, index + 1) if j in chosen), None)
        if neighbour is not None and "year" in neighbour and not _writes_year(piece):
            base = {"year": neighbour["year"], **base}  # a yearless piece of a range: the same year
        result = choose(index, piece, constraint(pieces, index, chosen), base)
        if isinstance(result, str):
            written[index] = result
        else:
            chosen[index] = result
            written[index] = render_fields(piece.layout.parts, result, digits=lambda w: random_digits(w, rng))
    out, cursor = [], 0
    for index, piece in enumerate(pieces):
        out.append(_scramble_digits(text[cursor : piece.start], rng, after_piece=index > 0))
        out.append(written[index])
        cursor = piece.end
    out.append(_scramble_digits(text[cursor:], rng, after_piece=bool(pieces)))
    return "".join(out)


def value_fields(value: Temporal, quantity: int | float) -> dict[str, int | float]:
    """The fields a value of ``value``'s kind is written with at ``quantity``."""
    return dict(fields_of(value.kind, quantity))


def random_digits(width: int, rng: RandomSource) -> str:
    """``width`` random decimal digits."""
    return "".join(rng.choice(string.digits) for _ in range(width))


def _scramble_digits(text: str, rng: RandomSource, *, after_piece: bool = False) -> str:
    """Random digits for the digits of ``text``, except a UTC offset that starts it right after a piece."""
    zone = UTC_OFFSET.match(text) if after_piece else None
    if zone is not None:
        start, end = zone.span("zone")
        return _scramble_digits(text[:start], rng) + text[start:end] + _scramble_digits(text[end:], rng)
    return "".join(rng.choice(string.digits) if ch.isdigit() else ch for ch in text)


def is_full_date(value: Temporal | None) -> bool:
    """Whether a value is a calendar day (ranges are kept in order between such days)."""
    return value is not None and value.kind is Kind.DATE


def clamp_day(fields: Mapping[str, int | float]) -> dict[str, int | float]:
    """Fields whose day is brought inside its month, and whose weekday agrees with the date."""
    out = dict(fields)
    if {"year", "month", "day"} <= out.keys():
        year, month = int(out["year"]), int(out["month"])
        following = dt.date(year, month, 28) + dt.timedelta(days=4)
        last = (following - dt.timedelta(days=following.day)).day
        out["day"] = min(int(out["day"]), last)
        out["weekday"] = dt.date(year, month, int(out["day"])).isoweekday()
    return out
