"""The batch runner every corpus command uses: shard the input, process shards, assemble, resume.

With neither ``workers`` nor ``scheduler`` the shards run one after the other in this process (the
embedded default); otherwise on Dask (``runner/dask.py``). Either way: the input is planned into shards
(``shards.py``), each finished shard is a file in the run's work folder recorded in its manifest
(``manifest.py``), and the driver streams the shard files, in input order, into the real writer as soon as
they are contiguous. The writer commits once, at the end: the output appears whole or not at all. A run
killed midway and started again with the same input, shard size and method skips the finished shards and
gives the bytes an uninterrupted run gives; the work folder is removed after a successful run.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from anonymed.document import Document
from anonymed.errors import ConfigError, OutputError
from anonymed.io.atomic import remove_stale_temporaries
from anonymed.io.base import Writer
from anonymed.methods import MethodConfig
from anonymed.runner.failures import DEFAULT_MAX_FAILURES, FailureLimit
from anonymed.runner.local import RunSummary
from anonymed.runner.manifest import Manifest, ShardResult
from anonymed.runner.process import ShardTask, run_shard
from anonymed.runner.shardfile import read_shard_file
from anonymed.runner.shards import Plan, ReaderSpec, plan_shards

#: records per shard unless told otherwise
DEFAULT_SHARD_SIZE = 500
#: seconds between two progress reports within a shard (records can come by the thousand a second)
PROGRESS_INTERVAL = 0.1


@dataclass(frozen=True)
class BatchOptions:
    """Where and how to run: one process, ``workers`` local processes, or the cluster at ``scheduler``."""

    workers: int | None = None
    scheduler: str | None = None
    shard_size: int = DEFAULT_SHARD_SIZE
    workdir: Path | None = None
    strict: bool = False
    keep_workdir: bool = False
    max_failures: FailureLimit = field(default_factory=lambda: FailureLimit.parse(DEFAULT_MAX_FAILURES))

    def __post_init__(self) -> None:
        if self.workers is not None and self.workers < 1:
            raise ConfigError(f"--workers must be at least 1, got {self.workers}")
        if self.workers is not None and self.scheduler is not None:
            raise ConfigError("give --workers (a local cluster) or --scheduler (an existing one), not both")
        if self.shard_size < 1:
            raise ConfigError(f"--shard-size must be at least 1, got {self.shard_size}")


@dataclass(frozen=True)
class BatchProgress:
    """Where a run stands: after each shard, and every few records of a shard run in this process.

    ``documents`` counts the records done (read and processed, or failed) of ``documents_total``.
    """

    shards_done: int
    shards_total: int
    documents: int
    failed: int
    documents_total: int = 0


@dataclass
class BatchSummary(RunSummary):
    """A run summary with tokens, shards (and how many were resumed) and the method's counters.

    ``read``, ``written``, ``failed`` and the failures cover the whole output; ``processed`` counts the
    documents processed by this run (resumed shards excluded), which throughput is measured on.
    ``with_patient`` counts the documents that named a patient; ``limit`` is the run's failure limit.
    """

    tokens: int = 0
    shards: int = 0
    resumed: int = 0
    processed: int = 0
    processed_tokens: int = 0
    workers: int = 1
    counters: Counter[str] = field(default_factory=Counter)
    with_patient: int = 0
    limit: FailureLimit | None = None

    @property
    def too_many_failures(self) -> bool:
        """True when every record failed or more than the failure limit did: the run did not succeed."""
        limit = self.limit or FailureLimit.parse(DEFAULT_MAX_FAILURES)
        return limit.exceeded(self.read, self.failed)

    @property
    def docs_per_second(self) -> float:
        """Documents processed by this run per second of wall time."""
        return self.processed / self.seconds if self.seconds > 0 else 0.0

    @property
    def tokens_per_second(self) -> float:
        """Input tokens processed by this run per second of wall time."""
        return self.processed_tokens / self.seconds if self.seconds > 0 else 0.0

    def add(self, result: ShardResult, *, fresh: bool) -> None:
        """Count one shard's result (``fresh``: processed by this run, not resumed)."""
        self.read += result.read
        self.written += result.written
        self.failed += result.failed
        self.tokens += result.tokens
        self.characters += result.characters
        self.spans_by_label.update(result.spans_by_label)
        self.counters.update(result.counters)
        self.failures.extend(result.failures)
        self.with_patient += result.with_patient
        if fresh:
            self.processed += result.read
            self.processed_tokens += result.tokens
        else:
            self.resumed += 1

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON (ids and reasons of failures, never text)."""
        return {
            **super().to_json(),
            "tokens": self.tokens,
            "shards": self.shards,
            "resumed_shards": self.resumed,
            "processed": self.processed,
            "workers": self.workers,
            "docs_per_second": round(self.docs_per_second, 2),
            "tokens_per_second": round(self.tokens_per_second, 1),
            "counters": dict(sorted(self.counters.items())),
            "with_patient_id": self.with_patient,
            "max_failures": str(self.limit or DEFAULT_MAX_FAILURES),
            "ok": not self.too_many_failures,
        }


class Executor(Protocol):
    """Runs shard tasks and yields their results in completion order."""

    @property
    def workers(self) -> int:
        """How many shards can run at once."""

    def __call__(self, tasks: Iterable[ShardTask]) -> Iterator[ShardResult]:
        """Run the tasks."""


class LocalExecutor:
    """Runs the shards one after the other in this process; ``on_record`` hears of each record done."""

    workers = 1

    def __init__(self) -> None:
        self.on_record: Callable[[int], None] | None = None

    def __call__(self, tasks: Iterable[ShardTask]) -> Iterator[ShardResult]:
        """Run each task in turn."""
        for task in tasks:
            yield run_shard(task, on_record=self.on_record)


@contextmanager
def open_executor(options: BatchOptions) -> Iterator[Executor]:
    """This process, a new LocalCluster or the cluster at the scheduler's address."""
    if options.workers is None and options.scheduler is None:
        yield LocalExecutor()
        return
    from anonymed.runner.dask import dask_executor

    with dask_executor(options.workers, options.scheduler) as executor:
        yield executor


def default_workdir(output: Path) -> Path:
    """The work folder of a run writing ``output``: a hidden sibling."""
    return output.parent / f".{output.name}.anonymed-run"


class _Assembler:
    """Streams finished shard files into the writer in plan order, as soon as they are contiguous."""

    def __init__(self, writer: Writer, manifest: Manifest) -> None:
        self.writer = writer
        self.manifest = manifest
        self.next = 0
        self.ready: dict[int, ShardResult] = {}

    def add(self, result: ShardResult) -> None:
        self.ready[result.index] = result
        while self.next in self.ready:
            done = self.ready.pop(self.next)
            for record in read_shard_file(self.manifest.workdir / done.file, done.sha256):
                if isinstance(record, Document):
                    self.writer.write(record)
                else:
                    self.writer.write_failure(record)
            self.next += 1

    def check(self, plan: Plan) -> None:
        if self.next != len(plan.shards):
            raise OutputError(f"only {self.next} of {len(plan.shards)} shards were assembled")


class _Ticker:
    """Says when a progress report is due: every ``PROGRESS_INTERVAL`` seconds at most."""

    def __init__(self) -> None:
        self.last = time.monotonic()

    def due(self) -> bool:
        now = time.monotonic()
        if now - self.last < PROGRESS_INTERVAL:
            return False
        self.last = now
        return True


def _targets(writer: Writer) -> list[Path]:
    """The paths a writer (and the side writer of a tee) writes to."""
    side = getattr(writer, "side", None)
    return [writer.path, *([side.path] if isinstance(side, Writer) else [])]


def run_batch(
    spec: ReaderSpec,
    writer: Writer,
    method: MethodConfig,
    options: BatchOptions | None = None,
    *,
    on_progress: Callable[[BatchProgress], None] | None = None,
) -> BatchSummary:
    """Anonymize ``spec``'s input with ``method`` into ``writer`` (which this call commits).

    Failed records are written as placeholders; with ``options.strict`` the first one raises
    ``InputError`` and the output is not written (finished shards stay for the next attempt).
    """
    options = options or BatchOptions()
    started = time.perf_counter()
    plan = plan_shards(spec, options.shard_size)
    run = hashlib.blake2b(f"{plan.fingerprint}:{method.fingerprint()}".encode(), digest_size=16).hexdigest()
    workdir = (options.workdir or default_workdir(writer.path)).absolute()  # workers may run elsewhere
    with Manifest(workdir, run) as manifest:
        for target in _targets(writer):  # what a killed run of this output left behind
            remove_stale_temporaries(target)
        summary = BatchSummary(shards=len(plan.shards), limit=options.max_failures)
        assembler = _Assembler(writer, manifest)
        total = plan.documents
        ticker = _Ticker()

        def report(in_shard: int = 0) -> None:
            if on_progress is not None:
                done = len(manifest.finished)
                documents = summary.read + in_shard
                on_progress(BatchProgress(done, len(plan.shards), documents, summary.failed, total))

        def record_done(in_shard: int) -> None:
            if ticker.due():
                report(in_shard)

        tasks = [
            ShardTask(method, spec, shard, manifest.shard_path(shard.id), options.strict)
            for shard in plan.shards
            if shard.index not in manifest.finished
        ]
        with writer, open_executor(options) as execute:
            summary.workers = execute.workers
            if isinstance(execute, LocalExecutor):
                execute.on_record = record_done
            for index in sorted(manifest.finished):
                summary.add(manifest.finished[index], fresh=False)
                assembler.add(manifest.finished[index])
            report()
            for result in execute(tasks):
                manifest.add(result)
                summary.add(result, fresh=True)
                assembler.add(result)
                report()
            assembler.check(plan)
        summary.seconds = time.perf_counter() - started
        if not options.keep_workdir:
            manifest.remove()
    return summary
