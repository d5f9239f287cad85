"""The one document model that flows through every stage: Document, Span and Replacement, and the typed
scratch state (``StateKey``, ``DocState``) the parts that process one document share."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Generic, TypeVar, cast

from anonymed.errors import SpanError
from anonymed.labels import SUBTYPES, Label

#: a lone UTF-16 surrogate: not Unicode, so no UTF-8 file can hold it (bytes decoded with
#: ``surrogateescape``, a JSON ``\\uD800`` escape, or a string built in Python)
LONE_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def _frozen_mapping(values: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return MappingProxyType(dict(values or {}))


@dataclass(frozen=True, slots=True)
class Span:
    """A labelled stretch ``text[start:end]`` of a document, found by a detector or given as gold."""

    start: int
    end: int
    label: Label
    text: str
    source: str = "gold"
    score: float = 1.0
    subtype: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.label, Label):
            try:
                object.__setattr__(self, "label", Label(str(self.label)))
            except ValueError:
                raise SpanError(f"unknown label {self.label!r} at offsets {self.start}-{self.end}") from None
        if not 0 <= self.start < self.end:
            raise SpanError(f"invalid offsets {self.start}-{self.end} (need 0 <= start < end)")
        if len(self.text) != self.end - self.start:
            raise SpanError(
                f"span text length {len(self.text)} does not match offsets {self.start}-{self.end}"
            )
        if self.subtype is not None and self.subtype not in SUBTYPES[self.label]:
            raise SpanError(f"unknown subtype {self.subtype!r} for label {self.label.value}")
        if not 0.0 <= self.score <= 1.0:
            raise SpanError(f"score {self.score!r} outside [0, 1] at offsets {self.start}-{self.end}")

    @classmethod
    def of(
        cls,
        text: str,
        start: int,
        end: int,
        label: Label | str,
        *,
        source: str = "gold",
        score: float = 1.0,
        subtype: str | None = None,
    ) -> Span:
        """Build a span over ``text[start:end]``, checking that the offsets fall inside ``text``."""
        if not 0 <= start < end <= len(text):
            raise SpanError(f"offsets {start}-{end} outside a text of length {len(text)}")
        try:
            typed = Label(str(label))
        except ValueError:
            raise SpanError(f"unknown label {label!r} at offsets {start}-{end}") from None
        return cls(start, end, typed, text[start:end], source, score, subtype)

    @property
    def full_label(self) -> str:
        """``LABEL`` or ``LABEL/subtype``."""
        return self.label.value if self.subtype is None else f"{self.label.value}/{self.subtype}"

    def to_json(self) -> dict[str, Any]:
        """The span as the public JSON contract: start, end, label, text (plus subtype, source, score)."""
        data: dict[str, Any] = {
            "start": self.start,
            "end": self.end,
            "label": self.label.value,
            "text": self.text,
        }
        if self.subtype is not None:
            data["subtype"] = self.subtype
        data["source"] = self.source
        data["score"] = round(self.score, 4)
        return data


@dataclass(frozen=True, slots=True)
class Replacement:
    """What an operator wrote in place of one span; offsets are into the original text."""

    start: int
    end: int
    label: Label
    original: str
    surrogate: str
    operator: str

    def to_json(self, *, with_original: bool = False) -> dict[str, Any]:
        """The replacement as JSON; the original text only when explicitly asked for (it is PHI)."""
        data: dict[str, Any] = {
            "start": self.start,
            "end": self.end,
            "label": self.label.value,
            "surrogate": self.surrogate,
            "operator": self.operator,
        }
        if with_original:
            data["original"] = self.original
        return data


@dataclass(frozen=True, slots=True)
class Document:
    """One note: id, text, metadata, and what the stages attached (spans, replacements, output, report)."""

    id: str
    text: str
    metadata: Mapping[str, Any] = field(default_factory=dict)
    spans: tuple[Span, ...] = ()
    gold: tuple[Span, ...] = ()
    replacements: tuple[Replacement, ...] = ()
    output: str | None = None
    privacy: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "metadata", _frozen_mapping(self.metadata))
        object.__setattr__(self, "privacy", _frozen_mapping(self.privacy))
        for group in (self.spans, self.gold):
            for span in group:
                self._check(span)

    def _check(self, span: Span) -> None:
        if span.end > len(self.text) or self.text[span.start : span.end] != span.text:
            raise SpanError(f"document {self.id!r}: span {span.start}-{span.end} does not match the text")

    @property
    def lang(self) -> str:
        """Language code from metadata (``en`` by default)."""
        return str(self.metadata.get("lang", "en"))

    @property
    def patient_id(self) -> str | None:
        """Patient identifier from metadata, if any."""
        value = self.metadata.get("patient_id")
        return None if value is None else str(value)

    @property
    def result(self) -> str:
        """The anonymized text if a substitution stage ran, else the original text."""
        return self.text if self.output is None else self.output

    def evolve(self, **changes: Any) -> Document:
        """A copy with some fields changed (the model is immutable)."""
        return dataclasses.replace(self, **changes)

    def with_spans(self, spans: Iterable[Span]) -> Document:
        """A copy carrying ``spans`` sorted by position."""
        return self.evolve(spans=tuple(sorted(spans, key=lambda s: (s.start, -s.end))))


T = TypeVar("T")


@dataclass(frozen=True)  # no slots: ``StateKey[int]("n")`` sets ``__orig_class__``, which slots refuse
class StateKey(Generic[T]):
    """The name of one per-document value and, for mypy, its type: ``StateKey[date]("age reference")``.

    Keys are equal when their names are: an operator instance that keeps its own entry builds its key
    from its name (or its id) once per call, and finds the same entry again.
    """

    name: str


class DocState:
    """Values computed once per document and shared by the parts that process it, under typed keys."""

    __slots__ = ("_values",)

    def __init__(self) -> None:
        self._values: dict[StateKey[Any], Any] = {}

    def get(self, key: StateKey[T]) -> T | None:
        """The value under ``key``, or None."""
        return cast("T | None", self._values.get(key))

    def set(self, key: StateKey[T], value: T) -> None:
        """Keep ``value`` under ``key`` (replacing any)."""
        self._values[key] = value

    def computed(self, key: StateKey[T], build: Callable[[], T]) -> T:
        """The value under ``key``, built by ``build`` on first use."""
        if key not in self._values:
            self._values[key] = build()
        return cast(T, self._values[key])

    def __contains__(self, key: StateKey[Any]) -> bool:
        return key in self._values

    def __len__(self) -> int:
        return len(self._values)
