"""A date span that is not one date, read as its parts: ranges, lists, merged dates, partial days.

Detection sometimes merges neighbours into one DATE span ("12-09-1997 27/12/14", "0 1 0 7 2 0 2 0
11-09-1994"), and notes write ranges and lists ("5/30-6/2", "8/2 - 8/10", "10/03/10/04", "du 12 au 15
mars", "March 12-15", "2/21, 4/21"). ``read_pieces`` finds the date-shaped groups of such a span (numeric
dates with any separators, eight digits with or without spaces, dates with a month name, clock times,
four-digit years) with the strict readers of ``temporal``, and keeps the set of non-overlapping groups
that accounts for the most digits, real dates first. A group whose fields make no real date ("31/02",
"37/41/1855") is kept as a layout without value: the caller writes a real date in it. A bare day next to
a range word ("du 12 au", "March 12-15") borrows the month and year of the date on the other side: it is
then a full date written with its day only, and ``shares`` says which fields it shares with that date.
Pieces joined by a range word or dash (``to``, ``au``, ``-``, ``–``, ``through``, ``jusqu'au``) are
flagged ``range_start`` and must stay in order.
"""

from __future__ import annotations

import bisect
import datetime as dt
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Final

from anonymed.dates import words
from anonymed.dates.model import Kind, Layout, Slot, Temporal, Unit
from anonymed.dates.parse import parse_bare, parse_compact, parse_numeric, parse_time, tokens
from anonymed.dates.phrases import parse_textual

#: numeric dates of three and of two fields, one separator (spaces allowed around it), found at every start
#: (never the seconds of a time: "00:01-05:00" holds no "01-05")
_NUMERIC3: Final = re.compile(r"(?=((?<![\d:])\d{1,4}\s?([/.\-|])\s?\d{1,2}\s?\2\s?(?:\d{4}|\d{2})(?!\d)))")
_NUMERIC2: Final = re.compile(
    r"(?=((?<![\d:])(?:\d{1,4}\s?[/.\-|]\s?\d{1,2}|\d{1,2}\s?[/.\-]\s?\d{4})(?!\d)))"
)
#: digits written one by one with single spaces, and eight digits in a row
_SPACED_RUN: Final = re.compile(r"(?<!\d)\d(?: \d(?!\d))+")
_COMPACT8: Final = re.compile(r"(?<!\d)\d{8}(?!\d)")
#: a clock time, with seconds too ("14:30:00" of an ISO 8601 timestamp); not a UTC offset ("+02:00", and
#: "-05:00" after seconds or an ISO time: "T09:05:00-05:00", "T09:05-05:00"), which ``write_pieces`` keeps
_AFTER_SECONDS: Final = r"(?<!:\d\d:\d\d-)(?<!T\d\d:\d\d-)" + "".join(
    rf"(?<!:\d\d\.\d{{{n}}}-)" for n in range(1, 10)
)
_TIME: Final = re.compile(
    r"(?<![\d+])"
    + _AFTER_SECONDS
    + r"\d{1,2}\s?(?::\d{2}(?::\d{2})?|[hH]\d{0,2})(?:\s?[aApP]\.?[mM]\.?)?(?![\d:])"
)
_YEAR: Final = re.compile(r"(?<![\d/.\-])(?:1[89]|20)\d{2}(?![\d/.\-])")
_RANGE: Final = re.compile(r"^\s*(?:-|–|—|to|through|thru|till|until|au|jusqu'au|jusqu’au)\s*$", re.I)
_AFTER_MONTH: Final = re.compile(r"\.?\s*(?:\d{1,2}(?:st|nd|rd|th)?(?!\d))?,?\s*(?:'?\d{4}|'?\d{2})?(?!\d)")
#: longer spans are not read as pieces (the longest merged dates of the notes are about 100 characters)
MAX_SPAN: Final = 400
_RANGE_WORDS = r"(?:-|–|—|to|through|thru|till|until|au|jusqu'au|jusqu’au)"
_DAY_TEXT = r"(?:[012]?\d|3[01])(?:st|nd|rd|th|er)?"
_DAY_BEFORE: Final = re.compile(rf"(?<![\d/.])({_DAY_TEXT})\s*{_RANGE_WORDS}\s*$", re.I)
_DAY_AFTER: Final = re.compile(rf"\s*{_RANGE_WORDS}\s*({_DAY_TEXT})(?![\d/.]|[^\W\d_]|-\d)", re.I)
_MONTH_WORD: Final = re.compile(r"[^\W\d_]+\.?")


@dataclass(frozen=True)
class Piece:
    """One date-shaped group of a span: offsets in the span, its layout (``value`` None: not a real date).

    ``shares``: the fields written only by the next (or previous) piece of its range ("du 12 au 15 mars":
    the 12 shares the month and the year); ``range_start``: the next piece ends a range begun here.
    """

    start: int
    end: int
    layout: Layout
    shares: frozenset[str] = frozenset()
    range_start: bool = False

    @property
    def value(self) -> Temporal | None:
        """The date read, if it is a real one."""
        return self.layout.value


def _digits(text: str) -> int:
    return sum(ch.isdigit() for ch in text)


def _read(text: str, lang: str, order: str, reference: dt.date) -> Layout | None:
    """The strict reading of one group, else its loose layout (an impossible date), else ``None``."""
    strict = (
        parse_numeric(text, order, reference)
        or parse_compact(text, lang)
        or parse_textual(tokens(text), lang, reference)
        or parse_time(text)
    )
    if strict is not None:
        return strict
    if _TIME.fullmatch(text):
        return parse_time(text, loose=True)
    loose = parse_numeric(text, order, reference, loose=True)
    return loose if loose is not None and loose.slots() else None


def _textual_candidates(text: str, lang: str) -> list[tuple[int, int]]:
    """Windows around each month name: with the day and year before or after it, and a weekday."""
    found = []
    for m in _MONTH_WORD.finditer(text):
        if words.month_of(m.group(0).rstrip("."), lang) is None:
            continue
        starts = {m.start()}
        day = re.search(r"\d{1,2}(?:st|nd|rd|th|er|e)?\s*(?:of\s+|de\s+)?$", text[: m.start()])
        if day is not None:
            starts.add(day.start())
        weekday = re.search(r"([^\W\d_]+)\.?,?\s+$", text[: min(starts)])
        if weekday is not None and words.weekday_of(weekday.group(1), lang) is not None:
            starts.add(weekday.start())
        after = re.match(
            r"\.?\s*(?:\d{1,2}(?:st|nd|rd|th)?(?!\d))?,?\s*(?:'?\d{4}|'?\d{2})?(?!\d)", text[m.end() :]
        )
        ends = {m.end(), m.end() + (after.end() if after else 0)}
        found += [(s, e) for s in starts for e in ends]
    return found


def _next_to_month(text: str, start: int, end: int, lang: str) -> bool:
    """Whether a month name is right before or after a group ("March 12-15", "12 - 15 March": no D/M)."""
    before = re.search(r"([^\W\d_]+)\.?\s*$", text[:start])
    after = re.match(r"\s*([^\W\d_]+)", text[end:])
    return any(m is not None and words.month_of(m.group(1), lang) is not None for m in (before, after))


def _candidates(text: str, lang: str, order: str, reference: dt.date) -> list[Piece]:
    spans: set[tuple[int, int]] = set()
    for pattern in (_NUMERIC3, _NUMERIC2):
        spans.update((m.start(), m.start() + len(m.group(1))) for m in pattern.finditer(text))
    spans = {(s, e) for s, e in spans if not _next_to_month(text, s, e, lang)}
    for pattern in (_COMPACT8, _TIME, _YEAR):
        spans.update((m.start(), m.end()) for m in pattern.finditer(text))
    spans.update(_textual_candidates(text, lang))
    pieces = []
    for start, end in spans:
        group = text[start:end].strip()
        if group:
            start = text.index(group, start)
            layout = _read(group, lang, order, reference)
            if layout is None and _YEAR.fullmatch(group):
                layout = parse_bare(group, year_only=True, reference=reference)
            if layout is not None:
                pieces.append(Piece(start, start + len(group), layout))
    return pieces + _spaced_candidates(text, lang)


def _spaced_candidates(text: str, lang: str) -> list[Piece]:
    """Eight digits of a run of spaced digits: a run of eight always, windows of longer runs if real dates."""
    pieces = []
    for run in _SPACED_RUN.finditer(text):
        count = (len(run.group(0)) + 1) // 2
        for first in range(count - 7):
            start = run.start() + 2 * first
            layout = parse_compact(text[start : start + 15], lang)
            if layout is not None and (count == 8 or _plausible(layout.value)):
                pieces.append(Piece(start, start + 15, layout))
    return pieces


def _plausible(value: Temporal | None) -> bool:
    """A date of 1850 to 2150: a window of a long run of digits read as a date must be one."""
    return value is not None and 1850 <= dt.date.fromordinal(int(value.quantity)).year <= 2150


def _score(piece: Piece, text: str) -> tuple[int, int]:
    digits = _digits(text[piece.start : piece.end])
    return (2 * digits if piece.value is not None else digits), 1


def _best(pieces: list[Piece], text: str) -> list[Piece]:
    """The non-overlapping pieces covering the most digits (real dates count double), fewest pieces.

    Weighted interval scheduling: pieces sorted by their end, each either skipped or added to the best
    set ending before it starts (found by bisection), so a long span costs n log n.
    """
    ordered = sorted(pieces, key=lambda p: (p.end, p.start))
    ends = [p.end for p in ordered]
    scores: list[tuple[int, int]] = [(0, 0)]  # (weight, -pieces) of the best set among the first i pieces
    taken: list[bool] = []
    for i, piece in enumerate(ordered):
        previous = bisect.bisect_right(ends, piece.start, 0, i)
        gain = _score(piece, text)
        with_it = (scores[previous][0] + gain[0], scores[previous][1] - gain[1])
        taken.append(with_it > scores[i])
        scores.append(max(with_it, scores[i]))
    chosen: list[Piece] = []
    i = len(ordered)
    while i > 0:
        if taken[i - 1]:
            chosen.append(ordered[i - 1])
            i = bisect.bisect_right(ends, ordered[i - 1].start, 0, i - 1)
        else:
            i -= 1
    return chosen[::-1]


def read_pieces(text: str, lang: str, order: str, reference: dt.date) -> list[Piece]:
    """The date pieces of ``text`` in order, ranges linked and partial days completed (see the module)."""
    if len(text) > MAX_SPAN:
        return []  # no date is that long: a run-away span is left to the caller's fallback
    return list(_read_pieces(text, lang, order, reference))


@lru_cache(maxsize=1024)
def _read_pieces(text: str, lang: str, order: str, reference: dt.date) -> tuple[Piece, ...]:
    chosen = _best(_candidates(text, lang, order, reference), text)
    chosen = _with_partial_days(text, chosen, lang, reference)
    linked = []
    for i, piece in enumerate(chosen):
        nxt = chosen[i + 1] if i + 1 < len(chosen) else None
        is_range = nxt is not None and _RANGE.match(text[piece.end : nxt.start]) is not None
        linked.append(replace(piece, range_start=is_range))
    return tuple(linked)


def _with_partial_days(text: str, pieces: list[Piece], lang: str, reference: dt.date) -> list[Piece]:
    """Bare days on one side of a range word whose other side is a full date with a month name."""
    out = list(pieces)
    starts = {p.start for p in pieces} | {p.end for p in pieces}
    for index, piece in enumerate(pieces):
        value = piece.value
        if value is None or value.kind is not Kind.DATE or not _has_month_name(piece):
            continue
        window = max(0, piece.start - 24)
        before = _DAY_BEFORE.search(text[window : piece.start])
        after = _DAY_AFTER.match(text, piece.end)
        found = []
        if before is not None and (index == 0 or pieces[index - 1].end <= window + before.start(1)):
            found.append((window + before.start(1), window + before.end(1)))
        if after is not None and (index + 1 == len(pieces) or after.end(1) <= pieces[index + 1].start):
            found.append((after.start(1), after.end(1)))
        day = dt.date.fromordinal(int(value.quantity))
        for start, end in found:
            if start in starts:
                continue
            bare = parse_bare(text[start:end], year_only=False, reference=reference)
            number = int(re.match(r"\d+", text[start:end]).group(0))  # type: ignore[union-attr]
            if bare is None or number > _month_days(day):
                continue
            full = dt.date(day.year, day.month, number).toordinal()
            layout = Layout(bare.parts, Temporal(Kind.DATE, Unit.DAY, full, bare.parts))
            out.append(Piece(start, end, layout, frozenset({"month", "year"})))
    return sorted(out, key=lambda p: p.start)


def _month_days(day: dt.date) -> int:
    following = day.replace(day=28) + dt.timedelta(days=4)
    return (following - dt.timedelta(days=following.day)).day


def _has_month_name(piece: Piece) -> bool:
    return any(isinstance(p, Slot) and p.name == "month_name" for p in piece.layout.parts)
