"""Pipeline configuration: defaults, a TOML file, command-line overrides; validated once."""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from anonymed.detect.registry import DEFAULT_DETECTORS, DETECTORS
from anonymed.errors import ConfigError
from anonymed.labels import Label
from anonymed.substitute.registry import DEFAULT_OPERATORS, OPERATORS

LANGUAGES = ("en", "fr")
STAGES = ("detect", "substitute")


@dataclass(frozen=True)
class PipelineConfig:
    """Everything a de-identification run needs to know; immutable and checked on creation."""

    lang: str = "en"
    detectors: tuple[str, ...] = DEFAULT_DETECTORS
    detector_params: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    high_recall: bool = False
    operators: Mapping[Label, str] = field(default_factory=lambda: dict(DEFAULT_OPERATORS))
    operator_params: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    stages: tuple[str, ...] = STAGES
    seed: int | None = None
    patient_key: bytes | None = field(default=None, repr=False)
    epsilon: float | None = None
    epsilon_weights: Mapping[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.lang not in LANGUAGES:
            raise ConfigError(f"unsupported language {self.lang!r}; expected one of {LANGUAGES}")
        for name in self.detectors:
            if name not in DETECTORS:
                raise ConfigError(f"unknown detector {name!r}; known: {sorted(DETECTORS)}")
        ops = {Label(str(k).upper()): v for k, v in {**DEFAULT_OPERATORS, **self.operators}.items()}
        for label, name in ops.items():
            if name not in OPERATORS:
                raise ConfigError(
                    f"unknown operator {name!r} for label {label.value}; known: {sorted(OPERATORS)}"
                )
        object.__setattr__(self, "operators", MappingProxyType(ops))
        object.__setattr__(self, "operator_params", MappingProxyType(dict(self.operator_params)))
        object.__setattr__(self, "detector_params", MappingProxyType(dict(self.detector_params)))
        weights = {str(k).upper(): float(v) for k, v in dict(self.epsilon_weights).items()}
        for name, weight in weights.items():
            if name not in Label.__members__ or not weight > 0:
                raise ConfigError(f"epsilon weight {name}={weight!r}: need a label and a positive weight")
        object.__setattr__(self, "epsilon_weights", MappingProxyType(weights))
        for stage in self.stages:
            if stage not in STAGES:
                raise ConfigError(f"unknown stage {stage!r}; known: {STAGES}")
        if self.epsilon is not None and not self.epsilon > 0:
            raise ConfigError(f"epsilon must be positive, got {self.epsilon!r}")

    def replace(self, **changes: Any) -> PipelineConfig:
        """A copy with some fields overridden (``None`` values are ignored)."""
        return dataclasses.replace(self, **{k: v for k, v in changes.items() if v is not None})

    @classmethod
    def from_toml(cls, path: Path, **overrides: Any) -> PipelineConfig:
        """Read the ``[pipeline]``, ``[operators]`` and ``[operator_params.NAME]`` tables, then overrides."""
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"cannot read configuration file {str(path)!r}: {exc}") from None
        return cls.from_mapping(data).replace(**overrides)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> PipelineConfig:
        """Build from a parsed TOML document; unknown keys are errors."""
        known = {"pipeline", "operators", "operator_params", "detector_params", "epsilon_weights"}
        unknown = set(data) - known
        if unknown:
            raise ConfigError(f"unknown configuration tables {sorted(unknown)}; known: {sorted(known)}")
        pipeline = dict(data.get("pipeline", {}))
        tables = {"operators", "operator_params", "detector_params", "patient_key", "epsilon_weights"}
        fields = {f.name for f in dataclasses.fields(cls)} - tables
        bad = set(pipeline) - fields
        if bad:
            raise ConfigError(f"unknown [pipeline] keys {sorted(bad)}; known: {sorted(fields)}")
        for key in ("detectors", "stages"):
            if key in pipeline:
                pipeline[key] = tuple(pipeline[key])
        operators = {Label(k.upper()): v for k, v in dict(data.get("operators", {})).items() if _is_label(k)}
        if len(operators) != len(data.get("operators", {})):
            raise ConfigError(f"[operators] keys must be labels: {[m.value for m in Label]}")
        return cls(
            **pipeline,
            operators=operators,
            operator_params=dict(data.get("operator_params", {})),
            detector_params=dict(data.get("detector_params", {})),
            epsilon_weights=dict(data.get("epsilon_weights", {})),
        )


def _is_label(name: str) -> bool:
    return name.upper() in Label.__members__
