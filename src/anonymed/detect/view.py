"""One document as the detectors see it: its tokens, computed once, and the spans each detector found.

The pipeline builds one ``NoteView`` per document and runs every detector through it. A detector that
needs words or tokens reads them from the view (computed on first use, then shared); the tagger takes
the spans of its hint detectors from the view, so a detector the pipeline already ran is not run again.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar

from anonymed.document import LONE_SURROGATE, DocState, Document, Span, StateKey

if TYPE_CHECKING:
    from anonymed.detect.base import Detector
    from anonymed.detect.tokens import TaggerToken, Token

T = TypeVar("T")


class NoteView:
    """A document with its shared token lists and the spans found so far, keyed by detector."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self._found: dict[Hashable, list[Span]] = {}
        self._shared = DocState()

    @property
    def text(self) -> str:
        """The document's text."""
        return self.doc.text

    @property
    def lang(self) -> str:
        """The document's language."""
        return self.doc.lang

    @cached_property
    def words(self) -> list[Token]:
        """Word tokens with apostrophes and elisions kept (the lexicon recognizers' unit)."""
        from anonymed.detect.tokens import tokenize

        return tokenize(self.text)

    @cached_property
    def tokens(self) -> list[TaggerToken]:
        """Maximal alphanumeric runs (the tagger's and the evaluation's unit); lone surrogates in the
        separators are read as U+FFFD, which CRFsuite accepts."""
        from anonymed.detect.tokens import alnum_tokens

        text = self.text
        return alnum_tokens(LONE_SURROGATE.sub("\ufffd", text) if LONE_SURROGATE.search(text) else text)

    @cached_property
    def word_keys(self) -> frozenset[str]:
        """The keys (folded forms) of the document's words."""
        return frozenset(word.key for word in self.words)

    @cached_property
    def upper_ratio(self) -> float:
        """Share of all-capital words among words of two or more letters (near 1.0 for notes in capitals)."""
        from anonymed.detect.tokens import upper_ratio

        return upper_ratio(self.words)

    def shared(self, key: StateKey[T], build: Callable[[], T]) -> T:
        """A per-document value computed once by ``build`` and shared by every detector asking for ``key``."""
        return self._shared.computed(key, build)

    def spans_of(self, detector: Detector[Any]) -> list[Span]:
        """The spans ``detector`` finds here, computed once per detector name and parameters."""
        key = _key(detector)
        if key is None:
            return detector.detect_view(self)
        found = self._found.get(key)
        if found is None:
            found = self._found[key] = detector.detect_view(self)
        return found


def _key(detector: Detector[Any]) -> Hashable | None:
    """(name, parameters) of a detector, or None when its parameters are not hashable."""
    key = (type(detector).__qualname__, detector.name, getattr(detector, "params", None))
    try:
        hash(key)
    except TypeError:
        return None
    return key
