"""Leak rate: the share of gold PHI items whose text survives in the anonymized note at or near its place.

For each gold item (a span of the annotated note) the question is whether its text can still be read in
the anonymized note where it was: the item's text, matched case-insensitively on whole words (its tokens in
order, any whitespace between them), must overlap the item's place in the anonymized text. The place is
exact when the replacements are known (a run in this process: every replacement shifts what follows by
the difference of lengths, and an item inside a replaced span has the whole surrogate as its place);
otherwise it comes from aligning the two texts word by word (``difflib``: the words that did not change
anchor the positions) and is widened by ``slack`` characters on each side.

A leaked item is then split by cause when the detected spans are known: **written back** when detected
spans cover every character of it (the tool found it and still wrote it out: a surrogate equal to the
value, a ``keep``, a DP draw that returned the value), else **missed** (detection missed it, wholly or in
part). A written-back item is **generic** instead when it is a name or place holding no identifying word,
only words the invariant lets survive on purpose: titles and kinds of place (EDS-pseudo annotates a French
"M." before a surname as an initial, anonymed reads it as Monsieur and keeps it; a lone "hospital"
annotated as a place stays the kind word of its surrogate). Items without any letter or digit cannot leak
and are left out (counted apart).
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from anonymed.document import Document, Replacement, Span
from anonymed.errors import ConfigError
from anonymed.substitute.invariant import identifying_words

MISSED: Final = "missed"
WRITTEN_BACK: Final = "written_back"
GENERIC: Final = "generic"
UNKNOWN: Final = "unknown"
_TOKEN: Final = re.compile(r"\S+")


@dataclass(frozen=True)
class LeakParams:
    """``slack``: characters around an aligned place (no replacements known) still counted as the place."""

    slack: int = 15

    def __post_init__(self) -> None:
        if self.slack < 0:
            raise ConfigError(f"leak slack must be >= 0 characters, got {self.slack!r}")


@dataclass(frozen=True, slots=True)
class ItemLeak:
    """One gold item: its full label, whether its text survives at its place, and why."""

    label: str
    leaked: bool
    cause: str | None


@dataclass
class LeakCounts:
    """Items of one category: how many, how many leaked, split by cause."""

    items: int = 0
    leaked: int = 0
    causes: Counter[str] = field(default_factory=Counter)

    def add(self, item: ItemLeak) -> None:
        """Count one item."""
        self.items += 1
        if item.leaked:
            self.leaked += 1
            self.causes[item.cause or UNKNOWN] += 1

    def cell(self) -> str:
        """The share leaked and its causes, "2.0% (3 / 1)" (missed / written back; "?" when unknown).

        Generic items kept by rule (titles, kinds of place) follow as "+ 2 generic".
        """
        rate = "-" if not self.items else f"{self.leaked / self.items:.1%}"
        causes = "?" if self.causes[UNKNOWN] else f"{self.causes[MISSED]} / {self.causes[WRITTEN_BACK]}"
        titles = f" + {self.causes[GENERIC]} generic" if self.causes[GENERIC] else ""
        return f"{rate} ({causes}{titles})"

    def to_json(self) -> dict[str, Any]:
        """Counts and rates (rates are None without items)."""
        rate = self.leaked / self.items if self.items else None
        return {
            "items": self.items,
            "leaked": self.leaked,
            "leak_rate": rate,
            MISSED: self.causes[MISSED],
            WRITTEN_BACK: self.causes[WRITTEN_BACK],
            GENERIC: self.causes[GENERIC],
            UNKNOWN: self.causes[UNKNOWN],
        }


@dataclass
class LeakReport:
    """Leaks over a corpus: overall, per label, per label/subtype; items without letters or digits."""

    overall: LeakCounts = field(default_factory=LeakCounts)
    by_label: dict[str, LeakCounts] = field(default_factory=dict)
    by_full_label: dict[str, LeakCounts] = field(default_factory=dict)
    skipped: int = 0
    notes: int = 0

    def add(self, item: ItemLeak) -> None:
        """Count one item in every grouping it belongs to."""
        self.overall.add(item)
        self.by_label.setdefault(item.label.split("/")[0], LeakCounts()).add(item)
        self.by_full_label.setdefault(item.label, LeakCounts()).add(item)

    def categories(self) -> list[str]:
        """``overall``, then every label and label/subtype seen, sorted."""
        return ["overall", *sorted({*self.by_label, *(k for k in self.by_full_label if "/" in k)})]

    def category(self, key: str) -> LeakCounts | None:
        """``overall``, a whole label (``DATE``) or a label and subtype (``DATE/birth``)."""
        if key == "overall":
            return self.overall
        return self.by_full_label.get(key) if "/" in key else self.by_label.get(key)

    def to_json(self) -> dict[str, Any]:
        """The report as JSON (counts only, never a value)."""
        return {
            "notes": self.notes,
            "overall": self.overall.to_json(),
            "by_label": {k: v.to_json() for k, v in sorted(self.by_label.items())},
            "by_full_label": {k: v.to_json() for k, v in sorted(self.by_full_label.items())},
            "skipped_items": self.skipped,
        }


def _pattern(text: str) -> re.Pattern[str] | None:
    tokens = _TOKEN.findall(text)
    if not any(ch.isalnum() for ch in text):
        return None
    body = r"\s+".join(re.escape(t) for t in tokens)
    return re.compile(rf"(?<!\w){body}(?!\w)", re.IGNORECASE)


Position = Callable[[int, bool], int]


def map_by_replacements(replacements: Sequence[Replacement]) -> Position:
    """Original position (and whether it ends an item) -> output position, given the replacements."""
    ordered = sorted(replacements, key=lambda r: r.start)

    def position(p: int, end: bool) -> int:
        shift = 0
        for rep in ordered:
            if rep.end <= p:
                shift += len(rep.surrogate) - (rep.end - rep.start)
            elif rep.start < p:  # inside a replacement: its surrogate's start, or its end for an item's end
                return rep.start + shift + (len(rep.surrogate) if end else 0)
            else:
                break
        return p + shift

    return position


def map_by_alignment(original: str, output: str) -> Position:
    """Original position -> output position, by word alignment (the unchanged words anchor it)."""
    left = [(m.start(), m.end()) for m in _TOKEN.finditer(original)]
    right = [(m.start(), m.end()) for m in _TOKEN.finditer(output)]
    matcher = difflib.SequenceMatcher(
        None, [original[a:b] for a, b in left], [output[a:b] for a, b in right], autojunk=False
    )
    anchors: list[tuple[int, int]] = [(0, 0)]  # (original char, output char) of unchanged words
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            (a, _), (c, _) = left[block.a + k], right[block.b + k]
            anchors.append((a, c))
    anchors.append((len(original), len(output)))
    starts = [a for a, _ in anchors]

    def position(p: int, end: bool) -> int:
        i = max(bisect.bisect_right(starts, p) - 1, 0)
        a, c = anchors[i]
        return c + (p - a) if i + 1 < len(anchors) and p < anchors[i + 1][0] else anchors[i][1]

    return position


def _covered(item: Span, spans: Sequence[Span]) -> bool:
    """Whether detected spans cover every character of the item."""
    cursor = item.start
    for span in sorted(spans, key=lambda s: s.start):
        if span.start > cursor:
            break
        cursor = max(cursor, span.end)
        if cursor >= item.end:
            return True
    return cursor >= item.end


def _generic(item: Span) -> bool:
    """A name or place without a digit or an identifying word: what the invariant keeps on purpose."""
    if item.label.value not in ("NAME", "LOCATION") or any(ch.isdigit() for ch in item.text):
        return False
    return not identifying_words(item.text)


def note_leaks(
    doc: Document,
    output: str,
    *,
    detected: Sequence[Span] | None = None,
    replacements: Sequence[Replacement] | None = None,
    params: LeakParams | None = None,
) -> list[ItemLeak | None]:
    """For each gold item of ``doc``: whether it survives in ``output`` and why (None: no letter or digit)."""
    slack = 0 if replacements is not None else (params or LeakParams()).slack
    if replacements is not None:
        position = map_by_replacements(replacements)
    else:
        position = map_by_alignment(doc.text, output)
    found: list[ItemLeak | None] = []
    for item in doc.gold:
        pattern = _pattern(item.text)
        if pattern is None:
            found.append(None)
            continue
        start, end = position(item.start, False), position(item.end, True)
        low, high = max(0, min(start, end) - slack), max(start, end) + slack
        leaked = any(m.start() < high and m.end() > low for m in pattern.finditer(output))
        cause = None
        if leaked and detected is None:
            cause = UNKNOWN
        elif leaked and not _covered(item, detected or ()):
            cause = MISSED
        elif leaked:
            cause = GENERIC if _generic(item) else WRITTEN_BACK
        found.append(ItemLeak(item.full_label, leaked, cause))
    return found


@dataclass(frozen=True)
class Anonymized:
    """One note's anonymized text, with what is known of how it was made (spans, replacements)."""

    doc: Document
    output: str
    detected: Sequence[Span] | None = None
    replacements: Sequence[Replacement] | None = None


def evaluate_leaks(notes: Iterable[Anonymized], params: LeakParams | None = None) -> LeakReport:
    """The leak report of a corpus of anonymized notes against their gold items."""
    report = LeakReport()
    for note in notes:
        report.notes += 1
        for item in note_leaks(
            note.doc, note.output, detected=note.detected, replacements=note.replacements, params=params
        ):
            if item is None:
                report.skipped += 1
            else:
                report.add(item)
    return report


def from_run(gold: Document, done: Document) -> Anonymized:
    """A note anonymized in this process (``done`` carries its spans and replacements)."""
    return Anonymized(gold, done.result, done.spans, done.replacements)
