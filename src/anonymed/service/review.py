"""The review page's server (``anonymed review serve``): one note at a time, decisions appended durably.

Same stack and rules as the REST service, with its helpers: FastAPI, a static page with a strict CSP and
security headers, request ids and logs without note text (``RequestLog``), a body limit (``BodyLimit``),
422s that never echo the request, the optional API key (``X-API-Key``, constant-time check) and loopback
by default. Unlike the service it holds state (the review folder), so it also refuses requests whose
``Host`` is not an allowed name (DNS rebinding) and has no CORS at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

from fastapi import Depends, FastAPI, HTTPException, Query
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.middleware.trustedhost import TrustedHostMiddleware

from anonymed.errors import ConfigError
from anonymed.labels import SUBTYPES, Label
from anonymed.review.decisions import DecisionLog, Event
from anonymed.review.folder import ReviewFolder, ReviewNote
from anonymed.service.app import STATIC as SERVICE_STATIC
from anonymed.service.app import check_api_key, validation_error
from anonymed.service.middleware import BodyLimit, RequestLog
from anonymed.service.settings import MIN_API_KEY_LENGTH

STATIC = Path(__file__).resolve().parent / "static" / "review"
PATHS = ("/", "/api/info", "/api/progress", "/api/decisions")
REVIEWER_PATTERN = r"^[A-Za-z0-9._-]{1,64}$"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")
Action = Literal["accept", "reject", "relabel", "clear", "mark", "unmark", "done", "reopen"]


@dataclass(frozen=True)
class ReviewSettings:
    """The review server: its folder, the API key (from the environment) and the host names it answers."""

    folder: Path
    api_key: str | None = field(default=None, repr=False)
    max_body_bytes: int = 64_000
    allowed_hosts: tuple[str, ...] = LOOPBACK_NAMES

    def __post_init__(self) -> None:
        if self.api_key is not None and len(self.api_key) < MIN_API_KEY_LENGTH:
            raise ConfigError(f"the API key is too short: need at least {MIN_API_KEY_LENGTH} characters")
        if self.max_body_bytes < 1:
            raise ConfigError(f"max_body_bytes must be positive, got {self.max_body_bytes!r}")
        if "*" in self.allowed_hosts or not self.allowed_hosts:
            raise ConfigError("name each allowed host ('*' is refused)")


class DecisionRequest(BaseModel):
    """One reviewer action on one note (offsets count code points of the note's text)."""

    model_config = ConfigDict(extra="forbid")

    reviewer: str = Field(pattern=REVIEWER_PATTERN, description="The reviewer's id.")
    note: str = Field(max_length=32, description="The note's key.")
    action: Action = Field(description="What the reviewer did.")
    start: int | None = Field(None, ge=0, le=100_000_000)
    end: int | None = Field(None, ge=0, le=100_000_000)
    label: str | None = Field(None, max_length=40, description="LABEL or LABEL/subtype (relabel, mark).")


def _labels() -> list[str]:
    return [
        x for label in Label for x in (label.value, *(f"{label.value}/{s}" for s in sorted(SUBTYPES[label])))
    ]


def _note_json(position: int, note: ReviewNote, log: DecisionLog, reviewer: str) -> dict[str, Any]:
    spans = [
        {
            "start": s.start,
            "end": s.end,
            "label": s.full_label,
            "score": round(s.score, 3),
            "source": s.source,
        }
        for s in note.spans
    ]
    return {
        "position": position,
        "key": note.key,
        "id": note.id,
        "lang": note.lang,
        "text": note.text,
        "spans": spans,
        "state": log.state(reviewer, note.key).to_json(),
    }


def create_review_app(settings: ReviewSettings) -> FastAPI:
    """The review page and its API as an ASGI app; run it with uvicorn (``anonymed review serve``)."""
    folder = ReviewFolder(settings.folder)
    notes = folder.notes
    positions = {note.key: i for i, note in enumerate(notes)}
    log = DecisionLog(folder.decisions_path)
    app = FastAPI(
        title="anonymed review",
        version=metadata.version("anonymed"),
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )
    app.state.settings = settings
    app.add_exception_handler(RequestValidationError, validation_error)
    keyed = [Depends(check_api_key)]

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "review.html", media_type="text/html")

    @app.get("/api/info", dependencies=keyed)
    def info() -> dict[str, Any]:
        log.refresh()
        manifest = folder.manifest
        return {
            "name": "anonymed review",
            "version": metadata.version("anonymed"),
            "notes": len(notes),
            "labels": _labels(),
            "top_labels": [label.value for label in Label],
            "reviewers": log.reviewers(),
            "input": manifest["input"]["fingerprint"],
            "detectors": manifest["detection"]["detectors"],
        }

    @app.get("/api/progress", dependencies=keyed)
    def progress(reviewer: str = Query(pattern=REVIEWER_PATTERN)) -> dict[str, Any]:
        log.refresh()
        done = [log.state(reviewer, note.key).done for note in notes]
        finished_by = [sum(log.state(r, n.key).done for r in log.reviewers()) for n in notes]
        return {"reviewer": reviewer, "done": done, "finished_by": finished_by, "total": len(notes)}

    @app.get("/api/notes/{position}", dependencies=keyed)
    def note(position: int, reviewer: str = Query(pattern=REVIEWER_PATTERN)) -> dict[str, Any]:
        if not 0 <= position < len(notes):
            raise HTTPException(404, f"no note at position {position} (0-{len(notes) - 1})")
        log.refresh()
        return _note_json(position, notes[position], log, reviewer)

    @app.post("/api/decisions", dependencies=keyed)
    def decide(body: DecisionRequest) -> dict[str, Any]:
        if body.note not in positions:
            raise HTTPException(404, "no such note")
        try:
            event = Event(body.reviewer, body.note, body.action, body.start, body.end, body.label)
        except ConfigError as exc:
            raise HTTPException(422, str(exc)) from None
        try:
            state = log.append(event, folder.by_key[body.note])
        except ConfigError as exc:
            raise HTTPException(409, str(exc)) from None
        return {"position": positions[body.note], "state": state.to_json()}

    app.mount("/service-static", StaticFiles(directory=SERVICE_STATIC), name="service-static")  # the look
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(settings.allowed_hosts))
    app.add_middleware(RequestLog, known_paths=PATHS)
    return app


def allowed_hosts(host: str, names: Sequence[str] = ()) -> tuple[str, ...]:
    """The host names a server bound to ``host`` answers: loopback names, ``host`` and the ``names`` given.

    A server bound to all interfaces (``0.0.0.0``) is reached by a name or address of the machine: name it.
    """
    return tuple(dict.fromkeys((*LOOPBACK_NAMES, host, *names)))
