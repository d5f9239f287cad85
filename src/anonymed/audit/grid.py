"""The embeddings grid: for each protected copy, train every algorithm x window and attack with every metric.

Jobs run in worker processes (one gensim thread each, the longest first). A copy in which no name token
of the attacker's list occurs ``min_count`` times cannot put one in any model's vocabulary, so its models
are not trained: every attack is recorded as having nothing to attack, which is what training would give.
"""

from __future__ import annotations

import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import as_completed
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from anonymed.audit.attacks import METRICS, AttackConfig, AttackResult, run_attacks
from anonymed.audit.data import AuditData
from anonymed.audit.embedding import Embedding
from anonymed.audit.models import ModelSpec, train, write_corpus
from anonymed.errors import ConfigError
from anonymed.processes import worker_pool
from anonymed.randomness import RandomSource

Progress = Callable[[str, int, int | None], None]
_COST = {"cbow": 1.0, "glove": 1.5, "skipgram": 2.0, "fasttext": 3.0}  # rough relative training time


@dataclass(frozen=True)
class GridConfig:
    """The grid: algorithms x windows x metrics, gensim settings, attack settings, worker processes."""

    algorithms: tuple[str, ...] = ("cbow", "skipgram", "fasttext")
    windows: tuple[int, ...] = (1, 3, 5, 7, 9)
    metrics: tuple[str, ...] = METRICS
    vector_size: int = 100
    epochs: int = 5
    min_count: int = 5
    seed: int = 1
    workers: int = 2
    attack: AttackConfig = field(default_factory=lambda: AttackConfig(min_patients=3))

    def __post_init__(self) -> None:
        unknown = set(self.metrics) - set(METRICS)
        if unknown or not self.metrics:
            raise ConfigError(f"metrics must be among {METRICS}, got {list(self.metrics)}")
        if self.workers < 1 or not self.windows or not self.algorithms:
            raise ConfigError("need at least one worker, one window and one algorithm")

    def specs(self) -> list[ModelSpec]:
        """Every model of the grid."""
        return [
            ModelSpec(a, w, self.vector_size, self.epochs, self.min_count, seed=self.seed)
            for a in self.algorithms
            for w in self.windows
        ]


@dataclass(frozen=True)
class GridRow:
    """The attacks on one trained model (``trained`` False: skipped, no name token could be in it)."""

    protection: str
    algorithm: str
    window: int
    result: AttackResult
    vocabulary: int
    seconds: float
    trained: bool = True
    cpu_seconds: float = 0.0


@dataclass(frozen=True)
class Copy:
    """One protected corpus and its ground truth."""

    texts: tuple[str, ...]
    data: AuditData


def _job(
    protection: str, corpus: Path, spec: ModelSpec, data: AuditData, config: GridConfig
) -> list[GridRow]:
    started = (time.perf_counter(), time.process_time())
    embedding = train(corpus, spec)
    return _attack(protection, spec, embedding, data, config, started, trained=True)


def _attack(
    protection: str,
    spec: ModelSpec,
    embedding: Embedding,
    data: AuditData,
    config: GridConfig,
    started: tuple[float, float],
    *,
    trained: bool,
) -> list[GridRow]:
    """Attack ``embedding`` with each metric; times (wall, CPU of this process) count from ``started``."""
    rows = []
    for metric in config.metrics:
        rng = RandomSource(config.seed).spawn(f"{protection}:{spec.label}:{metric}")
        result = run_attacks(
            embedding,
            data,
            metric,
            config.attack,
            rng,
            protection=protection,
            algorithm=spec.algorithm,
            window=spec.window,
        )
        rows.append(
            GridRow(
                protection,
                spec.algorithm,
                spec.window,
                result,
                len(embedding.words),
                time.perf_counter() - started[0],
                trained,
                time.process_time() - started[1],
            )
        )
    return rows


def names_can_appear(texts: tuple[str, ...], data: AuditData, min_count: int) -> bool:
    """Whether any of the attacker's name tokens occurs at least ``min_count`` times in the texts."""
    from anonymed.embeddings.tokenize import words

    wanted = set(data.candidates)
    counts = Counter(t for text in texts for t in words(text) if t in wanted)
    return any(c >= min_count for c in counts.values())


def run_grid(
    copies: Mapping[str, Copy], config: GridConfig, progress: Progress | None = None
) -> list[GridRow]:
    """Train and attack every model of the grid on every copy; rows in copy, algorithm, window order."""
    specs = config.specs()
    total, done = len(copies) * len(specs), 0
    rows: list[GridRow] = []
    with tempfile.TemporaryDirectory(prefix="anonymed-audit-") as tmp:
        jobs: list[tuple[str, Path, ModelSpec, AuditData]] = []
        for protection, copy in copies.items():
            if not names_can_appear(copy.texts, copy.data, config.min_count):
                empty = Embedding((), np.zeros((0, config.vector_size)))
                for spec in specs:
                    rows.extend(
                        _attack(
                            protection,
                            spec,
                            empty,
                            copy.data,
                            config,
                            (time.perf_counter(), time.process_time()),
                            trained=False,
                        )
                    )
                    done += 1
                    if progress is not None:
                        progress("models", done, total)
                continue
            corpus = write_corpus(copy.texts, Path(tmp) / f"{protection}.txt")
            jobs.extend((protection, corpus, spec, copy.data) for spec in specs)
        jobs.sort(key=lambda job: -_COST[job[2].algorithm] * (1 + job[2].window / 5))
        for batch in _execute(jobs, config):
            rows.extend(batch)
            done += 1
            if progress is not None:
                progress("models", done, total)
    order = {name: i for i, name in enumerate(copies)}
    rows.sort(
        key=lambda r: (
            order[r.protection],
            config.algorithms.index(r.algorithm),
            r.window,
            config.metrics.index(r.result.metric),
        )
    )
    return rows


def _execute(
    jobs: list[tuple[str, Path, ModelSpec, AuditData]], config: GridConfig
) -> Iterator[list[GridRow]]:
    """Yield each job's rows as it finishes (in this process when ``workers`` is 1)."""
    if config.workers == 1:
        for job in jobs:
            yield _job(*job, config)
        return
    # spawned workers that end with this process; stopped at once if the run stops (SIGTERM, Ctrl-C, an error)
    with worker_pool(config.workers) as pool:
        futures = [pool.submit(_job, *job, config) for job in jobs]
        for future in as_completed(futures):
            yield future.result()
