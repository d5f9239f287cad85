"""What a worker runs: a method configuration, built once per worker, applied shard by shard.

Any method plugs into the batch runner through its configuration (``anonymed.methods``): small picklable
data whose ``build()`` gives the method and whose ``fingerprint()`` names what it does. A worker process
keeps the last method it built, keyed by that fingerprint, so models load once per worker however many
shards it runs. ``run_shard`` is the task: read a shard, process it, write the shard file atomically,
return its counts.

Determinism: every method draws from per-document streams keyed by the document id (the seed rule of
``anonymed.methods.base``), so a document's output does not depend on the documents processed before it
in the same worker, on the shard size or on the number of workers.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from anonymed.document import Document
from anonymed.io.base import Record
from anonymed.io.shards import Shard
from anonymed.methods import Method, MethodConfig, build_method
from anonymed.runner.local import run_corpus
from anonymed.runner.manifest import ShardResult
from anonymed.runner.shardfile import ShardFileWriter
from anonymed.runner.shards import ReaderSpec


@dataclass(frozen=True)
class ShardTask:
    """One unit of work: which shard of which input, with which method, written where."""

    method: MethodConfig
    spec: ReaderSpec
    shard: Shard
    path: Path
    strict: bool = False


_BUILT: dict[str, Method[Any]] = {}
_BUILD_LOCK = threading.Lock()


def built_method(config: MethodConfig) -> tuple[Method[Any], bool]:
    """This worker's method for ``config`` (built and loaded on first use) and whether this call built it."""
    key = config.fingerprint()
    with _BUILD_LOCK:
        if key in _BUILT:
            return _BUILT[key], False
        _BUILT.clear()  # keep one set of models per worker: memory stays bounded
        _BUILT[key] = build_method(config)
        return _BUILT[key], True


class _Tallies:
    """Counts input tokens and documents naming a patient as records stream in, and the method's counts
    as documents come out; ``on_record(n)`` hears that the shard's first n records are done."""

    def __init__(self, method: Method[Any], on_record: Callable[[int], None] | None = None) -> None:
        self.method = method
        self.tokens = 0
        self.with_patient = 0
        self.counters: Counter[str] = Counter()
        self.on_record = on_record

    def records(self, records: Iterable[Record]) -> Iterator[Record]:
        for done, record in enumerate(records):
            if self.on_record is not None and done:
                self.on_record(done)
            if isinstance(record, Document):
                self.tokens += len(record.text.split())
                self.with_patient += record.patient_id is not None
            yield record

    def __call__(self, doc: Document) -> Document:
        done = self.method(doc)
        self.counters.update(self.method.tally(done))
        return done


def run_shard(task: ShardTask, on_record: Callable[[int], None] | None = None) -> ShardResult:
    """Process one shard and write its file; the counts go back to the driver (never text).

    ``on_record(n)`` (a run in this process: its progress bar) is called as the shard's records are done.
    """
    started = time.perf_counter()
    method, built = built_method(task.method)
    tallies = _Tallies(method, on_record)
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
        with_patient=tallies.with_patient,
    )
