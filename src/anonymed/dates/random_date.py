"""Date surrogates written in the layout of the original: numeric, month names (en, fr), ordinals, times.

The layout is read by ``layout.parse_layout``, with the same readers and word tables as the
``dp_date`` operator, and written by ``temporal.render_fields`` with a random date and time: every field
keeps its style (order, zero padding, month and weekday names, case, accents, ordinal suffix, two-digit
year, 12 or 24 hours), the weekday agrees with the new date, and digits the layout cannot place become
random digits. A span without a layout (a date in words, "Christmas") becomes the language's usual
numeric date. A date indicative of an age over 89 becomes the ``over89`` marker (see ``over89``), and
random years start 89 years before the reference date, so no surrogate implies an age over 89 either.
"""

from __future__ import annotations

import calendar
import datetime as dt
import string
from collections.abc import Callable, Mapping

from anonymed.dates.layout import parse_layout
from anonymed.dates.over89 import AGE_CATEGORY, OVER89, aggregate, birth_in_past, implies_over89
from anonymed.dates.pieces import Piece, read_pieces
from anonymed.dates.ranges import Fields, clamp_day, write_pieces
from anonymed.dates.temporal import render_fields
from anonymed.randomness import RandomSource


def draw_fields(rng: RandomSource, years: tuple[int, int]) -> dict[str, int]:
    """A uniformly random date (year in ``years``, inclusive) and time, as render fields."""
    year = years[0] + rng.randbelow(years[1] - years[0] + 1)
    month = 1 + rng.randbelow(12)
    day = 1 + rng.randbelow(calendar.monthrange(year, month)[1])
    weekday = dt.date(year, month, day).isoweekday()
    hour, minute, second = rng.randbelow(24), rng.randbelow(60), rng.randbelow(60)
    return {"year": year, "month": month, "day": day, "weekday": weekday, "hour": hour, "minute": minute,
            "second": second}  # fmt: skip


def random_fields(
    rng: RandomSource,
    accept: Callable[[Mapping[str, int | float]], bool],
    base: Mapping[str, int | float],
    years: tuple[int, int] = (1950, 2030),
    tries: int = 50,
) -> dict[str, int | float]:
    """Random date fields with ``base``'s fields (those a range shares) that pass ``accept`` if any do."""
    fields: dict[str, int | float] = {}
    for _ in range(tries):
        fields = clamp_day({**draw_fields(rng, years), **base})
        if fields["month"] == 2 and fields["day"] == 29:
            continue  # a yearless layout would not show the leap year
        if accept(fields):
            return fields
    # a narrow range ("du 27 au 28 mai": one or two days left in the month): every day of the drawn month
    length = calendar.monthrange(int(fields["year"]), int(fields["month"]))[1]
    days = [{**fields, "day": day} for day in range(1, length + 1)]
    fitting = [f for f in days if accept(f) and not (f["month"] == 2 and f["day"] == 29)]
    return dict(rng.choice(fitting)) if fitting else fields


def default_layout(fields: dict[str, int], lang: str) -> str:
    """The usual numeric date of the language, for originals whose layout was not recognised."""
    day, month, year = fields["day"], fields["month"], fields["year"]
    return f"{day:02d}/{month:02d}/{year:04d}" if lang == "fr" else f"{month:02d}/{day:02d}/{year:04d}"


def below_category(years: tuple[int, int], reference: dt.date) -> tuple[int, int]:
    """``years`` raised so that no date drawn in them lies 90 years or more before ``reference``."""
    floor = min(reference.year - AGE_CATEGORY + 1, 9999)
    return max(years[0], floor), max(years[1], floor)


def fake_date(
    text: str,
    rng: RandomSource,
    lang: str,
    years: tuple[int, int],
    subtype: str | None = None,
    *,
    reference: dt.date | None = None,
    over89: str = OVER89,
) -> str:
    """A random date (and time) written in the layout of ``text``; ``over89`` for a date over 89 years old."""
    ref = reference or dt.date.today()
    layout = parse_layout(text, lang, subtype=subtype, reference=ref)
    value = None if layout is None else layout.value
    if value is not None and subtype == "birth":
        value = birth_in_past(value, ref)
    if layout is not None and value is not None and implies_over89(value, value.quantity, ref):
        return aggregate(layout.parts, over89)
    allowed = below_category(years, ref)
    if layout is None or layout.value is None:  # unread: maybe several dates, a range, a glued ID
        pieces = read_pieces(text, lang, "DMY" if lang == "fr" else "MDY", ref)
        loose = layout is None or any(slot.name == "digits" for slot in layout.slots())
        if len(pieces) > 1 or (pieces and loose):
            return random_pieces(text, pieces, rng, allowed, ref, over89)
    fields = draw_fields(rng, allowed)
    if layout is None:
        return default_layout(fields, lang)
    return render_fields(layout.parts, fields, digits=lambda width: random_digits(width, rng))


def random_pieces(
    text: str, pieces: list[Piece], rng: RandomSource, years: tuple[int, int], reference: dt.date, over89: str
) -> str:
    """A span of several dates or a range: a random real date in each piece's layout, ranges in order."""

    def choose(index: int, piece: Piece, accept: Callable[[Fields], bool], base: Fields) -> Fields | str:
        value = piece.value
        if value is not None and implies_over89(value, value.quantity, reference):
            return aggregate(piece.layout.parts, over89)
        return random_fields(rng, accept, base, years)

    return write_pieces(text, pieces, choose, rng)


def random_digits(width: int, rng: RandomSource) -> str:
    """``width`` random decimal digits."""
    return "".join(rng.choice(string.digits) for _ in range(width))
