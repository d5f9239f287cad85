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

The second stage reads the first stage's output and draws from a stream derived from the pipeline's seed
(secure without one), independent of the first stage's streams.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.pipeline import Pipeline
from anonymed.randomness import check_random_state

THEN = ("words", "sentences")
_KEYS = {"then", "k", "n", "bank", "space"}


@dataclass(frozen=True)
class HybridConfig:
    """Detect-and-replace (``pipeline``) followed by word or sentence substitution (``then``)."""

    pipeline: PipelineConfig = field(default_factory=PipelineConfig)
    then: str = "sentences"
    k: int = 5
    n: str = "5"
    bank: Path | None = None
    space: Path | None = None

    def __post_init__(self) -> None:
        if self.then not in THEN:
            raise ConfigError(f"hybrid 'then' must be one of {THEN}, got {self.then!r}")
        if isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 2:
            raise ConfigError(f"hybrid k must be an integer >= 2, got {self.k!r}")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], **overrides: Any) -> HybridConfig:
        """Build from a parsed TOML document: the pipeline's tables and ``[hybrid]``; then overrides."""
        hybrid = dict(data.get("hybrid", {}))
        unknown = set(hybrid) - _KEYS
        if unknown:
            raise ConfigError(f"unknown [hybrid] keys {sorted(unknown)}; known: {sorted(_KEYS)}")
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
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"cannot read configuration file {str(path)!r}: {exc}") from None
        return cls.from_mapping(data, **overrides)


class HybridObfuscator:
    """Run the pipeline on a document, then the configured obfuscator on its output."""

    def __init__(self, config: HybridConfig | None = None) -> None:
        self.config = config or HybridConfig()
        self.pipeline_ = Pipeline(self.config.pipeline)
        stream = check_random_state(self.config.pipeline.seed).spawn(f"hybrid:{self.config.then}")
        if self.config.then == "sentences":
            from anonymed.obfuscate.sentences import SentenceObfuscator

            self.second_: Any = SentenceObfuscator(self.config.bank, self.config.k, stream)
        else:
            from anonymed.obfuscate.words import WordObfuscator

            self.second_ = WordObfuscator(self.config.space, self.config.n, stream)

    def load(self) -> HybridObfuscator:
        """Load every model now (detectors, operators, the bank or space)."""
        _ = self.pipeline_.detectors_, self.pipeline_.substituter_
        if self.config.then == "sentences":
            self.second_.loaded_bank()
        else:
            self.second_.loaded_space()
        return self

    def __call__(self, doc: Document) -> Document:
        """Detect and replace PHI, then obfuscate every word or sentence of the result."""
        return self.second_.obfuscate_document(self.pipeline_.run(doc))  # type: ignore[no-any-return]

    obfuscate_document = __call__
