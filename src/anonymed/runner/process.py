"""What a worker runs: a picklable process factory, built once per worker, applied shard by shard.

Any method plugs into the batch runner through a ``ProcessFactory``: a small picklable object (its
configuration only) whose ``build`` loads the models and returns the per-document process. A worker
process keeps the last process it built, keyed by the factory's fingerprint, so models load once per
worker however many shards it runs. ``run_shard`` is the task: read a shard, process it, write the shard
file atomically, return its counts.

Determinism: a process must not let one document's output depend on the documents processed before it
in the same worker (the pipeline and the word obfuscator draw from per-document streams keyed by the
document id). A factory that needs a running stream overrides ``for_shard`` and draws from
``shard_stream(seed, shard_id)``: shard boundaries depend on the input and shard size only, so the output
is the same whatever the number of workers.
"""

from __future__ import annotations

import hashlib
import threading
import time
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from anonymed.document import Document
from anonymed.io.base import Record
from anonymed.io.shards import Shard
from anonymed.randomness import RandomSource, check_random_state
from anonymed.runner.local import run_corpus
from anonymed.runner.manifest import ShardResult
from anonymed.runner.shardfile import ShardFileWriter, dumps
from anonymed.runner.shards import ReaderSpec

Process = Callable[[Document], Document]


def shard_stream(seed: int | None, shard_id: str) -> RandomSource:
    """The random stream of one shard: derived from the seed and the shard id (secure without a seed)."""
    return check_random_state(seed).spawn(f"shard:{shard_id}")


class ProcessFactory(ABC):
    """A picklable recipe for the per-document process of a batch run."""

    #: the name shown in progress bars and summaries
    name: str = "process"

    @abstractmethod
    def build(self) -> Process:
        """Load the models and return the per-document process; called once per worker process."""

    def for_shard(self, process: Process, shard_id: str) -> Process:
        """The process for one shard (the same by default); override to use ``shard_stream``."""
        return process

    def tally(self, doc: Document) -> Mapping[str, int]:
        """Counts of one processed document summed over the run (e.g. tokens replaced); none by default."""
        return {}

    def fingerprint(self) -> str:
        """A digest of what the process does: finished shards of another process are not reused."""
        return hashlib.blake2b(dumps(self), digest_size=16).hexdigest()


@dataclass(frozen=True)
class ShardTask:
    """One unit of work: which shard of which input, with which process, written where."""

    factory: ProcessFactory
    spec: ReaderSpec
    shard: Shard
    path: Path
    strict: bool = False


_BUILT: dict[str, Process] = {}
_BUILD_LOCK = threading.Lock()


def built_process(factory: ProcessFactory) -> tuple[Process, bool]:
    """This worker's process for ``factory`` (built on first use) and whether this call built it."""
    key = factory.fingerprint()
    with _BUILD_LOCK:
        if key in _BUILT:
            return _BUILT[key], False
        _BUILT.clear()  # keep one set of models per worker: memory stays bounded
        _BUILT[key] = factory.build()
        return _BUILT[key], True


class _Tallies:
    """Counts input tokens as records stream in, and the factory's counts as documents come out."""

    def __init__(self, factory: ProcessFactory, process: Process) -> None:
        self.factory = factory
        self.process = process
        self.tokens = 0
        self.counters: Counter[str] = Counter()

    def records(self, records: Iterable[Record]) -> Iterator[Record]:
        for record in records:
            if isinstance(record, Document):
                self.tokens += len(record.text.split())
            yield record

    def __call__(self, doc: Document) -> Document:
        done = self.process(doc)
        self.counters.update(self.factory.tally(done))
        return done


def run_shard(task: ShardTask) -> ShardResult:
    """Process one shard and write its file; the counts go back to the driver (never text)."""
    started = time.perf_counter()
    process, built = built_process(task.factory)
    tallies = _Tallies(task.factory, task.factory.for_shard(process, task.shard.id))
    records = tallies.records(task.spec.open().read_shard(task.shard))
    writer = ShardFileWriter(task.path)
    with writer:
        summary = run_corpus(records, writer, tallies, strict=task.strict)
    return ShardResult(
        index=task.shard.index,
        file=task.path.name,
        sha256=writer.sha256,
        size=writer.size,
        read=summary.read,
        written=summary.written,
        failed=summary.failed,
        tokens=tallies.tokens,
        characters=summary.characters,
        seconds=time.perf_counter() - started,
        spans_by_label=dict(summary.spans_by_label),
        counters=dict(tallies.counters),
        failures=tuple(summary.failures),
        built=built,
    )
