"""Allow and deny lists: terms never flagged and terms always flagged, per label or for every label.

Files follow the shared contract: CSV (UTF-8) with the header ``term,label,match,case``, or a plain
``.txt`` file (one term per line, ``#`` comments) meaning every label, ``word``, ``insensitive``. A term is
found as whole words among the note's tokens ("Lee" is not found in "Leeds"); ``insensitive`` ignores
case and accents; a trailing possessive ``'s`` belongs to the occurrence.

The rules (``apply_lists``; docs/site-configuration.md):

* allow, ``word``: a detected span lying within an occurrence of the term (words separated by any spaces
  or hyphens) is dropped; ``exact``: a span is dropped only when it is exactly an occurrence written as
  the term is (same separators). A span that merely contains the term and more ("Dr Parkinson" when
  "Parkinson" is allowed) stays whole: it is never trimmed.
* deny: every occurrence is flagged with the entry's label (``word``: any spaces or hyphens between the
  words; ``exact``: the separators as written); a term inside a longer word is not.
* deny wins over allow (a denied occurrence is never dropped), and the record's own known identifiers
  (source ``known``) are never dropped by an allow list.

Terms are never put in error messages (a deny list may hold names): files and line numbers only.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Final

from anonymed.detect.phrases import Match, PhraseIndex, phrase_words
from anonymed.detect.tokens import Token
from anonymed.document import Span
from anonymed.errors import ConfigError, SpanError
from anonymed.labels import Label, parse_label

MATCHES: Final = ("word", "exact")
CASES: Final = ("insensitive", "sensitive")
#: the longest term (characters) and the most words a term may have
MAX_TERM_CHARS: Final = 200
MAX_TERM_WORDS: Final = 20
CSV_COLUMNS: Final = ("term", "label", "match", "case")
#: spans of these sources are never dropped by an allow list
PROTECTED_SOURCES: Final = frozenset({"known", "deny"})
DENY_SOURCE: Final = "deny"


@dataclass(frozen=True)
class ListEntry:
    """One allowed or denied term: its label (None: every label), how it matches, whether case matters."""

    term: str
    label: Label | None = None
    subtype: str | None = None
    match: str = "word"
    case: str = "insensitive"

    def __post_init__(self) -> None:
        if not isinstance(self.term, str) or not self.term.strip():
            raise ConfigError("a list term must be a non-empty string")
        if len(self.term) > MAX_TERM_CHARS:
            raise ConfigError(f"a list term has {len(self.term)} characters; at most {MAX_TERM_CHARS}")
        words = len(phrase_words(self.term))
        if not 0 < words <= MAX_TERM_WORDS:
            raise ConfigError(f"a list term must hold 1 to {MAX_TERM_WORDS} words, not {words}")
        if self.match not in MATCHES:
            raise ConfigError(f"list match must be one of {MATCHES}, got {self.match!r}")
        if self.case not in CASES:
            raise ConfigError(f"list case must be one of {CASES}, got {self.case!r}")
        if self.label is None and self.subtype is not None:
            raise ConfigError("a list entry with a subtype needs a label")
        if self.label is not None:
            try:
                label, subtype = parse_label(f"{self.label}/{self.subtype or ''}")
            except SpanError as exc:
                raise ConfigError(str(exc)) from None
            object.__setattr__(self, "label", label)
            object.__setattr__(self, "subtype", subtype)

    @classmethod
    def of(cls, term: str, label: str = "", match: str = "", case: str = "") -> ListEntry:
        """An entry from the contract's text fields (empty: the defaults; ``LABEL`` or ``LABEL/sub``)."""
        head, _, sub = (label or "").strip().partition("/")
        if head and head.upper() not in Label.__members__:
            raise ConfigError(f"unknown list label {head!r}; expected one of {[m.value for m in Label]}")
        return cls(
            term,
            Label(head.upper()) if head else None,
            sub.strip().lower() or None,
            (match or "word").strip().lower(),
            (case or "insensitive").strip().lower(),
        )

    def applies_to(self, span: Span) -> bool:
        """Whether this entry concerns spans of ``span``'s label (and subtype)."""
        if self.label is None:
            return True
        return span.label is self.label and (self.subtype is None or span.subtype == self.subtype)

    def to_json(self) -> dict[str, str]:
        """The entry as the contract's fields."""
        label = "" if self.label is None else self.label.value + (f"/{self.subtype}" if self.subtype else "")
        return {"term": self.term, "label": label, "match": self.match, "case": self.case}


def _index_of(entries: Iterable[ListEntry]) -> tuple[PhraseIndex[ListEntry], PhraseIndex[ListEntry]]:
    """The entries indexed for case-and-accent-folded and for case-sensitive matching."""
    folded: PhraseIndex[ListEntry] = PhraseIndex("fold")
    sensitive: PhraseIndex[ListEntry] = PhraseIndex("exact")
    for entry in entries:
        target = folded if entry.case == "insensitive" else sensitive
        target.add(entry.term, entry, exact_gaps=entry.match == "exact")
    return folded, sensitive


@dataclass(frozen=True, repr=False)
class TermLists:
    """The allow and deny entries of a run; deny entries need a label."""

    allow: tuple[ListEntry, ...] = ()
    deny: tuple[ListEntry, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "allow", tuple(self.allow))
        object.__setattr__(self, "deny", tuple(self.deny))
        for number, entry in enumerate(self.deny, start=1):
            if entry.label is None:
                raise ConfigError(f"deny entry {number} has no label: deny entries need the label to flag")

    def __bool__(self) -> bool:
        return bool(self.allow or self.deny)

    def __repr__(self) -> str:  # a deny list may hold names: counts and a digest only
        return f"TermLists({len(self.allow)} allowed, {len(self.deny)} denied, {self.digest})"

    @cached_property
    def digest(self) -> str:
        """A digest of the entries (run fingerprints change when a list does)."""
        text = json.dumps([[e.to_json() for e in self.allow], [e.to_json() for e in self.deny]])
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]

    def __add__(self, other: TermLists) -> TermLists:
        return TermLists(self.allow + other.allow, self.deny + other.deny)

    @cached_property
    def allow_index(self) -> tuple[PhraseIndex[ListEntry], PhraseIndex[ListEntry]]:
        """The allowed terms, indexed (built on first use)."""
        return _index_of(self.allow)

    @cached_property
    def deny_index(self) -> tuple[PhraseIndex[ListEntry], PhraseIndex[ListEntry]]:
        """The denied terms, indexed (built on first use)."""
        return _index_of(self.deny)


def occurrences(
    text: str, words: Sequence[Token], indexes: Iterable[PhraseIndex[ListEntry]]
) -> Iterator[tuple[Match[ListEntry], int]]:
    """Each occurrence of an entry, with the end of its last token (a possessive ``'s`` included)."""
    for index in indexes:
        for found in index.find(text, words):
            yield found, words[found.last].end


def _allowed(span: Span, found: Match[ListEntry], token_end: int) -> bool:
    entry = found.payload
    if not entry.applies_to(span):
        return False
    if entry.match == "exact":
        return span.start == found.start and span.end in (found.end, token_end)
    return found.start <= span.start and span.end <= token_end


def drop_allowed(text: str, words: Sequence[Token], spans: Iterable[Span], lists: TermLists) -> list[Span]:
    """``spans`` without those an allow entry covers (the module's rules); known and denied spans stay."""
    spans = list(spans)
    if not lists.allow or not spans:
        return spans
    found = list(occurrences(text, words, lists.allow_index))
    if not found:
        return spans
    return [
        span
        for span in spans
        if span.source in PROTECTED_SOURCES
        or not any(_allowed(span, match, end) for match, end in found if match.start < span.end)
    ]


def denied_spans(text: str, words: Sequence[Token], lists: TermLists) -> list[Span]:
    """A span for each occurrence of a denied term, with the entry's label (source ``deny``, score 1)."""
    if not lists.deny:
        return []
    spans = []
    for found, _ in occurrences(text, words, lists.deny_index):
        entry = found.payload
        assert entry.label is not None  # checked by TermLists
        spans.append(
            Span.of(text, found.start, found.end, entry.label, source=DENY_SOURCE, subtype=entry.subtype)
        )
    return spans


def apply_lists(text: str, words: Sequence[Token], spans: Iterable[Span], lists: TermLists) -> list[Span]:
    """Detected spans with allowed ones dropped, plus the denied terms' spans (to be merged)."""
    return [*drop_allowed(text, words, spans, lists), *denied_spans(text, words, lists)]


def _where(path: Path, line: int) -> str:
    return f"list {path.name!r} line {line}"


def _csv_entries(path: Path, content: str) -> Iterator[ListEntry]:
    reader = csv.DictReader(io.StringIO(content))
    columns = [name.strip().lower() for name in reader.fieldnames or ()]
    if "term" not in columns or set(columns) - set(CSV_COLUMNS):
        raise ConfigError(
            f"list {path.name!r}: the header must be {','.join(CSV_COLUMNS)} (term required), got {columns}"
        )
    reader.fieldnames = columns
    for row in reader:
        line = reader.line_num
        if None in row:
            raise ConfigError(f"{_where(path, line)}: more cells than the header has columns")
        if not (row.get("term") or "").strip():
            continue
        try:
            yield ListEntry.of(
                row["term"].strip(), row.get("label") or "", row.get("match") or "", row.get("case") or ""
            )
        except ConfigError as exc:
            raise ConfigError(f"{_where(path, line)}: {exc}") from None


def _checked(path: Path, entries: Iterator[ListEntry], deny: bool) -> Iterator[ListEntry]:
    for number, entry in enumerate(entries, start=1):
        if deny and entry.label is None:
            raise ConfigError(
                f"list {path.name!r} entry {number}: deny entries need a label (a CSV with a label column)"
            )
        yield entry


def _txt_entries(path: Path, content: str) -> Iterator[ListEntry]:
    for line, raw in enumerate(content.splitlines(), start=1):
        term = raw.strip()
        if not term or term.startswith("#"):
            continue
        try:
            yield ListEntry(term)
        except ConfigError as exc:
            raise ConfigError(f"{_where(path, line)}: {exc}") from None


def read_list(path: Path | str, *, deny: bool = False) -> tuple[ListEntry, ...]:
    """The entries of an allow (or, with ``deny``, a deny) list file: ``.csv`` with the contract's header,
    else plain text."""
    path = Path(path)
    try:
        content = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not valid UTF-8"
        raise ConfigError(f"cannot read list {str(path)!r}: {reason}") from None
    try:
        reader = _csv_entries if path.suffix.lower() == ".csv" else _txt_entries
        return tuple(_checked(path, reader(path, content), deny))
    except csv.Error as exc:
        raise ConfigError(f"list {path.name!r}: malformed CSV ({exc})") from None


def read_lists(allow: Iterable[Path | str] = (), deny: Iterable[Path | str] = ()) -> TermLists:
    """The allow and deny entries of several files."""
    return TermLists(
        tuple(e for path in allow for e in read_list(path)),
        tuple(e for path in deny for e in read_list(path, deny=True)),
    )
