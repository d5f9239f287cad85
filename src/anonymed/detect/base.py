"""The detector interface: a small class that finds spans of one kind in a document."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar, cast

from anonymed.document import Document, Span

if TYPE_CHECKING:
    from anonymed.detect.view import NoteView


@dataclass(frozen=True)
class DetectorParams:
    """Base of the typed, frozen parameter records of detectors (as it is: a detector without options)."""


#: the parameter record type of a detector class
P = TypeVar("P", bound=DetectorParams)


class Detector(ABC, Generic[P]):
    """Finds PHI spans in a document; one subclass per file, registered by name in ``registry.py``.

    One constructor shape: ``Detector(params)``, where ``params`` is an instance of ``params_type`` (a
    frozen dataclass deriving from ``DetectorParams``; configuration files give its fields by name,
    ``[detector_params.NAME]``) and ``None`` means ``params_type()`` (which raises ``ConfigError`` naming an
    option that has no default, like a plug-in's ``model``). Generic in that record:
    ``class PatternDetector(Detector[PatternParams])`` gives ``self.params`` its type. Subclasses that
    prepare more override ``__init__`` with the same signature and call ``super().__init__(params)``.
    """

    name: ClassVar[str]
    languages: ClassVar[frozenset[str]] = frozenset({"en", "fr"})
    params_type: ClassVar[type[DetectorParams]] = DetectorParams

    def __init__(self, params: P | None = None) -> None:
        self.params: P = params if params is not None else cast(P, self.params_type())

    def supports(self, lang: str) -> bool:
        """Whether this detector has resources for ``lang``."""
        return lang in self.languages

    @abstractmethod
    def detect(self, doc: Document) -> list[Span]:
        """Spans found in ``doc.text``, with ``source`` set to this detector's name."""

    def detect_view(self, view: NoteView) -> list[Span]:
        """Spans found in ``view.doc``; detectors that use the view's shared tokens or the spans of
        other detectors override this (and make ``detect`` build a view of its own)."""
        return self.detect(view.doc)
