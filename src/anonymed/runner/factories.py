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
