"""The detector interface: a small class that finds spans of one kind in a document."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from anonymed.document import Document, Span

if TYPE_CHECKING:
    from anonymed.detect.view import NoteView


@dataclass(frozen=True)
class DetectorParams:
    """Base of the typed, frozen parameter records of detectors (no parameters)."""


class Detector(ABC):
    """Finds PHI spans in a document; one subclass per file, registered by name in ``registry.py``.

    ``params_type`` names the frozen dataclass the constructor takes as ``params``; configuration
    files give its fields by name (``[detector_params.NAME]``).
    """

    name: ClassVar[str]
    languages: ClassVar[frozenset[str]] = frozenset({"en", "fr"})
    params_type: ClassVar[type[Any]] = DetectorParams

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
