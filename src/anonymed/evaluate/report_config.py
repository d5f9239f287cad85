"""The report's configuration: a TOML file of sections, each optional, validated once.

``[report]`` names the methods and the seed; ``[anonymity]`` an annotated corpus (PhysioNet deid...);
``[mtsamples]`` the specialty corpus shared by ``[retention]``, ``[intrinsic]`` and ``[extrinsic]``;
``[pipeline]`` / ``[operators]`` / ``[operator_params.X]`` / ``[detector_params.X]`` the detect-and-replace
configuration (as for ``anonymed deid``); ``[words]`` the space; ``[sentences]`` options passed through.
A section left out is not run. Relative paths are resolved against the working directory; a path starting
with ``resource:`` names a file shipped with anonymed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from anonymed.config import PipelineConfig
from anonymed.errors import ConfigError
from anonymed.evaluate.anonymity import AnonymityParams
from anonymed.evaluate.extrinsic import ExtrinsicParams
from anonymed.evaluate.intrinsic import BENCHMARKS, EmbeddingParams
from anonymed.evaluate.mtsamples import TaskParams
from anonymed.evaluate.retention import RetentionParams
from anonymed.tomlfile import read_toml

RESOURCES = Path(__file__).resolve().parents[1] / "resources"
DEFAULT_METHODS = (
    "replace",
    "words:3",
    "words:5",
    "words:7",
    "words:9",
    "words:3-14",
    "hybrid:5",
    "sentences",
)
_PIPELINE_TABLES = ("pipeline", "operators", "operator_params", "detector_params", "epsilon_weights")


def resolve(value: str | None) -> Path | None:
    """A path from the configuration: ``resource:x`` is shipped, anything else is as given (or None)."""
    if not value:
        return None
    if value.startswith("resource:"):
        return RESOURCES / value.removeprefix("resource:")
    return Path(value).expanduser()


@dataclass(frozen=True)
class AnonymitySection:
    """The annotated corpus and the metric parameters."""

    corpus: Path
    format: str | None = None
    limit: int | None = None
    params: AnonymityParams = field(default_factory=AnonymityParams)


@dataclass(frozen=True)
class IntrinsicSection:
    """Which methods get embeddings, how many runs, which benchmarks, the fastText settings."""

    methods: tuple[str, ...] = ("words:3", "words:5", "words:7")
    runs: int = 5
    level: float = 0.9
    benchmarks: tuple[str, ...] = BENCHMARKS
    embedding: EmbeddingParams = field(default_factory=EmbeddingParams)


@dataclass(frozen=True)
class ReportConfig:
    """Everything ``anonymed evaluate report`` runs."""

    title: str = "anonymed: privacy and utility"
    seed: int = 13
    methods: tuple[str, ...] = DEFAULT_METHODS
    anonymity: AnonymitySection | None = None
    mtsamples: Path | None = None
    task: TaskParams = field(default_factory=TaskParams)
    retention: RetentionParams | None = None
    classifier: Path | None = None
    intrinsic: IntrinsicSection | None = None
    extrinsic: ExtrinsicParams | None = None
    pipeline: PipelineConfig = field(default_factory=PipelineConfig)
    space: Path | None = None
    sentences: Mapping[str, Any] = field(default_factory=dict)

    def quick(self) -> ReportConfig:
        """A small version for a smoke test: few notes, one fold pair, two short embedding runs."""
        anonymity = self.anonymity and dataclasses.replace(
            self.anonymity, limit=min(self.anonymity.limit or 200, 200)
        )
        intrinsic = self.intrinsic and dataclasses.replace(
            self.intrinsic,
            runs=2,
            methods=self.intrinsic.methods[:1],
            embedding=dataclasses.replace(self.intrinsic.embedding, epochs=1, vector_size=32),
        )
        extrinsic = self.extrinsic and dataclasses.replace(self.extrinsic, folds=2)
        task = dataclasses.replace(self.task, limit=min(self.task.limit or 400, 400), min_class_size=5)
        return dataclasses.replace(
            self, anonymity=anonymity, intrinsic=intrinsic, extrinsic=extrinsic, task=task
        )


def _params(cls: type[Any], data: Mapping[str, Any], section: str) -> Any:
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = set(data) - names
    if unknown:
        raise ConfigError(f"unknown keys {sorted(unknown)} in [{section}]; known: {sorted(names)}")
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
    try:
        return cls(**values)
    except TypeError as exc:
        raise ConfigError(f"bad values in [{section}]: {exc}") from None


def _pop(data: dict[str, Any], key: str, default: Any = None) -> Any:
    return data.pop(key, default)


def _anonymity(data: Mapping[str, Any] | None) -> AnonymitySection | None:
    if data is None:
        return None
    table = dict(data)
    corpus = resolve(_pop(table, "corpus"))
    if corpus is None:
        raise ConfigError("[anonymity] needs a corpus path")
    return AnonymitySection(
        corpus, _pop(table, "format"), _pop(table, "limit"), _params(AnonymityParams, table, "anonymity")
    )


def _intrinsic(data: Mapping[str, Any] | None) -> IntrinsicSection | None:
    if data is None:
        return None
    table = dict(data)
    embedding = _params(EmbeddingParams, _pop(table, "embedding", {}), "intrinsic.embedding")
    section: IntrinsicSection = _params(IntrinsicSection, table, "intrinsic")
    if section.runs < 1 or not 0 < section.level < 1:
        raise ConfigError(
            f"[intrinsic] needs runs >= 1 and 0 < level < 1, got {section.runs}, {section.level}"
        )
    return dataclasses.replace(section, embedding=embedding)


def _mtsamples(data: Mapping[str, Any]) -> tuple[Path | None, TaskParams]:
    table = dict(data)
    corpus = resolve(_pop(table, "corpus"))
    return corpus, _params(TaskParams, table, "mtsamples")


def from_mapping(data: Mapping[str, Any]) -> ReportConfig:
    """Build and check a report configuration from parsed TOML."""
    known = {
        "report",
        "anonymity",
        "mtsamples",
        "retention",
        "intrinsic",
        "extrinsic",
        "words",
        "sentences",
        *_PIPELINE_TABLES,
    }
    unknown = set(data) - known
    if unknown:
        raise ConfigError(f"unknown report tables {sorted(unknown)}; known: {sorted(known)}")
    report = dict(data.get("report", {}))
    bad = set(report) - {"title", "seed", "methods"}
    if bad:
        raise ConfigError(f"unknown [report] keys {sorted(bad)}; known: ['methods', 'seed', 'title']")
    retention = dict(data["retention"]) if "retention" in data else None
    classifier = resolve(retention.pop("classifier", None)) if retention is not None else None
    corpus, task = _mtsamples(data.get("mtsamples", {}))
    pipeline = PipelineConfig.from_mapping({k: data[k] for k in _PIPELINE_TABLES if k in data})
    return ReportConfig(
        title=str(report.get("title", ReportConfig.title)),
        seed=int(report.get("seed", ReportConfig.seed)),
        methods=tuple(report.get("methods", DEFAULT_METHODS)),
        anonymity=_anonymity(data.get("anonymity")),
        mtsamples=corpus,
        task=task,
        retention=None if retention is None else _params(RetentionParams, retention, "retention"),
        classifier=classifier,
        intrinsic=_intrinsic(data.get("intrinsic")),
        extrinsic=None
        if "extrinsic" not in data
        else _params(ExtrinsicParams, data["extrinsic"], "extrinsic"),
        pipeline=pipeline,
        space=resolve(dict(data.get("words", {})).get("space")),
        sentences=dict(data.get("sentences", {})),
    )


def load_config(path: Path) -> ReportConfig:
    """Read a report configuration file."""
    return from_mapping(read_toml(path, "report configuration"))
