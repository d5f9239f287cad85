"""Shape preservation for surrogates: case patterns, digit and letter layouts, initials, guaranteed change."""

from __future__ import annotations

import re
import string
from enum import Enum

from anonymed.randomness import RandomSource

_INITIAL = re.compile(r"[^\W\d_]\.?")
_WORD = re.compile(r"[^\W\d_]+")


class Case(Enum):
    """The case pattern of a piece of text (letters only are considered)."""

    UPPER = "upper"
    LOWER = "lower"
    TITLE = "title"
    MIXED = "mixed"
    NONE = "none"


def case_pattern(text: str) -> Case:
    """``UPPER`` (``SMITH``), ``LOWER`` (``smith``), ``TITLE`` (``Smith``, ``J``), ``MIXED`` or ``NONE``."""
    words = _WORD.findall(text)
    if not words:
        return Case.NONE
    letters = "".join(words)
    if len(letters) > 1 and letters.isupper():
        return Case.UPPER
    if letters.islower():
        return Case.LOWER
    if all(w[0].isupper() and (len(w) == 1 or w[1:].islower()) for w in words):
        return Case.TITLE
    return Case.MIXED


def apply_case(text: str, pattern: Case) -> str:
    """``text`` in ``pattern``; ``TITLE`` recases only all-upper or all-lower text; ``MIXED`` keeps it."""
    if pattern is Case.UPPER:
        return text.upper()
    if pattern is Case.LOWER:
        return text.lower()
    if pattern is Case.TITLE and text.isupper():
        return _WORD.sub(lambda m: m.group(0)[0] + m.group(0)[1:].lower(), text)
    if pattern is Case.TITLE and text.islower():
        return text[:1].upper() + text[1:]
    return text


def mask(text: str) -> str:
    """The layout of ``text``: digits as ``9``, upper-case letters as ``A``, other letters as ``a``."""
    return "".join(_mask_char(ch) for ch in text)


def _mask_char(ch: str) -> str:
    if ch.isdigit():
        return "9"
    if ch.isalpha():
        return "A" if ch.isupper() else "a"
    return ch


def is_initial(token: str) -> bool:
    """Whether ``token`` is a single letter, optionally followed by a period (``J.``, ``J``)."""
    return _INITIAL.fullmatch(token) is not None


def random_char_like(ch: str, rng: RandomSource, *, avoid: str | None = None) -> str:
    """A random ASCII character of the same class as ``ch`` (digit, upper, lower); others are kept."""
    if ch.isdigit():
        pool = string.digits
    elif ch.isalpha():
        pool = string.ascii_uppercase if ch.isupper() else string.ascii_lowercase
    else:
        return ch
    if avoid is not None:
        pool = "".join(c for c in pool if c.casefold() != avoid.casefold()) or pool
    return rng.choice(pool)


def random_like(text: str, rng: RandomSource, *, keep: int = 0) -> str:
    """Every digit and letter after the first ``keep`` characters replaced by a random one of its class."""
    return text[:keep] + "".join(random_char_like(ch, rng) for ch in text[keep:])


def overlay(template: str, chars: str) -> str:
    """``chars`` written over the letters and digits of ``template``, in order (``template`` keeps the rest).

    ``chars`` must hold exactly as many characters as ``template`` has letters and digits.
    """
    if len(chars) != count_alnum(template):
        raise ValueError(f"overlay needs {count_alnum(template)} characters, got {len(chars)}")
    it = iter(chars)
    return "".join(next(it) if ch.isalnum() else ch for ch in template)


def count_alnum(text: str) -> int:
    """How many letters and digits ``text`` holds."""
    return sum(ch.isalnum() for ch in text)


def same(a: str, b: str) -> bool:
    """Whether two strings are equal ignoring case (the test every surrogate must fail)."""
    return a.casefold() == b.casefold()


def acceptable(candidate: str, original: str) -> bool:
    """A surrogate must differ from its original ignoring case, and neither may begin the other.

    The prefix rule means the spliced output never shows the original text at the span's position.
    """
    return not (same(candidate, original) or candidate.startswith(original) or original.startswith(candidate))


def force_different(candidate: str, original: str, rng: RandomSource) -> str:
    """``candidate`` if it is ``acceptable``, else a same-length shape-alike of ``original`` that surely is.

    The fallback changes the first letter or digit to another of its class; text without any letter or
    digit becomes random lower-case letters of the same length.
    """
    if acceptable(candidate, original):
        return candidate
    for i, ch in enumerate(original):
        if ch.isalnum():
            changed = random_char_like(ch, rng, avoid=ch)
            if not same(changed, ch):
                return original[:i] + changed + random_like(original[i + 1 :], rng)
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(max(1, len(original))))
