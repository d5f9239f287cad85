"""The single-process batch runner: read, process, write, count; failures are recorded, never dropped."""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from anonymed.document import Document
from anonymed.errors import AnonymedError, InputError
from anonymed.io.base import ReadFailure, Record, Writer

log = logging.getLogger(__name__)

Process = Callable[[Document], Document]


@dataclass
class RunSummary:
    """What a run did: records read / written / failed, spans per label, characters, wall time."""

    read: int = 0
    written: int = 0
    failed: int = 0
    spans_by_label: Counter[str] = field(default_factory=Counter)
    characters: int = 0
    seconds: float = 0.0
    failures: list[ReadFailure] = field(default_factory=list)

    @property
    def docs_per_second(self) -> float:
        """Throughput over the whole run."""
        return self.read / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON (ids and reasons of failures, never text)."""
        return {
            "read": self.read,
            "written": self.written,
            "failed": self.failed,
            "spans_by_label": dict(sorted(self.spans_by_label.items())),
            "characters": self.characters,
            "seconds": round(self.seconds, 3),
            "failures": [{"index": f.index, "id": f.record_id, "reason": f.reason} for f in self.failures],
        }


def _reason(exc: BaseException) -> str:
    """A failure reason that cannot carry note text: our own messages, or only the exception type."""
    if isinstance(exc, AnonymedError):
        return str(exc)
    return f"{type(exc).__name__} while processing"


def run_corpus(
    records: Iterable[Record],
    writer: Writer,
    process: Process,
    *,
    strict: bool = False,
) -> RunSummary:
    """Process every record in input order and write it (or a failure placeholder) to ``writer``.

    With ``strict``, the first failure raises ``InputError`` (the writer's context aborts the output).
    """
    summary = RunSummary()
    started = time.perf_counter()
    for index, record in enumerate(records):
        summary.read += 1
        if isinstance(record, Document):
            try:
                done = process(record)
            except Exception as exc:  # one bad record must not stop the run
                record = ReadFailure(index, record.id, _reason(exc))
            else:
                writer.write(done)
                summary.written += 1
                summary.characters += len(done.text)
                summary.spans_by_label.update(s.label.value for s in done.spans)
        if isinstance(record, ReadFailure):
            log.warning("record %s (index %d) failed: %s", record.record_id, record.index, record.reason)
            if strict:
                raise InputError(record.record_id, record.reason)
            writer.write_failure(record)
            summary.failed += 1
            summary.failures.append(record)
    summary.seconds = time.perf_counter() - started
    return summary
