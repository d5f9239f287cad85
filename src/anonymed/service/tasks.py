"""The work of each endpoint, from request to response body; the same code runs in a thread or a worker.

A task returns a pydantic response (picklable, unlike documents) whose ``elapsed_ms`` the server fills in.
A failed task is described by a ``Failure``: an HTTP status and a detail free of note text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from anonymed.document import Document
from anonymed.errors import AnonymedError, MethodUnavailable
from anonymed.service.engine import Engine
from anonymed.service.models import (
    DeidRequest,
    DeidResponse,
    DetectResponse,
    EvaluateRequest,
    EvaluateResponse,
    NoteRequest,
    ReplacementOut,
    SpanOut,
)

Task = Callable[[Engine, Any], BaseModel]


@dataclass(frozen=True)
class Failure:
    """Why a task failed: the HTTP status and a detail without note text (for 500: the exception's type)."""

    status: int
    detail: str


class WorkFailed(Exception):
    """A task failed in a thread or a worker process; carries the ``Failure``."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.status)
        self.failure = failure


def failure_of(exc: BaseException) -> Failure:
    """501 for a method not offered, 422 for anonymed's own errors (no text), else 500 with the type only."""
    if isinstance(exc, MethodUnavailable):
        return Failure(501, str(exc))
    if isinstance(exc, AnonymedError):
        return Failure(422, str(exc))
    return Failure(500, type(exc).__name__)


def plain(value: Any) -> Any:
    """Mappings and tuples (possibly frozen) turned into JSON-ready dicts and lists."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def spans_out(doc: Document) -> list[SpanOut]:
    """A document's spans as response models."""
    return [SpanOut(**span.to_json()) for span in doc.spans]


def detect(engine: Engine, body: NoteRequest) -> DetectResponse:
    """``POST /detect``: the spans found in the note."""
    doc = engine.detect_note(body)
    return DetectResponse(id=doc.id, spans=spans_out(doc), elapsed_ms=0.0)


def deid(engine: Engine, body: DeidRequest) -> DeidResponse:
    """``POST /deid``: the anonymized note, its spans, replacements and privacy report."""
    doc = engine.deid(body)
    return DeidResponse(
        id=doc.id,
        method=body.method,
        output=doc.result,
        spans=spans_out(doc),
        replacements=[ReplacementOut(**r.to_json()) for r in doc.replacements],
        privacy=plain(doc.privacy),
        seeded=engine.configured(body).seed is not None,
        elapsed_ms=0.0,
    )


def evaluate(engine: Engine, body: EvaluateRequest) -> EvaluateResponse:
    """``POST /evaluate``: detection metrics of the note and the predicted spans."""
    report, spans = engine.evaluate(body)
    return EvaluateResponse(
        id=body.id, report=report.to_json(), spans=[SpanOut(**s.to_json()) for s in spans], elapsed_ms=0.0
    )


#: task name (sent to workers) -> function
TASKS: dict[str, Task] = {"detect": detect, "deid": deid, "evaluate": evaluate}


def run_task(engine: Engine, name: str, body: BaseModel) -> BaseModel:
    """Run one task in this thread or worker; any error becomes ``WorkFailed`` (status, text-free detail)."""
    try:
        return TASKS[name](engine, body)
    except Exception as exc:
        raise WorkFailed(failure_of(exc)) from None
