"""The obfuscation methods the service may offer beyond detect-and-replace, loaded once if present."""

from __future__ import annotations

import importlib
import logging
import threading
from pathlib import Path
from typing import Any

from anonymed.document import Document
from anonymed.errors import AnonymedError, ConfigError
from anonymed.randomness import RandomSource

log = logging.getLogger("anonymed.service")


class MethodUnavailable(AnonymedError):
    """The requested method is not installed or has no resource loaded (HTTP 501)."""


class WordMethod:
    """Word substitution over one embedding space, loaded once; one obfuscator per degree N."""

    def __init__(self, space_path: Path | None = None) -> None:
        self.space_path = space_path
        self.space: Any = None
        self.reason: str | None = "word substitution has not been loaded"
        self._obfuscators: dict[str, Any] = {}
        self._lock = threading.Lock()

    @property
    def available(self) -> bool:
        """Whether a space is loaded."""
        return self.space is not None

    def load(self) -> None:
        """Import the word substitution module and load the space; remember why not on failure."""
        try:
            spaces = importlib.import_module("anonymed.obfuscate.spaces")
            importlib.import_module("anonymed.obfuscate.words")
        except ImportError as exc:
            log.warning("word substitution unavailable: %s", type(exc).__name__)
            self.reason = "word substitution is not installed (install anonymed[embed])"
            return
        try:
            path = self.space_path
            self.space = spaces.default_space() if path is None else spaces.cached_space(str(path))
        except AnonymedError as exc:
            log.warning("word substitution unavailable: %s", exc)
            self.reason = "word substitution needs an embedding space and none could be loaded"
            return
        self.reason = None
        self.obfuscator(5).unseen()

    def obfuscator(self, n: int | str) -> Any:
        """The obfuscator for degree ``n`` (built once, shared between requests)."""
        if self.space is None:
            raise MethodUnavailable(self.reason or "word substitution is unavailable")
        words = importlib.import_module("anonymed.obfuscate.words")
        degree = words.Degree.parse(n)
        if degree.high > self.space.n_max:
            raise ConfigError(
                f"degree of obfuscation {degree} exceeds this space's maximum {self.space.n_max}"
            )
        with self._lock:
            obfuscator = self._obfuscators.get(str(degree))
            if obfuscator is None:
                obfuscator = words.WordObfuscator(self.space, degree)
                obfuscator.unseen()
                self._obfuscators[str(degree)] = obfuscator
        return obfuscator

    def apply(self, doc: Document, n: int | str, rng: RandomSource) -> Document:
        """The document with every word of ``doc.result`` replaced; counts under ``privacy['words']``."""
        obfuscator = self.obfuscator(n)
        result = obfuscator.obfuscate(doc.result, rng)
        report = {
            "method": "word_substitution",
            "n": str(obfuscator.degree),
            "tokens": result.tokens,
            "unseen": result.unseen,
            "numbers": result.numbers,
        }
        return doc.evolve(output=result.text, privacy={**doc.privacy, "words": report})


class SentenceMethod:
    """Sentence substitution over one replacement bank, loaded once; offered when the service names a bank."""

    def __init__(self, bank_path: Path | None = None) -> None:
        self.bank_path = bank_path
        self.bank: Any = None
        self.reason: str | None = (
            "sentence substitution needs a bank (start the service with --sentence-bank)"
        )
        self._obfuscators: dict[int, Any] = {}
        self._lock = threading.Lock()

    @property
    def available(self) -> bool:
        """Whether a bank is loaded."""
        return self.bank is not None

    def load(self) -> None:
        """Import the sentence substitution module and load the bank; remember why not on failure."""
        if self.bank_path is None:
            return
        try:
            banks = importlib.import_module("anonymed.obfuscate.banks")
            importlib.import_module("anonymed.obfuscate.sentences")
        except ImportError as exc:
            log.warning("sentence substitution unavailable: %s", type(exc).__name__)
            self.reason = "sentence substitution is not installed (install anonymed[embed])"
            return
        try:
            self.bank = banks.load_bank(self.bank_path)
        except AnonymedError as exc:
            log.warning("sentence substitution unavailable: %s", exc)
            self.reason = "sentence substitution needs a bank and none could be loaded"
            return
        self.reason = None
        self.bank.encoder.encode(["warm up"])

    def obfuscator(self, k: int) -> Any:
        """The obfuscator drawing from the ``k`` nearest sentences (built once, shared between requests)."""
        if self.bank is None:
            raise MethodUnavailable(self.reason or "sentence substitution is unavailable")
        if k >= len(self.bank):
            raise ConfigError(f"k={k} needs a bank of more than {k} sentences, this one has {len(self.bank)}")
        sentences = importlib.import_module("anonymed.obfuscate.sentences")
        with self._lock:
            if k not in self._obfuscators:
                self._obfuscators[k] = sentences.SentenceObfuscator(self.bank, k)
            return self._obfuscators[k]

    def apply(self, doc: Document, k: int, rng: RandomSource) -> Document:
        """The document with every sentence of ``doc.result`` replaced; counts in ``privacy['sentences']``."""
        obfuscator = self.obfuscator(k)
        result = obfuscator.obfuscate(doc.result, rng)
        report = {"method": "sentence_substitution", "k": k, "sentences": result.sentences}
        return doc.evolve(output=result.text, privacy={**doc.privacy, "sentences": report})
