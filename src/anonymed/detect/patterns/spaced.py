"""Letter-spaced digits from forms and OCR ("1 7 0 4 2 0 0 5", "0 6 . 1 2 . 3 4 . 5 6 . 7 8"), split into
dates, phones and social security numbers."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from anonymed.detect.patterns.base import Scan
from anonymed.detect.patterns.ids import nir_key_is_valid
from anonymed.document import Span
from anonymed.labels import Label

# the look-ahead opening a pattern ((?=\d), opening(...)) only speeds the scan: see patterns/base.py
#: single characters separated by single spaces, starting with a digit (or "+ ")
_RUN: Final = re.compile(r"(?=[\d+(])(?<![\d.+/-])(?:\+ ?|\( ?\d ?\d ?\) ?)?\d(?: [\d./-]){5,}(?![\w])")
_NIR_SHAPE: Final = re.compile(r"[1-478]\d{2}(?:0[1-9]|1[0-2]|[2-4]\d|[5-9]\d)\d{8}(?:\d{2})?")

PATTERNS: Final = (_RUN, _NIR_SHAPE)

Piece = tuple[int, int, str]  # start and end indexes into the digit list, kind


def _date_ok(digits: str) -> bool:
    day, month = int(digits[:2]), int(digits[2:4])
    year_ok = len(digits) == 6 or 1900 <= int(digits[4:]) <= 2099
    return 1 <= day <= 31 and 1 <= month <= 12 and year_ok


def _kind(digits: str) -> str | None:
    """What a compact digit string is on its own: date, phone, nir, ssid (NIR without key) or None."""
    size = len(digits)
    if size in (6, 8) and _date_ok(digits):
        return "date"
    if size == 10 and digits[0] == "0":
        return "phone"
    if size in (13, 15) and _NIR_SHAPE.fullmatch(digits):
        return "nir" if nir_key_is_valid(digits) else "ssid"
    return None


def _segment(digits: str) -> list[Piece]:
    """Split ``digits`` into known pieces covering as many digits as possible (longest pieces first);
    the digits left between them form "unknown" pieces."""
    size_total = len(digits)
    covered = [0] * (size_total + 1)
    choice: list[tuple[int, str | None]] = [(1, None)] * (size_total + 1)
    for offset in range(size_total - 1, -1, -1):
        covered[offset], choice[offset] = covered[offset + 1], (1, None)
        for size in (15, 13, 10, 8, 6):
            end = offset + size
            kind = _kind(digits[offset:end]) if end <= size_total else None
            if kind is not None and size + covered[end] >= covered[offset]:
                covered[offset], choice[offset] = size + covered[end], (size, kind)
    pieces: list[Piece] = []
    offset = 0
    while offset < size_total:
        size, kind = choice[offset]
        if kind is None and pieces and pieces[-1][2] == "unknown" and pieces[-1][1] == offset:
            pieces[-1] = (pieces[-1][0], offset + 1, "unknown")
        else:
            pieces.append((offset, offset + size, kind or "unknown"))
        offset += size
    return pieces


_LABELS: Final = {
    "date": (Label.DATE, None, 0.8),
    "phone": (Label.CONTACT, "phone", 0.8),
    "nir": (Label.ID, "nir", 0.95),
    "ssid": (Label.ID, "other", 0.6),
    "unknown": (Label.ID, "other", 0.5),
}


def _whole(scan: Scan, match: re.Match[str]) -> Span | None:
    """A run with separators (dots, dashes, slashes) taken as one item."""
    compact = match.group(0).replace(" ", "")
    digits = re.sub(r"\D", "", compact)
    if compact.startswith(("+", "(")) or (len(digits) == 10 and digits[0] == "0" and "/" not in compact):
        return scan.span(match.start(), match.end(), Label.CONTACT, "phone", 0.8)
    if len(digits) in (6, 8) and _date_ok(digits):
        return scan.span(match.start(), match.end(), Label.DATE, None, 0.8)
    return None


def find_spaced(scan: Scan) -> Iterator[Span]:
    """Dates, phones and NIRs written one digit at a time."""
    for match in _RUN.finditer(scan.text):
        chars = match.group(0)
        if not chars.replace(" ", "").isdigit():
            whole = _whole(scan, match)
            if whole is not None:
                yield whole
            continue
        positions = [match.start() + i for i, char in enumerate(chars) if char.isdigit()]
        digits = "".join(char for char in chars if char.isdigit())
        for first, last, kind in _segment(digits):
            if kind == "unknown" and last - first < 6:
                continue
            label, subtype, score = _LABELS[kind]
            yield scan.span(positions[first], positions[last - 1] + 1, label, subtype, score)
