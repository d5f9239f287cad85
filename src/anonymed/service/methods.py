"""The obfuscation methods the service may offer beyond detect-and-replace, loaded once if present."""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from anonymed.document import Document
from anonymed.errors import AnonymedError, ConfigError
from anonymed.randomness import RandomSource

log = logging.getLogger("anonymed.service")


class MethodUnavailable(AnonymedError):
    """The requested method is not installed or has no resource loaded (HTTP 501)."""


class LoadedMethod:
    """A method over one resource (space, bank) loaded once; ``reason`` says why it is unavailable."""

    #: the method's name in log lines and reasons
    name = "this method"

    def __init__(self, reason: str) -> None:
        self.resource: Any = None
        self.reason: str | None = reason
        self._lock = threading.Lock()

    @property
    def available(self) -> bool:
        """Whether the resource is loaded."""
        return self.resource is not None

    def load_resource(
        self, modules: tuple[str, ...], opener: Callable[[ModuleType], Any], missing: str
    ) -> bool:
        """Import ``modules``, open the resource with the first; on failure remember why (``missing``)."""
        try:
            imported = [importlib.import_module(module) for module in modules]
        except ImportError as exc:
            log.warning("%s unavailable: %s", self.name, type(exc).__name__)
            self.reason = f"{self.name} is not installed (install anonymed[embed])"
            return False
        try:
            self.resource = opener(imported[0])
        except AnonymedError as exc:
            log.warning("%s unavailable: %s", self.name, exc)
            self.reason = missing
            return False
        self.reason = None
        return True

    def loaded(self) -> Any:
        """The resource; ``MethodUnavailable`` (with the reason) when it is not loaded."""
        if self.resource is None:
            raise MethodUnavailable(self.reason or f"{self.name} is unavailable")
        return self.resource


class WordMethod(LoadedMethod):
    """Word substitution over one embedding space, loaded once; one obfuscator per degree N."""

    name = "word substitution"

    def __init__(self, space_path: Path | None = None) -> None:
        super().__init__("word substitution has not been loaded")
        self.space_path = space_path
        self._obfuscators: dict[str, Any] = {}

    def load(self) -> None:
        """Import the word substitution module and load the space; remember why not on failure."""
        path = self.space_path
        if self.load_resource(
            ("anonymed.obfuscate.spaces", "anonymed.obfuscate.words"),
            lambda spaces: spaces.default_space() if path is None else spaces.cached_space(str(path)),
            "word substitution needs an embedding space and none could be loaded",
        ):
            self.obfuscator(5).unseen()

    def obfuscator(self, n: int | str) -> Any:
        """The obfuscator for degree ``n`` (built once, shared between requests)."""
        space = self.loaded()
        words = importlib.import_module("anonymed.obfuscate.words")
        degree = words.Degree.parse(n)
        if degree.high > space.n_max:
            raise ConfigError(f"degree of obfuscation {degree} exceeds this space's maximum {space.n_max}")
        with self._lock:
            obfuscator = self._obfuscators.get(str(degree))
            if obfuscator is None:
                obfuscator = words.WordObfuscator(space, degree)
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


class SentenceMethod(LoadedMethod):
    """Sentence substitution over one replacement bank, loaded once; offered when the service names a bank."""

    name = "sentence substitution"

    def __init__(self, bank_path: Path | None = None) -> None:
        super().__init__("sentence substitution needs a bank (start the service with --sentence-bank)")
        self.bank_path = bank_path
        self._obfuscators: dict[int, Any] = {}

    def load(self) -> None:
        """Import the sentence substitution module and load the bank; remember why not on failure."""
        path = self.bank_path
        if path is not None and self.load_resource(
            ("anonymed.obfuscate.banks", "anonymed.obfuscate.sentences"),
            lambda banks: banks.load_bank(path),
            "sentence substitution needs a bank and none could be loaded",
        ):
            self.resource.encoder.encode(["warm up"])

    def obfuscator(self, k: int) -> Any:
        """The obfuscator drawing from the ``k`` nearest sentences (built once, shared between requests)."""
        bank = self.loaded()
        if k >= len(bank):
            raise ConfigError(f"k={k} needs a bank of more than {k} sentences, this one has {len(bank)}")
        sentences = importlib.import_module("anonymed.obfuscate.sentences")
        with self._lock:
            if k not in self._obfuscators:
                self._obfuscators[k] = sentences.SentenceObfuscator(bank, k)
            return self._obfuscators[k]

    def apply(self, doc: Document, k: int, rng: RandomSource) -> Document:
        """The document with every sentence of ``doc.result`` replaced; counts in ``privacy['sentences']``."""
        obfuscator = self.obfuscator(k)
        result = obfuscator.obfuscate(doc.result, rng)
        report = {"method": "sentence_substitution", "k": k, "sentences": result.sentences}
        return doc.evolve(output=result.text, privacy={**doc.privacy, "sentences": report})
