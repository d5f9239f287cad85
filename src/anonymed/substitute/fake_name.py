"""Name layouts: which words of a name span are first names, last names, initials or titles to keep."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from enum import Enum

from anonymed.substitute.shape import Case, case_pattern, is_initial

_PIECE = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*|\s+|.", re.S)

#: courtesy and academic titles, kept as they are (they name no one)
TITLES = frozenset(
    {"dr", "mr", "mrs", "ms", "miss", "mx", "prof", "pr", "sir", "dame", "mme", "mlle", "mmes", "mlles", "mm",
     "messrs", "docteur", "professeur", "madame", "monsieur", "mademoiselle", "jr", "sr", "ii", "iii", "md",
     "phd"}
)  # fmt: skip
#: titles written as an abbreviation that reads as an initial, per language ("M. Dupont" is Monsieur Dupont)
INITIAL_TITLES = {"fr": frozenset({"M", "MM"})}
#: lower-case name particles, kept as they are
PARTICLES = frozenset(
    {"de", "du", "des", "la", "le", "van", "von", "der", "den", "da", "di", "del", "della", "dos"}
)


class Role(Enum):
    """What a piece of a name span is and how it is replaced."""

    FIRST = "first"
    LAST = "last"
    INITIAL = "initial"
    KEEP = "keep"
    RANDOM = "random"


@dataclass(frozen=True)
class Piece:
    """One piece of a name span: its offset in the span, its text and its role."""

    offset: int
    text: str
    role: Role


def name_layout(text: str, first_names: Collection[str], lang: str = "en") -> list[Piece]:
    """Split a name span into pieces with roles; ``first_names`` (case-folded) decides lone words.

    In French a leading "M" or "MM" followed by another name word is a title (Monsieur), kept.
    """
    raw = [(m.start(), m.group(0)) for m in _PIECE.finditer(text)]
    roles = [_fixed_role(t, len(raw)) for _, t in raw]
    words = [i for i, (_, t) in enumerate(raw) if t[0].isalnum()]
    if len(words) > 1 and raw[words[0]][1] in INITIAL_TITLES.get(lang, ()):
        roles[words[0]] = Role.KEEP
    names = [i for i, r in enumerate(roles) if r is None]
    comma = next((i for i, (_, t) in enumerate(raw) if t == ","), None)
    if comma is not None and any(i < comma for i in names) and any(i > comma for i in names):
        for i in names:
            roles[i] = Role.LAST if i < comma else Role.FIRST
    else:
        _positional_roles(raw, roles, names, first_names)
    return [Piece(o, t, r or Role.KEEP) for (o, t), r in zip(raw, roles, strict=True)]


def _fixed_role(piece: str, count: int) -> Role | None:
    if piece.isspace() or not piece[0].isalnum():
        return Role.KEEP
    if not piece[0].isalpha():
        return Role.RANDOM
    folded = piece.casefold()
    if folded in TITLES or (count > 1 and piece.islower() and folded in PARTICLES):
        return Role.KEEP
    if is_initial(piece):
        return Role.INITIAL
    return None


def _groups(raw: list[tuple[int, str]], names: list[int]) -> list[list[int]]:
    """Name words joined by anything but whitespace or commas (``Jean-Pierre``) form one group."""
    groups: list[list[int]] = []
    previous = -1
    for i in names:
        between = "".join(t for _, t in raw[previous + 1 : i])
        if groups and not any(ch.isspace() or ch == "," for ch in between):
            groups[-1].append(i)
        else:
            groups.append([i])
        previous = i
    return groups


def _positional_roles(
    raw: list[tuple[int, str]], roles: list[Role | None], names: list[int], first_names: Collection[str]
) -> None:
    groups = _groups(raw, names)
    if len(groups) == 1:
        known = all(raw[i][1].casefold() in first_names for i in groups[0])
        for i in groups[0]:
            roles[i] = Role.FIRST if known else Role.LAST
        return
    upper = [all(case_pattern(raw[i][1]) is Case.UPPER for i in g) for g in groups]
    mixed = any(upper) and not all(upper)  # once, not per group: a run of 10,000 name words was quadratic
    for g, is_upper in zip(groups, upper, strict=True):
        if mixed:
            role = Role.LAST if is_upper else Role.FIRST
        else:
            role = Role.LAST if g is groups[-1] else Role.FIRST
        for i in g:
            roles[i] = role


def render_name(pieces: list[Piece], draw: Callable[[Piece], str]) -> str:
    """The name with every first, last, initial and random piece replaced by ``draw(piece)``."""
    return "".join(p.text if p.role is Role.KEEP else draw(p) for p in pieces)
