"""Layout-preserving tokenization: words (letter runs), numbers (digit runs) and the layout between them."""

from __future__ import annotations

import re
from dataclasses import dataclass

# A word is a maximal run of letters (any script, with their combining marks); a number a run of decimal
# digits (at most 18 per token). Everything else (spaces, line breaks, punctuation) is layout, kept as is.
_LETTER = r"[^\W\d_]"
_MARK = r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]"
#: written as runs of letters and runs of marks (the same words as ``L(?:L|M)*``, a third faster to split)
WORD = rf"{_LETTER}+(?:{_MARK}+{_LETTER}*)*"
WORD_RE = re.compile(WORD)
TOKEN_RE = re.compile(rf"({WORD}|\d{{1,18}})")
_SEP = "\x00"

LOWER, TITLE, UPPER = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Tokens:
    """A text cut as ``layout[0] tokens[0] layout[1] ... tokens[n-1] layout[n]``."""

    layout: list[str]
    tokens: list[str]

    def __len__(self) -> int:
        return len(self.tokens)

    def join(self, tokens: list[str]) -> str:
        """The original layout with ``tokens`` (one per original token) in place of the original tokens."""
        if len(tokens) != len(self.tokens):
            raise ValueError(f"expected {len(self.tokens)} tokens, got {len(tokens)}")
        parts: list[str] = [""] * (2 * len(tokens) + 1)
        parts[0::2] = self.layout
        parts[1::2] = tokens
        return "".join(parts)


def split(text: str) -> Tokens:
    """Cut ``text`` into layout and tokens; ``split(text).join(split(text).tokens) == text``."""
    parts = TOKEN_RE.split(text)
    return Tokens(parts[0::2], parts[1::2])


def is_number(token: str) -> bool:
    """Whether a token from ``split`` is a digit run (else it is a word)."""
    return token[:1].isdecimal()


def lower_all(tokens: list[str]) -> list[str]:
    """Every token lower-cased, with a single ``str.lower`` call (tokens never contain NUL)."""
    if not tokens:
        return []
    return _SEP.join(tokens).lower().split(_SEP)


def words(text: str) -> list[str]:
    """The lower-cased word tokens of ``text`` (numbers and layout dropped): what spaces are trained on."""
    return lower_all(WORD_RE.findall(text))


def case_pattern(token: str) -> int:
    """``UPPER`` for all-capital words of 2+ letters, ``TITLE`` for a leading capital, else ``LOWER``."""
    if len(token) > 1 and token.isupper():
        return UPPER
    return TITLE if token[:1].isupper() else LOWER


def apply_case(word: str, pattern: int) -> str:
    """``word`` (lower case) written with ``pattern``."""
    if pattern == UPPER:
        return word.upper()
    if pattern == TITLE:
        return word[:1].upper() + word[1:]
    return word


def is_stable(word: str) -> bool:
    """Whether ``word`` is one lower-case word token in every case pattern (so it can be emitted safely)."""
    if not word or word.lower() != word:
        return False
    for pattern in (LOWER, TITLE, UPPER):
        cased = apply_case(word, pattern)
        if WORD_RE.fullmatch(cased) is None or cased.lower() != word:
            return False
    return True
