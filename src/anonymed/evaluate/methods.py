"""The methods an evaluation compares, by name: ``replace``, ``words:N``, ``hybrid:N``, ``sentences[:K]``.

* ``replace``: detect-and-replace with the report's ``[pipeline]`` settings.
* ``words:N``: word substitution, N = 5 or a range such as 3-14.
* ``hybrid:N``: detect-and-replace, then word substitution of the result (``hybrid:sentences``: then
  sentence substitution).
* ``sentences[:K]``: sentence substitution, when its extra is installed (otherwise the method is reported
  as unavailable and skipped).

Each name becomes a configuration of ``anonymed.methods`` (the one way to build a method, with its seed
rule), so a seeded report gives the outputs of the CLI and the service. A method anonymizes a list of
documents with a seed (None: secure randomness); detect-and-replace detects each document once and reuses
the spans for every seed (detection is deterministic).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.methods import (
    HybridConfig,
    HybridMethod,
    Method,
    MethodConfig,
    ReplaceConfig,
    ReplaceMethod,
    SentencesConfig,
    WordsConfig,
)

Tick = Callable[[int], None]
KINDS = ("replace", "words", "hybrid", "sentences")
BATCH = 64  # documents per call (sentence substitution batches its encoder and index calls)


class Detections:
    """Spans detected once per document with one pipeline configuration, shared by replace and hybrid."""

    def __init__(self, pipeline: PipelineConfig | None = None) -> None:
        self.pipeline = pipeline or PipelineConfig()
        self._detector: ReplaceMethod | None = None
        self._detected: dict[str, Document] = {}

    def __call__(self, doc: Document) -> Document:
        """The document with its detected spans (computed once per id and text)."""
        key = f"{doc.id}\x00{hash(doc.text)}"
        if key not in self._detected:
            if self._detector is None:
                self._detector = ReplaceConfig(self.pipeline).build()
            self._detected[key] = self._detector.detect(doc)
        return self._detected[key]


@dataclass
class EvaluatedMethod:
    """One compared method: its report name, kind and degree, and its ``anonymed.methods`` configuration."""

    config: MethodConfig
    name: str
    degree: str | None = None
    detections: Detections | None = None
    _built: Method[Any] | None = field(default=None, repr=False)

    @property
    def kind(self) -> str:
        """replace, words, hybrid or sentences."""
        return self.config.kind

    def unavailable(self) -> str | None:
        """Why this method cannot run in this installation, or None when it can."""
        return self.config.unavailable()

    def anonymize(
        self, docs: Sequence[Document], seed: int | None, tick: Tick | None = None
    ) -> list[Document]:
        """The documents with ``output`` set (``spans`` too after detect-and-replace), in the same order."""
        if self._built is None:
            self._built = self.config.build().load()
        method = self._built.reseeded(seed)
        done: list[Document] = []
        for start in range(0, len(docs), BATCH):
            batch = docs[start : start + BATCH]
            done.extend(self._run(method, batch))
            if tick is not None:
                tick(len(batch))
        return done

    def _run(self, method: Method[Any], docs: Sequence[Document]) -> list[Document]:
        """Detect-and-replace substitutes the cached detections; the other methods run as they are."""
        if self.detections is None:
            return method.run_many(docs)
        detected = [self.detections(doc) for doc in docs]
        if isinstance(method, ReplaceMethod):
            return [method.substitute(doc) for doc in detected]
        assert isinstance(method, HybridMethod)
        return method.second.run_many([method.first.substitute(doc) for doc in detected])


def _sentences(options: Mapping[str, Any], param: str, spec: str) -> SentencesConfig:
    if param and not param.isdigit():
        raise ConfigError(f"sentences:K needs an integer K, got {spec!r}")
    return SentencesConfig.from_options({**options, **({"k": int(param)} if param else {})})


def build_method(
    spec: str,
    *,
    pipeline: PipelineConfig | None = None,
    space: Path | None = None,
    sentences: Mapping[str, Any] | None = None,
    detections: Detections | None = None,
) -> EvaluatedMethod:
    """A method from ``kind[:param]`` (see the module docstring); ``detections`` shares a detection cache."""
    kind, _, param = spec.strip().partition(":")
    shared = detections if detections is not None else Detections(pipeline)
    if kind == "replace" and not param:
        return EvaluatedMethod(ReplaceConfig(shared.pipeline), "replace", detections=shared)
    if kind == "words":
        words = WordsConfig(space, param or "5")
        return EvaluatedMethod(words, f"words-{param or '5'}", words.n)
    if kind == "hybrid" and param == "sentences":
        second = SentencesConfig.from_options(sentences or {})
        config = HybridConfig(shared.pipeline, "sentences", k=second.k, bank=second.bank)
        return EvaluatedMethod(config, "hybrid-sentences", detections=shared)
    if kind == "hybrid":
        words = WordsConfig(space, param or "5")
        config = HybridConfig(shared.pipeline, "words", n=words.n, space=space)
        return EvaluatedMethod(config, f"hybrid-{param or '5'}", words.n, shared)
    if kind == "sentences":
        config_s = _sentences(sentences or {}, param, spec)
        return EvaluatedMethod(config_s, f"sentences-{param}" if param else "sentences", param or None)
    raise ConfigError(f"unknown method {spec!r}; expected one of {KINDS} (words:N, hybrid:N, sentences[:K])")
