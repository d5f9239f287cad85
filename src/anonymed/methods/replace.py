"""Detect-and-replace: the ``Pipeline`` of a ``PipelineConfig`` as a method.

Detectors (plus merging) then operators, in the order ``pipeline.py`` knows; ``PipelineConfig.stages``
chooses the stages (``("detect",)``: spans only, as ``anonymed detect``; ``("substitute",)``: replace the
spans a document already carries, as the audit's simulated detector and the service, which detects first
to show the spans). The seed is the pipeline's: a document draws from ``doc:<id>`` of ``check_random_state
(seed)`` (``Pipeline.substitute``).
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Self

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.methods.base import Method, MethodConfig
from anonymed.pipeline import Pipeline
from anonymed.substitute.summary import document_counts


def pipeline_fields(config: PipelineConfig) -> dict[str, Any]:
    """The pipeline configuration as plain values (read-only mappings become dicts, which pickle)."""
    return {
        f.name: dict(value) if isinstance(value := getattr(config, f.name), Mapping) else value
        for f in dataclasses.fields(config)
    }


def describe_pipeline(config: PipelineConfig) -> dict[str, Any]:
    """The pipeline configuration for a fingerprint: the patient key enters only as its own digest."""
    fields = pipeline_fields(config)
    key = fields.pop("patient_key")
    fields["patient_key"] = None if key is None else hashlib.sha256(key).hexdigest()
    fields["operators"] = {label.value: name for label, name in config.operators.items()}
    return fields


def reseeded_pipeline(config: PipelineConfig, seed: int | None) -> PipelineConfig:
    """``config`` with ``seed`` (None too: ``PipelineConfig.replace`` would ignore it)."""
    return dataclasses.replace(config, seed=seed)


def _replace_config(fields: dict[str, Any]) -> ReplaceConfig:
    return ReplaceConfig(PipelineConfig(**fields))


@dataclass(frozen=True)
class ReplaceConfig(MethodConfig):
    """Detect-and-replace with one pipeline configuration (detectors, operators, budget, seed)."""

    pipeline: PipelineConfig = field(default_factory=PipelineConfig)
    kind = "replace"

    def __reduce__(self) -> tuple[Any, ...]:
        return _replace_config, (pipeline_fields(self.pipeline),)

    @property
    def seed(self) -> int | None:
        """The pipeline's seed."""
        return self.pipeline.seed

    def describe(self) -> Any:
        """The pipeline configuration (patient key as a digest)."""
        return describe_pipeline(self.pipeline)

    def reseeded(self, seed: int | None) -> ReplaceConfig:
        """The same pipeline with another seed."""
        return ReplaceConfig(reseeded_pipeline(self.pipeline, seed))

    def build(self) -> ReplaceMethod:
        """The detect-and-replace method."""
        return ReplaceMethod(self)


class ReplaceMethod(Method[ReplaceConfig]):
    """Runs the configured stages of the pipeline on each document."""

    def __init__(self, config: ReplaceConfig) -> None:
        super().__init__(config)
        self.pipeline = Pipeline(config.pipeline)

    def load(self) -> Self:
        """Build the detectors and operators of the configured stages."""
        if "detect" in self.config.pipeline.stages:
            _ = self.pipeline.detectors_
        if "substitute" in self.config.pipeline.stages:
            _ = self.pipeline.substituter_
        return self

    def __call__(self, doc: Document) -> Document:
        """The configured stages, in the pipeline's order."""
        return self.pipeline.run(doc)

    def tally(self, doc: Document) -> Mapping[str, int]:
        """The document's substitution counts: label, operator, outcome (never a value)."""
        return document_counts(doc)

    def detect(self, doc: Document) -> Document:
        """The document with its detected spans (whatever the configured stages)."""
        return self.pipeline.detect(doc)

    def substitute(self, doc: Document) -> Document:
        """The document's spans replaced (whatever the configured stages)."""
        return self.pipeline.substitute(doc)

    def reseeded(self, seed: int | None) -> Self:
        """A copy with another seed sharing the loaded detectors and operators (they hold no stream)."""
        self.load()
        other = copy.copy(self)
        other.config = self.config.reseeded(seed)
        other.pipeline = Pipeline(other.config.pipeline)
        for part in ("detectors_", "substituter_"):
            if part in vars(self.pipeline):
                setattr(other.pipeline, part, getattr(self.pipeline, part))
        return other
