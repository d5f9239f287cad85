"""Recognizers declared as data, as Presidio's PatternRecognizer: a regular expression, the label it gives,
context words that raise its score, and a validator (a check digit) that raises or lowers it.

A validator never silently drops a match that has context: a mistyped number is still an identifier, so an
invalid check digit only lowers the score (``invalid_score``); without context, an invalid match is kept
only when ``invalid_score`` is set and the scan asks for high recall, or not at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Final

from anonymed.detect.patterns.base import Scan
from anonymed.document import Span
from anonymed.labels import Label

#: the score of a match whose check digit is right and whose context is there (Presidio's MAX_SCORE)
VALID: Final = 1.0


@dataclass(frozen=True)
class Recognizer:
    """One identifier format: where it is, what it is, what makes it more or less likely."""

    name: str
    pattern: re.Pattern[str]
    label: Label
    subtype: str | None
    #: score of a match without context (and, with a validator, with a right check digit)
    score: float
    #: words or phrases (lower case) announcing the format on the same line, within ``window`` characters
    context: tuple[str, ...] = ()
    #: score of a match with context (and a right check digit, if any)
    context_score: float | None = None
    #: the format's check (True: valid); None when the format has none
    validator: Callable[[str], bool] | None = None
    #: score of a match whose check fails (with context); None: such matches are dropped
    invalid_score: float | None = None
    #: subtype of a match whose check fails (a wrong SSN is an identifier, not an SSN); "" keeps ``subtype``
    invalid_subtype: str | None = ""
    #: keep matches only when a context word is there
    needs_context: bool = False
    #: the regex group that is the identifier (0: the whole match)
    group: int | str = 0
    languages: frozenset[str] = frozenset({"en", "fr"})
    window: int = 40
    #: a cheap pattern the note must hold for this format to be looked for (shared by several formats,
    #: searched once per note)
    requires: re.Pattern[str] | None = None
    _cue: re.Pattern[str] | None = field(init=False, repr=False, compare=False, default=None)

    def __post_init__(self) -> None:
        if self.context:
            words = "|".join(re.escape(word) for word in sorted(self.context, key=len, reverse=True))
            object.__setattr__(self, "_cue", re.compile(r"(?<![^\W_])(?:" + words + r")(?![^\W_])", re.I))

    @property
    def precondition(self) -> re.Pattern[str] | None:
        """What a note must hold for this format to be looked for: ``requires``, else, for a format that
        needs its context, one of its context words anywhere in the note."""
        return self.requires if self.requires is not None else (self._cue if self.needs_context else None)

    def has_context(self, scan: Scan, start: int) -> bool:
        """Whether a context word is on the line before ``start``."""
        return self._cue is not None and self._cue.search(scan.line_before(start, self.window)) is not None

    def judge(self, scan: Scan, match: re.Match[str]) -> tuple[float, str | None] | None:
        """The score and subtype of one match, or None when it is not kept."""
        start = match.start(self.group)
        cued = self.has_context(scan, start)
        if self.needs_context and not cued:
            return None
        if self.validator is None or self.validator(match.group(self.group)):
            score = self.context_score if cued and self.context_score is not None else self.score
            return score, self.subtype
        if self.invalid_score is None or not (cued or scan.params.high_recall):
            return None
        return self.invalid_score, self.subtype if self.invalid_subtype == "" else self.invalid_subtype

    def find(self, scan: Scan) -> Iterator[Span]:
        """The spans of this format in the scanned text."""
        if scan.lang not in self.languages:
            return
        for match in self.pattern.finditer(scan.text):
            verdict = self.judge(scan, match)
            if verdict is not None:
                start, end = match.span(self.group)
                yield scan.span(start, end, self.label, verdict[1], verdict[0])


def find_declared(recognizers: Iterable[Recognizer], scan: Scan) -> Iterator[Span]:
    """The spans of every declared recognizer of the note's language whose precondition the note meets."""
    met: dict[int, bool] = {}
    for recognizer in recognizers:
        if scan.lang not in recognizer.languages:
            continue  # before the precondition: a search of the whole note saved
        required = recognizer.precondition
        if required is not None:
            found = met.get(id(required))
            if found is None:
                found = met[id(required)] = required.search(scan.text) is not None
            if not found:
                continue
        yield from recognizer.find(scan)
