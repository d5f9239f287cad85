"""Hybrid mode (the embedding paper's advice for maximum security): detect-and-replace, then obfuscate.

One configuration: the pipeline's tables plus a ``[hybrid]`` table, e.g.::

    [pipeline]
    seed = 7
    [operators]
    NAME = "fake"
    [hybrid]
    then = "sentences"   # or "words"
    k = 5                # sentences: neighbours to draw from
    bank = "banks/mtsamples-minilm"   # optional; default bank otherwise
    n = "5"              # words: degree of obfuscation
    space = "spaces/mine"             # optional; shipped space otherwise

The second stage reads the first stage's output and draws from ``stage_stream(seed, "hybrid:<then>")``
(secure without a seed), independent of the first stage's streams.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.methods.base import Method, MethodConfig, stage_stream
from anonymed.methods.replace import ReplaceConfig, ReplaceMethod, describe_pipeline, pipeline_fields
from anonymed.methods.sentences import SentencesConfig, SentencesMethod
from anonymed.methods.words import WordsConfig, WordsMethod
from anonymed.substitute.summary import document_counts
from anonymed.tomlfile import read_toml

THEN = ("words", "sentences")
#: the keys of the ``[hybrid]`` table
HYBRID_KEYS = frozenset({"then", "k", "n", "bank", "space"})


def _hybrid_config(fields: dict[str, Any], rest: dict[str, Any]) -> HybridConfig:
    return HybridConfig(PipelineConfig(**fields), **rest)


@dataclass(frozen=True)
class HybridConfig(MethodConfig):
    """Detect-and-replace (``pipeline``) followed by word or sentence substitution (``then``)."""

    pipeline: PipelineConfig = field(default_factory=PipelineConfig)
    then: str = "sentences"
    k: int = 5
    n: str = "5"
    bank: Path | None = None
    space: Path | None = None
    kind = "hybrid"

    def __post_init__(self) -> None:
        if self.then not in THEN:
            raise ConfigError(f"hybrid 'then' must be one of {THEN}, got {self.then!r}")
        if isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 2:
            raise ConfigError(f"hybrid k must be an integer >= 2, got {self.k!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        rest = {"then": self.then, "k": self.k, "n": self.n, "bank": self.bank, "space": self.space}
        return _hybrid_config, (pipeline_fields(self.pipeline), rest)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], **overrides: Any) -> HybridConfig:
        """Build from a parsed TOML document: the pipeline's tables and ``[hybrid]``; then overrides."""
        hybrid = dict(data.get("hybrid", {}))
        unknown = set(hybrid) - HYBRID_KEYS
        if unknown:
            raise ConfigError(f"unknown [hybrid] keys {sorted(unknown)}; known: {sorted(HYBRID_KEYS)}")
        pipeline = PipelineConfig.from_mapping({k: v for k, v in data.items() if k != "hybrid"})
        values: dict[str, Any] = {**hybrid, **{k: v for k, v in overrides.items() if v is not None}}
        for name in ("bank", "space"):
            if values.get(name) is not None:
                values[name] = Path(values[name])
        if "n" in values:
            values["n"] = str(values["n"])
        return cls(pipeline=pipeline, **values)

    @classmethod
    def from_toml(cls, path: Path, **overrides: Any) -> HybridConfig:
        """Read a TOML configuration file (see the module docstring), then overrides."""
        return cls.from_mapping(read_toml(path), **overrides)

    @property
    def seed(self) -> int | None:
        """The pipeline's seed (the second stage's stream derives from it)."""
        return self.pipeline.seed

    @property
    def second(self) -> WordsConfig | SentencesConfig:
        """The second stage's settings (its seed is not used: it draws from the stage's stream)."""
        if self.then == "words":
            return WordsConfig(self.space, self.n)
        return SentencesConfig(self.bank, self.k)

    def unavailable(self) -> str | None:
        """Why the second stage cannot run here, or None."""
        return self.second.unavailable()

    def describe(self) -> Any:
        """The pipeline configuration and the second stage's settings."""
        return [describe_pipeline(self.pipeline), self.then, self.second.describe()]

    def reseeded(self, seed: int | None) -> HybridConfig:
        """The same settings with another seed."""
        pipeline = ReplaceConfig(self.pipeline).reseeded(seed).pipeline
        return HybridConfig(pipeline, self.then, self.k, self.n, self.bank, self.space)

    def build(self) -> HybridMethod:
        """The hybrid method."""
        return HybridMethod(self)


class HybridMethod(Method[HybridConfig]):
    """Detect-and-replace (``first``), then word or sentence substitution of the result (``second``)."""

    def __init__(self, config: HybridConfig) -> None:
        super().__init__(config)
        self.first = ReplaceMethod(ReplaceConfig(config.pipeline))
        stream = stage_stream(config.seed, f"hybrid:{config.then}")
        second = config.second
        self.second: WordsMethod | SentencesMethod
        if isinstance(second, WordsConfig):
            self.second = WordsMethod(second, stream)
        else:
            self.second = SentencesMethod(second, stream)

    def load(self) -> Self:
        """Load every model now (detectors, operators, the bank or space)."""
        self.first.load()
        self.second.load()
        return self

    def __call__(self, doc: Document) -> Document:
        """Detect and replace PHI, then obfuscate every word or sentence of the result."""
        return self.second(self.first(doc))

    def run_many(self, docs: Sequence[Document]) -> list[Document]:
        """The documents replaced one by one, then obfuscated together (batched for sentences)."""
        return self.second.run_many([self.first(doc) for doc in docs])

    def tally(self, doc: Document) -> Mapping[str, int]:
        """The first stage's substitution counts, and the sentences or tokens the second stage replaced."""
        report = doc.privacy.get(self.config.then, {})
        second = {key: int(report.get(key, 0)) for key in ("sentences", "tokens") if key in report}
        return {**document_counts(doc), **second}

    def reseeded(self, seed: int | None) -> Self:
        """A copy drawing from ``seed`` in both stages, sharing every loaded resource."""
        other = copy.copy(self)
        other.config = self.config.reseeded(seed)
        other.first = self.first.reseeded(seed)
        other.second = self.second.restreamed(stage_stream(seed, f"hybrid:{self.config.then}"))
        return other
