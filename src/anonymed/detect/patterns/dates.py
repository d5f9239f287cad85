"""Numeric dates (12/02/2020, 2020-02-12, 7/22, 8/88) with the filters that keep ratios, doses and
blood pressures out."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from anonymed.detect.patterns.base import Scan, any_in
from anonymed.detect.tokens import word_set
from anonymed.document import Span
from anonymed.labels import Label

# the look-ahead opening a pattern ((?=\d), opening(...)) only speeds the scan: see patterns/base.py
#: day/month/year or month/day/year with one separator used twice; a space may follow it.
_DMY: Final = re.compile(
    r"(?=\d)(?<![\d./,+|])(?<!\d[-:])(\d{1,2}) ?([/.|-]) ?(\d{1,2}) ?\2 ?(\d{4}|\d{2})(?![\w/%|]|[.,:-]\d)"
)
#: day month year separated by spaces, four-digit year only: 20 12 2003
_DMY_SPACED: Final = re.compile(
    r"(?=\d)(?<![\w./,+-])(\d{1,2}) (\d{1,2}) ((?:19|20)\d{2})(?![\w/%]|[.,:-]\d)"
)
#: eight digits written as a date (23022018, 20180223), taken only after a date word
_COMPACT: Final = re.compile(r"(?=\d)(?<![\w./,+-])\d{8}(?![\w/%]|[.,:-]\d)")
#: year first: 2020-02-12, 2021/12/10, 2020.02.12.
_YMD: Final = re.compile(
    r"(?=\d)(?<![\w./,+])(?<!\d-)((?:19|20)\d{2})([/.-])(\d{1,2})\2(\d{1,2})(?![\w/]|[.,:-]\d)"
)
#: month/year with a four-digit year: 02/2020, 2-2020.
_MY: Final = re.compile(r"(?=\d)(?<![\w./,+])(?<!\d-)(\d{1,2})[/.-]((?:19|20)\d{2})(?![\w/]|[.,:-]\d)")
#: two numbers and a slash: 7/22, 12/02, 8/88 (month and two-digit year).
_SHORT: Final = re.compile(r"(?=\d)(?<![\w./,+#'’])(?<!\d[-:])(\d{1,2})/(\d{2}|\d)(?![\w/%]|[.,:]\d)")

#: a range of slash (or dotted) dates joined by a hyphen or a dash, the second with its year (3/4-3/6/2024,
#: 3/4/2024 - 3/6/2024, 3.4.2024-6.4.2024): two dates, which the look-arounds of the other patterns refuse as
#: parts of a run
_SLASH_RANGE: Final = re.compile(
    r"(?=\d)(?<![\w./,+#'’-])(\d{1,2})(?P<sep>[/.])(\d{1,2})(?:(?P=sep)(\d{4}|\d{2}))?(?P<dash> ?[-–] ?)"
    r"(\d{1,2})(?P=sep)(\d{1,2})(?P=sep)(\d{4}|\d{2})(?![\w/%|]|[.,:-]\d)"
)
#: a range of two month/day pairs without a year, joined by a hyphen ("echo 5/30-6/2"); taken only when the
#: first pair's day is past 12 and the second pair's month is the same or the next (strength grades "4/5-5/5"
#: are no dates)
_SHORT_RANGE: Final = re.compile(
    r"(?=\d)(?<![\w./,+#'’-])(\d{1,2})/(\d{1,2})(?P<dash>[-–])(\d{1,2})/(\d{1,2})(?![\w/%|]|[.,:-]\d)"
)
#: two month/day pairs glued by a slash (11/05/11/06: two treatment days)
_GLUED: Final = re.compile(r"(?=\d)(?<![\w./,+#'’])(\d{1,2})/(\d{1,2})/(\d{1,2})/(\d{1,2})(?![\w/%]|[.,:]\d)")
#: a month/day pair and a two-digit year after a period (a typed slash: 12/14.95)
_DOTTED_YEAR: Final = re.compile(r"(?=\d)(?<![\w./,+#'’])(?<!\d[-:])(\d{1,2})/(\d{1,2})\.(\d{2})(?![\w/%.,])")
#: words that may follow a hyphenated date ("on 6-9 for repair"); any other word makes the pair a count
_AFTER_HYPHEN_DATE: Final = word_set("for at and with by in to when where then after before but or s/p")
#: a month-day pair with a hyphen (6-9), taken only after "on" / "dated" / "since"
_HYPHEN_PAIR: Final = re.compile(
    r"\b(?:on|dated|since) (\d{1,2})-(\d{1,2})(?![\w/%.-]|[.,:]\d)", re.IGNORECASE
)

PATTERNS: Final = (
    _DMY, _DMY_SPACED, _COMPACT, _YMD, _MY, _SHORT, _GLUED, _DOTTED_YEAR, _HYPHEN_PAIR, _SLASH_RANGE,
    _SHORT_RANGE
)  # fmt: skip

#: words just before a number pair that make it a setting, a score or a fraction, not a date
_RATIO_BEFORE: Final = word_set(
    "ps psv cpap bipap imv simv peep vent vented ventilator flowby flow mode settings setting pain cp "
    "angina strength motor grip murmur sem hsm co/ci ci svr rales crackles cxs crackle up gcs scale score "
    "ratio titer titre titers dilution rated rates rate eva x grade bp pa pap cvp nbp abp art "
    "tension ta pression fio2 sats sat cuff wedge pcwp ie i/e i:e pressures pressure nipple mouth "
    "page pages pg sheet pupils pupil perrl perrla"
)
#: words just after a number pair that make it a setting, a score or a fraction
_RATIO_AFTER: Final = word_set(
    "peep ps cm cmh2o pain cp angina str strength up sem murmur ns nss of ips psv cpap pressure support "
    "rule assist dose doses strength mmhg sat sats mm scale semaines jours mois ans weeks days months years "
    "fois times bottles bottle sets pages views cultures"
)
#: ventilator context close before (same line): small pairs there are pressure settings (PS 10 / PEEP 5)
_VENT_NEAR: Final = re.compile(
    r"\b(?:ps|psv|cpap|bipap|imv|simv|vent|ventilation|ventilator|wean(?:ing)?|peep|fio2|abg|"
    r"resp|mask|trial)\b",
    re.I,
)
_VENT_AFTER: Final = re.compile(r"^\W{0,3}(?:\d{2} ?%|[^\n]{0,20}\b(?:bipap|cpap|peep|fio2|ps)\b)", re.I)
#: pain context close by: N/10 there is a pain score
_PAIN_NEAR: Final = re.compile(
    r"\b(?:pain|cp|c/o|discomfort|douleur|eva|en|angina|ache|headache|scale)\b", re.I
)
#: words right before a pair that make it a date even in a ventilator context
_STRONG_DATE_BEFORE: Final = word_set(
    "since until till dated due depuis le du au placed admitted extubate extubated extubation "
    "reintubation intubated intubation surgery"
)
#: words before a number pair that make it a date
_DATE_BEFORE: Final = word_set(
    "on since from until till dated date le du au depuis admitted seen dob ddn né née born jusqu'au "
    "jusqu'à due last next"
)


def _valid_day_month(first: int, second: int) -> bool:
    """Whether (first, second) is a day and a month in either order."""
    return (1 <= first <= 12 and 1 <= second <= 31) or (1 <= first <= 31 and 1 <= second <= 12)


def _valid_year(digits: str) -> bool:
    return len(digits) == 2 or 1900 <= int(digits) <= 2099


def _compact_date(digits: str) -> bool:
    """Whether eight digits read as DDMMYYYY, MMDDYYYY or YYYYMMDD."""
    if _valid_day_month(int(digits[:2]), int(digits[2:4])) and _valid_year(digits[4:]):
        return True
    return _valid_year(digits[:4]) and 1 <= int(digits[4:6]) <= 12 and 1 <= int(digits[6:]) <= 31


def _full_dates(scan: Scan) -> Iterator[Span]:
    for match in _DMY.finditer(scan.text):
        first, second = int(match.group(1)), int(match.group(3))
        if _valid_day_month(first, second) and _valid_year(match.group(4)):
            score = 0.95 if len(match.group(4)) == 4 else 0.9
            yield scan.span(match.start(), match.end(), Label.DATE, None, score)
    for match in _DMY_SPACED.finditer(scan.text):
        if 1 <= int(match.group(1)) <= 31 and 1 <= int(match.group(2)) <= 12:
            yield scan.span(match.start(), match.end(), Label.DATE, None, 0.7)
    for match in _COMPACT.finditer(scan.text):
        digits = match.group(0)
        if _compact_date(digits) and any_in(scan.words_before(match.start(), 1, 20), _DATE_BEFORE):
            yield scan.span(match.start(), match.end(), Label.DATE, None, 0.7)
    for match in _YMD.finditer(scan.text):
        if 1 <= int(match.group(3)) <= 12 and 1 <= int(match.group(4)) <= 31:
            yield scan.span(match.start(), match.end(), Label.DATE, None, 0.95)
    for match in _MY.finditer(scan.text):
        if 1 <= int(match.group(1)) <= 12 and not scan.unit_follows(match.end()):
            yield scan.span(match.start(), match.end(), Label.DATE, None, 0.85)
    yield from _ranges(scan)
    yield from _short_ranges(scan)


def _ranges(scan: Scan) -> Iterator[Span]:
    """Both ends of a range of slash or dotted dates ("3/4-3/6/2024"), each a real day and month, the years
    real."""
    for match in _SLASH_RANGE.finditer(scan.text):
        first, second, year = match.group(1, 3, 4)
        end_first, end_second, end_year = match.group(6, 7, 8)
        pairs_ok = _valid_day_month(int(first), int(second)) and _valid_day_month(
            int(end_first), int(end_second)
        )
        if not pairs_ok or not _valid_year(end_year) or (year is not None and not _valid_year(year)):
            continue
        score = 0.95 if len(end_year) == 4 else 0.9
        yield scan.span(match.start(), match.start("dash"), Label.DATE, None, score)
        yield scan.span(match.end("dash"), match.end(), Label.DATE, None, score)


def _short_ranges(scan: Scan) -> Iterator[Span]:
    """The end of a yearless range of month/day pairs (its start is a short date already): "5/30-6/2"."""
    for match in _SHORT_RANGE.finditer(scan.text):
        a, b, c, d = (int(x) for x in match.group(1, 2, 4, 5))
        (month, day), (end_month, end_day) = ((a, b), (c, d)) if scan.lang == "en" else ((b, a), (d, c))
        if not (12 < day <= 31 and 1 <= month <= 12 and 1 <= end_month <= 12 and 1 <= end_day <= 31):
            continue
        if end_month == month or end_month == month % 12 + 1:  # the same month or the next
            yield scan.span(match.start(), match.start("dash"), Label.DATE, None, 0.85)
            yield scan.span(match.end("dash"), match.end(), Label.DATE, None, 0.85)


def _is_ratio(scan: Scan, start: int, end: int, first: int, second: int, second_digits: int) -> bool:
    """Whether the pair looks like a fraction, a score, a ventilator setting or a range part."""
    before = [part for word in scan.words_before(start, 2, 25) for part in word.split("/")]
    after = [part for word in scan.words_after(end, 2, 20) for part in word.split("/")]
    if any_in(before[-1:], _RATIO_BEFORE):
        return True
    if any_in(after[:1], _RATIO_AFTER) and not (second > 12 and any_in(before[-1:], _DATE_BEFORE)):
        return True  # "2/4 bottles" (but "from 9/27 cultures": no count is out of 27 there)
    near = scan.line_before(start, 40) + " " + scan.line_after(end, 25)
    if second == 10 and first <= 10 and _PAIN_NEAR.search(near):
        return True
    vent = _VENT_NEAR.search(scan.line_before(start, 40)) or _VENT_AFTER.match(scan.line_after(end, 30))
    if vent and first <= 25 and second <= 12 and not any_in(before[-1:], _STRONG_DATE_BEFORE):
        return True
    if len(after) > 1 and after[0] in {"ps", "peep", "x"}:
        return True
    prefix = scan.text[max(0, start - 2) : start]
    if re.search(r"\d ?[-–x×]$|[x×X+]$", prefix):  # 3-4/10, 500x12/5, +3/6
        return True
    fraction = first < second <= 4 and second_digits == 1 and not any_in(before[-1:], _DATE_BEFORE)
    return fraction or scan.unit_follows(end)


def _short_dates(scan: Scan) -> Iterator[Span]:
    for match in _SHORT.finditer(scan.text):
        first, second = int(match.group(1)), int(match.group(2))
        month_year = 1 <= first <= 12 and len(match.group(2)) == 2 and second >= 32
        if not (_valid_day_month(first, second) or month_year):
            continue
        if _is_ratio(scan, match.start(), match.end(), first, second, len(match.group(2))):
            continue
        cued = any_in(scan.words_before(match.start(), 1, 20), _DATE_BEFORE)
        if scan.lang == "en" and first > 12 and not cued:
            continue  # English notes write month/day: 13/10 and 21/2 are settings and lengths
        score = 0.85 if cued else (0.6 if month_year else 0.7)
        yield scan.span(match.start(), match.end(), Label.DATE, None, score)


def _month_day(scan: Scan, first: int, second: int) -> bool:
    """Whether (first, second) is a month and a day in this note's language's order."""
    if scan.lang == "en":
        return 1 <= first <= 12 and 1 <= second <= 31
    return _valid_day_month(first, second)


def _odd_dates(scan: Scan) -> Iterator[Span]:
    """Dates written oddly: two pairs glued by a slash, a period before the year, a hyphen after "on"."""
    for match in _GLUED.finditer(scan.text):
        numbers = [int(group) for group in match.groups()]
        if not (_month_day(scan, *numbers[:2]) and _month_day(scan, *numbers[2:])):
            continue
        if _is_ratio(scan, match.start(), match.end(), numbers[2], numbers[3], len(match.group(4))):
            continue
        middle = match.start(3) - 1
        yield scan.span(match.start(), middle, Label.DATE, None, 0.7)
        yield scan.span(middle + 1, match.end(), Label.DATE, None, 0.7)
    for match in _DOTTED_YEAR.finditer(scan.text):
        yield from _odd_pair(scan, match.start(), match.end(), match, 5)
    if scan.lang == "en":
        for match in _HYPHEN_PAIR.finditer(scan.text):
            after = scan.words_after(match.end(), 1, 12)
            if not after or after[0] in _AFTER_HYPHEN_DATE:  # "on 1-2 pillows": a count of a noun
                yield from _odd_pair(scan, match.start(1), match.end(), match, 1)


def _odd_pair(scan: Scan, start: int, end: int, match: re.Match[str], lowest_day: int) -> Iterator[Span]:
    """The month/day pair of ``match`` as a date, unless it reads as a ratio or its day is below
    ``lowest_day``."""
    first, second = int(match.group(1)), int(match.group(2))
    if not _month_day(scan, first, second) or second < lowest_day:
        return
    if not _is_ratio(scan, start, end, first, second, len(match.group(2))):
        yield scan.span(start, end, Label.DATE, None, 0.6)


def find_numeric_dates(scan: Scan) -> Iterator[Span]:
    """Dates written with digits only."""
    yield from _full_dates(scan)
    yield from _short_dates(scan)
    yield from _odd_dates(scan)
