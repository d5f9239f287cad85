"""The FastAPI app: REST endpoints, the web page, limits, API key; models load once at start-up."""

from __future__ import annotations

import asyncio
import hmac
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from fastapi import Depends, FastAPI, HTTPException, Request, Security
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse, JSONResponse
from fastapi.security import APIKeyHeader
from fastapi.staticfiles import StaticFiles

from anonymed import __version__
from anonymed.detect.registry import DETECTORS
from anonymed.document import Document
from anonymed.errors import AnonymedError
from anonymed.labels import Label
from anonymed.service.engine import Engine
from anonymed.service.methods import MethodUnavailable
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
    ReplacementOut,
    SpanOut,
    VersionResponse,
)
from anonymed.service.settings import ServiceSettings
from anonymed.substitute.registry import OPERATORS

log = logging.getLogger("anonymed.service")
STATIC = Path(__file__).resolve().parent / "static"
PATHS = ("/", "/health", "/version", "/detect", "/deid", "/evaluate", "/openapi.json")
T = TypeVar("T")
api_key_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="Required if configured.")


def check_api_key(request: Request, given: str | None = Security(api_key_header)) -> None:
    """Refuse the request (401) unless the configured API key is given; compared in constant time."""
    expected: str | None = request.app.state.settings.api_key
    if expected is None:
        return
    if given is None or not hmac.compare_digest(given.encode(), expected.encode()):
        raise HTTPException(401, "missing or wrong API key (header X-API-Key)")


async def run_work(request: Request, work: Callable[[], T]) -> T:
    """Run CPU work in the worker pool under the per-request timeout; map errors to HTTP statuses."""
    state = request.app.state
    timeout: float = state.settings.timeout_seconds
    future = asyncio.get_running_loop().run_in_executor(state.executor, work)
    try:
        return await asyncio.wait_for(future, timeout)
    except TimeoutError:
        raise HTTPException(504, f"processing took longer than {timeout:g} s") from None
    except MethodUnavailable as exc:
        raise HTTPException(501, str(exc)) from None
    except AnonymedError as exc:
        raise HTTPException(422, str(exc)) from None
    except Exception as exc:
        request_id = request.state.request_id
        log.error("request id=%s failed: %s", request_id, type(exc).__name__)
        raise HTTPException(500, f"internal error (request id {request_id})") from None


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


def _elapsed(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)


async def validation_error(request: Request, exc: Exception) -> JSONResponse:
    """422 without echoing the submitted values (they may be note text)."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    detail = [
        {"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")} for e in errors
    ]
    return JSONResponse({"detail": detail}, status_code=422)


def _lifespan(settings: ServiceSettings) -> Callable[[FastAPI], Any]:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        executor = ThreadPoolExecutor(max_workers=settings.workers, thread_name_prefix="anonymed")
        engine = Engine(settings)
        started = time.perf_counter()
        await asyncio.get_running_loop().run_in_executor(executor, engine.load)
        log.info(
            "models loaded languages=%s seconds=%.1f", ",".join(settings.languages), _elapsed(started) / 1000
        )
        app.state.engine, app.state.executor = engine, executor
        try:
            yield
        finally:
            executor.shutdown(wait=False, cancel_futures=True)

    return lifespan


def create_app(settings: ServiceSettings | None = None) -> FastAPI:
    """The service as an ASGI app; run it with uvicorn (``anonymed serve``)."""
    settings = settings if settings is not None else ServiceSettings()
    app = FastAPI(
        title="anonymed",
        version=__version__,
        summary="De-identify clinical notes: detect PHI, replace it, obfuscate words, evaluate detection.",
        lifespan=_lifespan(settings),
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
        engine: Engine | None = getattr(request.app.state, "engine", None)
        return HealthResponse(status="ok", ready=engine is not None and engine.ready)

    @app.get("/version", response_model=VersionResponse, dependencies=keyed, summary="Version and offer")
    async def version(request: Request) -> VersionResponse:
        engine: Engine = request.app.state.engine
        settings: ServiceSettings = request.app.state.settings
        return VersionResponse(
            name="anonymed",
            version=__version__,
            languages=list(settings.languages),
            methods={k: MethodInfo(available=v is None, reason=v) for k, v in engine.methods().items()},
            detectors=sorted(DETECTORS),
            operators=sorted(OPERATORS),
            labels=[label.value for label in Label],
            max_body_bytes=settings.max_body_bytes,
            timeout_seconds=settings.timeout_seconds,
            api_key_required=settings.api_key is not None,
        )

    @app.post("/detect", response_model=DetectResponse, dependencies=keyed, summary="Find PHI in a note")
    async def detect(body: NoteRequest, request: Request) -> DetectResponse:
        started, engine = time.perf_counter(), request.app.state.engine
        doc = await run_work(request, lambda: engine.detect(body.text, body.lang, body.detectors, body.id))
        return DetectResponse(id=doc.id, spans=spans_out(doc), elapsed_ms=_elapsed(started))

    @app.post("/deid", response_model=DeidResponse, dependencies=keyed, summary="Anonymize a note")
    async def deid(body: DeidRequest, request: Request) -> DeidResponse:
        started, engine = time.perf_counter(), request.app.state.engine
        doc = await run_work(request, lambda: engine.deid(body))
        return DeidResponse(
            id=doc.id,
            method=body.method,
            output=doc.result,
            spans=spans_out(doc),
            replacements=[ReplacementOut(**r.to_json()) for r in doc.replacements],
            privacy=plain(doc.privacy),
            seeded=body.seed is not None,
            elapsed_ms=_elapsed(started),
        )

    @app.post("/evaluate", response_model=EvaluateResponse, dependencies=keyed, summary="Score detection")
    async def evaluate(body: EvaluateRequest, request: Request) -> EvaluateResponse:
        started, engine = time.perf_counter(), request.app.state.engine
        report, spans = await run_work(request, lambda: engine.evaluate(body))
        return EvaluateResponse(
            id=body.id,
            report=report.to_json(),
            spans=[SpanOut(**s.to_json()) for s in spans],
            elapsed_ms=_elapsed(started),
        )
