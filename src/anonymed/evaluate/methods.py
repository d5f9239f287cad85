"""The methods an evaluation compares, by name: ``replace``, ``words:N``, ``hybrid:N``, ``sentences[:K]``.

* ``replace``: the detect-and-replace pipeline (``Pipeline``) with the report's ``[pipeline]`` settings.
* ``words:N``: word substitution (``WordObfuscator``), N = 5 or a range such as 3-14.
* ``hybrid:N``: detect-and-replace, then word substitution of the result (``hybrid:sentences``: then
  sentence substitution).
* ``sentences[:K]``: sentence substitution, when ``anonymed.obfuscate.sentences`` is installed (imported
  lazily; otherwise the method is reported as unavailable and skipped).

A method anonymizes a list of documents with a seed (None: secure randomness); detect-and-replace detects
each document once and reuses the spans for every seed (detection is deterministic).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.pipeline import Pipeline

Tick = Callable[[int], None]
KINDS = ("replace", "words", "hybrid", "sentences")
SENTENCES_MODULE = "anonymed.obfuscate.sentences"  # imported when first used
BATCH = 64  # documents per sentence-substitution call (the encoder and index work in batches)


class Method(Protocol):
    """Something that anonymizes documents (``output`` set; ``spans`` too for detect-and-replace)."""

    name: str
    kind: str
    degree: str | None

    def anonymize(
        self, docs: Sequence[Document], seed: int | None, tick: Tick | None = None
    ) -> list[Document]:
        """The documents with ``output`` set, in the same order."""
        ...


class MethodUnavailable(ConfigError):
    """A configured method cannot run in this installation; the report skips it with this reason."""


@dataclass
class ReplaceMethod:
    """Detect-and-replace with one pipeline configuration; spans are cached by document id."""

    config: PipelineConfig = field(default_factory=PipelineConfig)
    name: str = "replace"
    kind: str = "replace"
    degree: str | None = None
    _detected: dict[str, Document] = field(default_factory=dict, repr=False)
    _detector: Pipeline | None = field(default=None, repr=False)

    def detect(self, doc: Document) -> Document:
        """The document with its detected spans (computed once per id)."""
        key = f"{doc.id}\x00{hash(doc.text)}"
        if key not in self._detected:
            if self._detector is None:
                self._detector = Pipeline(self.config)
            self._detected[key] = self._detector.detect(doc)
        return self._detected[key]

    def anonymize(
        self, docs: Sequence[Document], seed: int | None, tick: Tick | None = None
    ) -> list[Document]:
        """Detect (cached), then substitute with a stream derived from ``seed``."""
        pipeline = Pipeline(self.config.replace(seed=seed))
        done = []
        for doc in docs:
            done.append(pipeline.substitute(self.detect(doc)))
            if tick is not None:
                tick(1)
        return done


@dataclass
class WordsMethod:
    """Word substitution of each document's current text with degree N."""

    n: str = "5"
    space: Path | None = None
    name: str = "words"
    kind: str = "words"
    degree: str | None = None

    def __post_init__(self) -> None:
        from anonymed.obfuscate.words import Degree

        self.degree = str(Degree.parse(self.n))

    def anonymize(
        self, docs: Sequence[Document], seed: int | None, tick: Tick | None = None
    ) -> list[Document]:
        """Every word of every document replaced by one of its N nearest neighbours."""
        from anonymed.obfuscate.words import WordObfuscator

        obfuscator = WordObfuscator(self.space, n=self.n, random_state=seed)
        done = []
        for doc in docs:
            done.append(obfuscator.obfuscate_document(doc))
            if tick is not None:
                tick(1)
        return done


@dataclass
class HybridMethod:
    """Detect-and-replace, then word (or sentence) substitution of the surrogate text."""

    replace: ReplaceMethod
    then: Method
    name: str = "hybrid"
    kind: str = "hybrid"
    degree: str | None = None

    def anonymize(
        self, docs: Sequence[Document], seed: int | None, tick: Tick | None = None
    ) -> list[Document]:
        """Replace, then obfuscate words (the spans of the first step are kept for detection scores)."""
        replaced = self.replace.anonymize(docs, seed)
        return self.then.anonymize(replaced, None if seed is None else seed + 7919, tick)


@dataclass
class SentencesMethod:
    """Sentence substitution through ``anonymed.obfuscate.sentences`` (imported when first used)."""

    params: Mapping[str, Any] = field(default_factory=dict)
    name: str = "sentences"
    kind: str = "sentences"
    degree: str | None = None

    def factory(self) -> Any:
        """The module's obfuscator class, or ``MethodUnavailable`` with the reason."""
        try:
            module = importlib.import_module(SENTENCES_MODULE)
        except ImportError as exc:
            raise MethodUnavailable(
                f"sentence substitution is not available in this build ({type(exc).__name__})"
            ) from None
        cls = getattr(module, "SentenceObfuscator", None)
        if cls is None:
            raise MethodUnavailable(f"{SENTENCES_MODULE} has no SentenceObfuscator")
        return cls

    def anonymize(
        self, docs: Sequence[Document], seed: int | None, tick: Tick | None = None
    ) -> list[Document]:
        """Every sentence replaced by a near neighbour from the sentence bank."""
        obfuscator = self.factory()(random_state=seed, **dict(self.params))
        done: list[Document] = []
        for start in range(0, len(docs), BATCH):
            batch = docs[start : start + BATCH]
            done.extend(obfuscator.obfuscate_many(batch))
            if tick is not None:
                tick(len(batch))
        return done


def build_method(
    spec: str,
    *,
    pipeline: PipelineConfig | None = None,
    space: Path | None = None,
    sentences: Mapping[str, Any] | None = None,
    replace: ReplaceMethod | None = None,
) -> Method:
    """A method from ``kind[:param]`` (see the module docstring); ``replace`` shares a detection cache."""
    kind, _, param = spec.strip().partition(":")
    shared = replace if replace is not None else ReplaceMethod(pipeline or PipelineConfig())
    if kind == "replace" and not param:
        return shared
    if kind == "words":
        return WordsMethod(param or "5", space, name=f"words-{param or '5'}")
    if kind == "hybrid" and param == "sentences":
        then = SentencesMethod(dict(sentences or {}))
        return HybridMethod(shared, then, name="hybrid-sentences")
    if kind == "hybrid":
        words = WordsMethod(param or "5", space)
        return HybridMethod(shared, words, name=f"hybrid-{param or '5'}", degree=words.degree)
    if kind == "sentences":
        options = dict(sentences or {})
        if param:
            if not param.isdigit():
                raise ConfigError(f"sentences:K needs an integer K, got {spec!r}")
            options["k"] = int(param)
        return SentencesMethod(
            options, name=f"sentences-{param}" if param else "sentences", degree=param or None
        )
    raise ConfigError(f"unknown method {spec!r}; expected one of {KINDS} (words:N, hybrid:N, sentences[:K])")


def unavailable(method: Method) -> str | None:
    """Why ``method`` cannot run in this installation, or None when it can."""
    inner = method.then if isinstance(method, HybridMethod) else method
    if isinstance(inner, SentencesMethod):
        try:
            inner.factory()
        except MethodUnavailable as exc:
            return str(exc)
    return None
