"""The known identifiers of a record as the shared contract carries them (``doc.metadata["known"]``): the
readers and the FHIR path produce them, the ``known`` detector consumes them.

Each is ``{"kind": "LABEL/subtype", "value": "..."}``. They are secrets: errors name the position of a
bad item and what is wrong with it, never its value.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from anonymed.errors import ConfigError, SpanError
from anonymed.labels import Label, parse_label

if TYPE_CHECKING:
    from anonymed.document import Span

#: the most known identifiers a document may carry, and the longest value
MAX_ITEMS: Final = 1_000
MAX_VALUE_CHARS: Final = 200


@dataclass(frozen=True)
class Known:
    """One identifier the record holds: its label and subtype, and the value as written in the record."""

    label: Label
    subtype: str | None
    value: str

    @property
    def kind(self) -> str:
        """``LABEL`` or ``LABEL/subtype``."""
        return self.label.value if self.subtype is None else f"{self.label.value}/{self.subtype}"

    def to_json(self) -> dict[str, str]:
        """The contract's form."""
        return {"kind": self.kind, "value": self.value}

    def __repr__(self) -> str:  # the value is a secret: never shown by a repr in a log or a traceback
        return f"Known({self.kind}, {len(self.value)} characters)"


def parse_kind(kind: Any, where: str) -> tuple[Label, str | None]:
    """The label and subtype of a ``kind`` string; ``ConfigError`` naming ``where``."""
    if not isinstance(kind, str):
        raise ConfigError(f"{where}: kind must be a string like 'NAME/patient'")
    try:
        return parse_label(kind.strip())
    except SpanError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def known_item(item: Any, where: str) -> Known | None:
    """One contract item as ``Known`` (None for an empty value); ``ConfigError`` naming ``where``."""
    if isinstance(item, Known):
        return item
    if not isinstance(item, Mapping) or set(item) - {"kind", "value"} or "kind" not in item:
        raise ConfigError(f"{where}: expected an object with 'kind' and 'value'")
    label, subtype = parse_kind(item["kind"], where)
    value = item.get("value")
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise ConfigError(f"{where}: value must be a string, got a {type(value).__name__}")
    value = value.strip()
    if len(value) > MAX_VALUE_CHARS:
        raise ConfigError(f"{where}: value has {len(value)} characters; at most {MAX_VALUE_CHARS}")
    return Known(label, subtype, value) if value else None


def known_items(items: Iterable[Any], *, owner: str = "known identifiers") -> tuple[Known, ...]:
    """The contract's list as ``Known`` items, each (kind, value) once; bounded in number and length."""
    if isinstance(items, str | bytes | Mapping):
        raise ConfigError(f"{owner}: expected a list of {{'kind', 'value'}} objects")
    found: dict[tuple[str, str], Known] = {}
    for index, item in enumerate(items):
        if index >= MAX_ITEMS:
            raise ConfigError(f"{owner}: more than {MAX_ITEMS} items")
        known = known_item(item, f"{owner} item {index}")
        if known is not None:
            found.setdefault((known.kind, known.value), known)
    return tuple(found.values())


def document_known(metadata: Mapping[str, Any]) -> Iterator[Known]:
    """The known identifiers in a document's metadata (none when absent)."""
    items = metadata.get("known")
    if items:
        yield from known_items(items)


def is_initials(value: str) -> bool:
    """Whether a name is initials only ("JS", "J. S.", "J"): no word of three letters or more that is not a
    capitalised abbreviation of three letters or less."""
    words = "".join(c if c.isalpha() else " " for c in value).split()
    return all(len(w) <= 2 or (w.isupper() and len(w) <= 3) for w in words)


def harvest_names(spans: Iterable[Span], *, min_score: float) -> Iterator[Known]:
    """The names among ``spans`` found with a score of ``min_score`` or more, as known identifiers of their
    label and subtype (initials alone are left out: as known names they would match every such
    abbreviation)."""
    for span in spans:
        name = span.text.strip()
        if span.label is not Label.NAME or span.score < min_score or len(name) > MAX_VALUE_CHARS:
            continue
        if not is_initials(name):  # also an empty name
            yield Known(span.label, span.subtype, name)
