"""Tokens for evaluation: maximal alphanumeric runs, which spans touch them, and what spans cover.

The tokens are the tagger's (``detect.tokens.TOKEN_RE``, one definition), so that a token the tagger
labels is a token the evaluation scores.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass

from anonymed.detect.tokens import TOKEN_RE as TOKEN_RE  # the evaluation's token (re-exported)
from anonymed.document import Span

Offsets = tuple[int, int]


def tokenize(text: str, start: int = 0, end: int | None = None) -> list[Offsets]:
    """The ``(start, end)`` offsets of the tokens of ``text[start:end]``, clipped to that window."""
    stop = len(text) if end is None else end
    return [match.span() for match in TOKEN_RE.finditer(text, start, stop)]


@dataclass(frozen=True, slots=True)
class TokenIndex:
    """The tokens of one text, sorted, with a fast lookup of the tokens a span touches."""

    starts: tuple[int, ...]
    ends: tuple[int, ...]

    @classmethod
    def of(cls, text: str) -> TokenIndex:
        """Index the tokens of ``text``."""
        offsets = tokenize(text)
        return cls(tuple(s for s, _ in offsets), tuple(e for _, e in offsets))

    def __len__(self) -> int:
        return len(self.starts)

    def touched(self, span: Span) -> range:
        """Indices of the tokens sharing at least one character with ``span``."""
        return range(bisect_right(self.ends, span.start), bisect_left(self.starts, span.end))

    def positives(self, spans: Iterable[Span]) -> set[int]:
        """Indices of the tokens touched by at least one of ``spans``."""
        found: set[int] = set()
        for span in spans:
            found.update(self.touched(span))
        return found


def coverage(length: int, spans: Iterable[Span]) -> bytearray:
    """A mask of ``length`` bytes: 1 where some span covers the character, 0 elsewhere."""
    mask = bytearray(length)
    for span in spans:
        mask[span.start : span.end] = b"\x01" * (span.end - span.start)
    return mask


def fully_covered(mask: bytearray, tokens: Iterable[Offsets]) -> bool:
    """Whether the mask covers every character of every token."""
    return all(mask.find(0, start, end) == -1 for start, end in tokens)
