"""Process factories of the shipped methods: the detect-and-replace pipeline and word substitution.

Each holds plain, picklable parameters and builds its models in ``build`` (once per worker). Both
methods draw from per-document streams keyed by the document id, so their output does not depend on how
the corpus is sharded or on how many workers run it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.pipeline import Pipeline
from anonymed.runner.process import Process, ProcessFactory
from anonymed.substitute.summary import document_counts


def _digest(data: Any) -> str:
    text = json.dumps(data, sort_keys=True, default=str)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def _config_fields(config: PipelineConfig) -> dict[str, Any]:
    """The configuration as plain values (read-only mappings become dicts, which pickle)."""
    return {
        f.name: dict(value) if isinstance(value := getattr(config, f.name), Mapping) else value
        for f in dataclasses.fields(config)
    }


def _pipeline_factory(fields: dict[str, Any], disable: tuple[str, ...]) -> PipelineFactory:
    return PipelineFactory(PipelineConfig(**fields), disable)


@dataclass(frozen=True)
class PipelineFactory(ProcessFactory):
    """The de-identification pipeline (``anonymed deid``); ``disable=("substitute",)`` only detects."""

    config: PipelineConfig
    disable: tuple[str, ...] = ()
    name = "deid"

    def __reduce__(self) -> tuple[Any, ...]:
        return _pipeline_factory, (_config_fields(self.config), self.disable)

    def build(self) -> Process:
        """A pipeline with its detectors and operators loaded."""
        pipeline = Pipeline(self.config)
        _ = pipeline.detectors_, pipeline.substituter_
        return partial(pipeline.run, disable=self.disable)

    def tally(self, doc: Document) -> Mapping[str, int]:
        """The document's substitution counts: label, operator, outcome (never a value)."""
        return document_counts(doc)

    def fingerprint(self) -> str:
        """A digest of the configuration (the patient key enters only as its own digest)."""
        fields = _config_fields(self.config)
        key = fields.pop("patient_key")
        fields["patient_key"] = None if key is None else hashlib.sha256(key).hexdigest()
        fields["operators"] = {label.value: name for label, name in self.config.operators.items()}
        return _digest(["pipeline", fields, sorted(self.disable)])


@dataclass(frozen=True)
class WordsFactory(ProcessFactory):
    """Word substitution (``anonymed obfuscate words``): every token becomes a random near neighbour."""

    space: Path | None = None
    n: str = "5"
    seed: int | None = None
    paper_preprocessing: bool = False
    name = "words"

    def build(self) -> Process:
        """An obfuscator with its space and neighbour table loaded."""
        from anonymed.obfuscate.words import WordObfuscator

        obfuscator = WordObfuscator(
            self.space, n=self.n, random_state=self.seed, paper_preprocessing=self.paper_preprocessing
        )
        obfuscator.loaded_space()
        return obfuscator.obfuscate_document

    def tally(self, doc: Document) -> Mapping[str, int]:
        """Tokens replaced, unseen words and numbers of the document."""
        report = doc.privacy.get("words", {})
        return {key: int(report.get(key, 0)) for key in ("tokens", "unseen", "numbers")}

    def fingerprint(self) -> str:
        """A digest of the parameters and of the space folder's identity."""
        space = None if self.space is None else str(Path(self.space).resolve())
        return _digest(["words", space, self.n, self.seed, self.paper_preprocessing])


@dataclass(frozen=True)
class SentencesFactory(ProcessFactory):
    """Sentence substitution (``anonymed obfuscate sentences``): sentences become near bank sentences."""

    bank: Path | None = None
    k: int = 5
    seed: int | None = None
    name = "sentences"

    def build(self) -> Process:
        """An obfuscator with its bank (index and encoder) loaded."""
        from anonymed.obfuscate.sentences import SentenceObfuscator

        obfuscator = SentenceObfuscator(self.bank, k=self.k, random_state=self.seed)
        obfuscator.loaded_bank()
        return obfuscator.obfuscate_document

    def tally(self, doc: Document) -> Mapping[str, int]:
        """Sentences replaced in the document."""
        return {"sentences": int(doc.privacy.get("sentences", {}).get("sentences", 0))}

    def fingerprint(self) -> str:
        """A digest of the parameters and of the bank folder's identity."""
        bank = None if self.bank is None else str(Path(self.bank).resolve())
        return _digest(["sentences", bank, self.k, self.seed])


def _hybrid_factory(fields: dict[str, Any], rest: dict[str, Any]) -> HybridFactory:
    return HybridFactory(PipelineConfig(**fields), **rest)


@dataclass(frozen=True)
class HybridFactory(ProcessFactory):
    """Hybrid mode (``anonymed obfuscate hybrid``): detect-and-replace, then word or sentence substitution."""

    config: PipelineConfig
    then: str = "sentences"
    k: int = 5
    n: str = "5"
    bank: Path | None = None
    space: Path | None = None
    name = "hybrid"

    def __reduce__(self) -> tuple[Any, ...]:
        rest = {"then": self.then, "k": self.k, "n": self.n, "bank": self.bank, "space": self.space}
        return _hybrid_factory, (_config_fields(self.config), rest)

    def build(self) -> Process:
        """The pipeline and the second stage, loaded."""
        from anonymed.obfuscate.hybrid import HybridConfig, HybridObfuscator

        config = HybridConfig(self.config, self.then, self.k, self.n, self.bank, self.space)
        return HybridObfuscator(config).load()

    def tally(self, doc: Document) -> Mapping[str, int]:
        """The first stage's substitution counts, and the sentences or tokens the second stage replaced."""
        report = doc.privacy.get(self.then, {})
        second = {key: int(report.get(key, 0)) for key in ("sentences", "tokens") if key in report}
        return {**document_counts(doc), **second}

    def fingerprint(self) -> str:
        """A digest of the pipeline configuration and of the second stage's parameters."""
        resources = [None if p is None else str(Path(p).resolve()) for p in (self.bank, self.space)]
        pipeline = PipelineFactory(self.config).fingerprint()
        return _digest(["hybrid", pipeline, self.then, self.k, self.n, resources])
