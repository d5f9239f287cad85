"""The FastAPI app: REST endpoints, the web page, limits, API key; models load once at start-up."""

from __future__ import annotations

import hmac
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib import metadata
from pathlib import Path
from typing import Any, TypeVar

from fastapi import Depends, FastAPI, HTTPException, Request, Security
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse, JSONResponse
from fastapi.security import APIKeyHeader
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel

from anonymed.detect.registry import DETECTORS
from anonymed.labels import Label
from anonymed.service.middleware import BodyLimit, RequestLog
from anonymed.service.models import (
    DeidRequest,
    DeidResponse,
    DetectResponse,
    EvaluateRequest,
    EvaluateResponse,
    HealthResponse,
    MethodInfo,
    NoteRequest,
    VersionResponse,
)
from anonymed.service.runners import Runner, make_runner
from anonymed.service.settings import ServiceSettings
from anonymed.service.tasks import WorkFailed
from anonymed.service.worker import EngineHook
from anonymed.substitute.registry import OPERATORS

log = logging.getLogger("anonymed.service")
STATIC = Path(__file__).resolve().parent / "static"
PATHS = ("/", "/health", "/version", "/detect", "/deid", "/evaluate", "/openapi.json")
R = TypeVar("R", bound=BaseModel)
api_key_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="Required if configured.")


def check_api_key(request: Request, given: str | None = Security(api_key_header)) -> None:
    """Refuse the request (401) unless the configured API key is given; compared in constant time."""
    expected: str | None = request.app.state.settings.api_key
    if expected is None:
        return
    if given is None or not hmac.compare_digest(given.encode(), expected.encode()):
        raise HTTPException(401, "missing or wrong API key (header X-API-Key)")


async def run_work(request: Request, task: str, body: BaseModel, answer: type[R]) -> R:
    """Run a task under the per-request timeout (worker process or thread); map errors to HTTP statuses."""
    state = request.app.state
    timeout: float = state.settings.timeout_seconds
    started = time.perf_counter()
    try:
        response = await state.runner.run(task, body, timeout)
    except TimeoutError:
        raise HTTPException(504, f"processing took longer than {timeout:g} s") from None
    except WorkFailed as failed:
        status, detail = failed.failure.status, failed.failure.detail
        if status != 500:
            raise HTTPException(status, detail) from None
        request_id = request.state.request_id
        log.error("request id=%s failed: %s", request_id, detail)
        raise HTTPException(500, f"internal error (request id {request_id})") from None
    if not isinstance(response, answer):
        raise TypeError(f"task {task!r} answered {type(response).__name__}, not {answer.__name__}")
    return response.model_copy(update={"elapsed_ms": _elapsed(started)})


def _elapsed(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)


async def validation_error(request: Request, exc: Exception) -> JSONResponse:
    """422 without echoing the submitted values (they may be note text)."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    detail = [
        {"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")} for e in errors
    ]
    return JSONResponse({"detail": detail}, status_code=422)


def _lifespan(settings: ServiceSettings, engine_hook: EngineHook | None) -> Callable[[FastAPI], Any]:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        runner: Runner = make_runner(settings, engine_hook)
        started = time.perf_counter()
        await runner.start()
        log.info(
            "models loaded languages=%s isolation=%s workers=%d seconds=%.1f",
            ",".join(settings.languages),
            settings.isolation,
            settings.workers,
            _elapsed(started) / 1000,
        )
        app.state.runner = runner
        try:
            yield
        finally:
            await runner.stop()

    return lifespan


def create_app(settings: ServiceSettings | None = None, *, engine_hook: EngineHook | None = None) -> FastAPI:
    """The service as an ASGI app; run it with uvicorn (``anonymed serve``).

    ``engine_hook`` is for tests only: called with each engine once loaded (in every worker process, so a
    picklable module-level function when ``settings.isolation`` is ``"process"``).
    """
    settings = settings if settings is not None else ServiceSettings()
    app = FastAPI(
        title="anonymed",
        version=metadata.version("anonymed"),
        summary="De-identify clinical notes: detect PHI, replace it, obfuscate words, evaluate detection.",
        lifespan=_lifespan(settings, engine_hook),
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    app.add_exception_handler(RequestValidationError, validation_error)
    _add_routes(app)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(settings.cors_origins),
            allow_methods=["GET", "POST"],
            allow_headers=["content-type", "x-api-key", "x-request-id"],
        )
    app.add_middleware(RequestLog, known_paths=PATHS)
    return app


def _add_routes(app: FastAPI) -> None:
    keyed = [Depends(check_api_key)]

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    @app.get("/health", response_model=HealthResponse, summary="Liveness and readiness")
    async def health(request: Request) -> HealthResponse:
        runner: Runner | None = getattr(request.app.state, "runner", None)
        ready = 0 if runner is None else runner.workers_ready
        settings: ServiceSettings = request.app.state.settings
        return HealthResponse(status="ok", ready=ready > 0, workers_ready=ready, workers=settings.workers)

    @app.get("/version", response_model=VersionResponse, dependencies=keyed, summary="Version and offer")
    async def version(request: Request) -> VersionResponse:
        runner: Runner = request.app.state.runner
        settings: ServiceSettings = request.app.state.settings
        return VersionResponse(
            name="anonymed",
            version=metadata.version("anonymed"),
            languages=list(settings.languages),
            methods={k: MethodInfo(available=v is None, reason=v) for k, v in runner.methods().items()},
            detectors=sorted(DETECTORS),
            operators=sorted(OPERATORS),
            labels=[label.value for label in Label],
            max_body_bytes=settings.max_body_bytes,
            timeout_seconds=settings.timeout_seconds,
            api_key_required=settings.api_key is not None,
        )

    @app.post("/detect", response_model=DetectResponse, dependencies=keyed, summary="Find PHI in a note")
    async def detect(body: NoteRequest, request: Request) -> DetectResponse:
        return await run_work(request, "detect", body, DetectResponse)

    @app.post("/deid", response_model=DeidResponse, dependencies=keyed, summary="Anonymize a note")
    async def deid(body: DeidRequest, request: Request) -> DeidResponse:
        return await run_work(request, "deid", body, DeidResponse)

    @app.post("/evaluate", response_model=EvaluateResponse, dependencies=keyed, summary="Score detection")
    async def evaluate(body: EvaluateRequest, request: Request) -> EvaluateResponse:
        return await run_work(request, "evaluate", body, EvaluateResponse)
