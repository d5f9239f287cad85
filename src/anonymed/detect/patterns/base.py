"""Shared pieces of the pattern recognizers: parameters, the scan context and small text helpers.

Patterns that open with look-behinds (or a word boundary) start with a look-ahead on their first character,
such as ``(?=\\d)`` or ``opening(words)``: the engine leaves a position that cannot start a match before it
tries the look-behinds (the same matches, a faster scan of the note;
tests/detect/patterns/test_pattern_lookaheads.py runs every such pattern with and without it).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final

from anonymed.detect.base import DetectorParams
from anonymed.document import Span
from anonymed.labels import Label

SOURCE: Final = "patterns"

#: A word for context checks: letters/digits, possibly joined by "/" or "&" (s/p, co/ci, i&o).
_WORD = re.compile(r"[^\W_]+(?:[/&'’][^\W_]+)*")

#: A unit right after a number means a quantity (dose, volume, score), not a date or identifier.
_UNIT = re.compile(
    r"[ \t]?(?:mg|mcg|µg|ug|g|gr|kg|ml|cc|l|dl|meq|mmol|mol|mmhg|cmh2o|u|units?|ui|iu|cm|mm|kcal|cal|"
    r"gtts?|puffs?|tabs?|caps?|bpm|lpm|l/min|mn|min|mins|sec|ng|pg|mui|ua)(?![^\W\d_])|[ \t]?%",
    re.IGNORECASE,
)


def opening(alternatives: str) -> str:
    """``(?=[...])`` on the first characters of a regex of alternatives joined by top-level ``|``, each
    starting with a literal character ("mrn|medical record|#"): the look-ahead of a word-led pattern."""
    firsts: set[str] = set()
    depth, in_class, escaped, starts = 0, False, False, True
    for char in alternatives:
        if starts:
            if char in "\\()[]|.?*+{^$":
                raise ValueError(f"an alternative starts with the regex character {char!r}, not a literal")
            firsts.add(char)
            starts = False
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char in "()":
            depth += 1 if char == "(" else -1
        elif char == "|" and depth == 0:
            starts = True
    return "(?=[" + "".join(re.escape(char) for char in sorted(firsts)) + "])"


@dataclass(frozen=True)
class PatternParams(DetectorParams):
    """Options of the pattern detector: ``high_recall`` also keeps weaker, context-poor candidates.

    ``times`` also reports clock times as DATE/time; off by default because HIPAA Safe Harbor lists
    the elements of dates, not times of day, and marking every "2130" costs much precision.
    """

    high_recall: bool = False
    times: bool = False
    #: the site's own formats (``[[detector_params.patterns.custom]]``, ``anonymed.detect.custom``)
    custom: tuple[Any, ...] = ()

    def __post_init__(self) -> None:
        from anonymed.detect.custom import custom_patterns

        object.__setattr__(self, "custom", custom_patterns(self.custom))


@dataclass(frozen=True)
class Scan:
    """One text being scanned: the text, its language, the options, and context helpers."""

    text: str
    lang: str
    params: PatternParams
    #: the folded word keys of the text when a shared view computed them (recognizers may skip early)
    keys: frozenset[str] | None = None

    def span(self, start: int, end: int, label: Label, subtype: str | None, score: float) -> Span:
        """A span of this detector over ``text[start:end]``."""
        return Span.of(self.text, start, end, label, source=SOURCE, score=score, subtype=subtype)

    def line_before(self, pos: int, width: int = 40) -> str:
        """Up to ``width`` lower-cased characters before ``pos`` on the same line."""
        chunk = self.text[max(0, pos - width) : pos]
        return chunk[chunk.rfind("\n") + 1 :].lower()

    def line_after(self, pos: int, width: int = 30) -> str:
        """Up to ``width`` lower-cased characters from ``pos`` on the same line."""
        chunk = self.text[pos : pos + width]
        cut = chunk.find("\n")
        return (chunk if cut < 0 else chunk[:cut]).lower()

    def words_before(self, pos: int, count: int = 2, width: int = 40) -> list[str]:
        """The last ``count`` lower-cased words before ``pos`` on the same line (nearest last)."""
        return _WORD.findall(self.line_before(pos, width))[-count:]

    def words_after(self, pos: int, count: int = 1, width: int = 30) -> list[str]:
        """The first ``count`` lower-cased words from ``pos`` on the same line."""
        return _WORD.findall(self.line_after(pos, width))[:count]

    def unit_follows(self, pos: int) -> bool:
        """Whether a measurement unit starts at ``pos`` (after at most one space)."""
        return _UNIT.match(self.text, pos) is not None


#: A recognizer takes a scan and yields spans.
Finder = Callable[[Scan], Iterable[Span]]


def any_in(words: Iterable[str], vocabulary: frozenset[str]) -> bool:
    """Whether one of ``words`` belongs to ``vocabulary``."""
    return any(word in vocabulary for word in words)


def resolve_overlaps(spans: Iterable[Span]) -> list[Span]:
    """Keep the best of overlapping candidates (higher score, then longer), sorted by position."""
    starts: list[int] = []
    kept: list[Span] = []
    for span in sorted(spans, key=lambda s: (-s.score, -(s.end - s.start), s.start)):
        index = bisect.bisect_left(starts, span.start)
        if index > 0 and kept[index - 1].end > span.start:
            continue
        if index < len(kept) and kept[index].start < span.end:
            continue
        starts.insert(index, span.start)
        kept.insert(index, span)
    return kept
