"""The detector interface: a small class that finds spans of one kind in a document."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from anonymed.document import Document, Span


class Detector(ABC):
    """Finds PHI spans in a document; one subclass per file, registered by name in ``registry.py``."""

    name: ClassVar[str]
    languages: ClassVar[frozenset[str]] = frozenset({"en", "fr"})

    def supports(self, lang: str) -> bool:
        """Whether this detector has resources for ``lang``."""
        return lang in self.languages

    @abstractmethod
    def detect(self, doc: Document) -> list[Span]:
        """Spans found in ``doc.text``, with ``source`` set to this detector's name."""
