"""``anonymed serve``: the REST service and web page under uvicorn, on loopback by default."""

from __future__ import annotations

import ipaddress
import logging
from pathlib import Path
from typing import Annotated

import typer

from anonymed.cli.common import console, handled_errors
from anonymed.config import LANGUAGES
from anonymed.errors import ConfigError

LOG_LEVELS = ("debug", "info", "warning", "error")
ISOLATION_ENV = "ANONYMED_ISOLATION"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def service_logging(level: str) -> None:
    """Send the service's own log lines (request ids, sizes, timings; never note text) to stderr."""
    logger = logging.getLogger("anonymed")
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        logger.addHandler(handler)
    logger.setLevel(level.upper())


def serve(
    host: Annotated[str, typer.Option("--host", help="Address to bind (loopback by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port.")] = 8000,
    max_body_bytes: Annotated[
        int, typer.Option("--max-body-bytes", help="Largest request body accepted (413 above).")
    ] = 1_000_000,
    timeout: Annotated[float, typer.Option("--timeout", help="Seconds per request before 504.")] = 10.0,
    workers: Annotated[
        int,
        typer.Option(
            "--workers", help="Worker processes doing the CPU work (threads with --isolation thread)."
        ),
    ] = 2,
    isolation: Annotated[
        str,
        typer.Option(
            "--isolation",
            envvar=ISOLATION_ENV,
            help="process: a timeout kills the request's worker process | thread: it cannot stop it.",
        ),
    ] = "process",
    lang: Annotated[str, typer.Option("--lang", help="Languages to load, comma-separated.")] = ",".join(
        LANGUAGES
    ),
    word_space: Annotated[
        Path | None, typer.Option("--word-space", help="Embedding space folder for word substitution.")
    ] = None,
    sentence_bank: Annotated[
        Path | None, typer.Option("--sentence-bank", help="Bank folder for sentence substitution.")
    ] = None,
    cors_origin: Annotated[
        list[str] | None,
        typer.Option("--cors-origin", help="Allowed browser origin, repeatable (none: closed)."),
    ] = None,
    log_level: Annotated[str, typer.Option("--log-level", help="debug | info | warning | error")] = "info",
    config: Annotated[
        Path | None,
        typer.Option("--config", help="TOML configuration under every request (whose fields override it)."),
    ] = None,
) -> None:
    """Serve the REST API and the web page; the API key, if any, comes from $ANONYMED_API_KEY(_FILE)."""
    import uvicorn

    from anonymed.methods.configure import configure
    from anonymed.service import ServiceSettings, create_app, read_api_key

    with handled_errors():
        if log_level.lower() not in LOG_LEVELS:
            raise ConfigError(f"--log-level must be one of {LOG_LEVELS}, got {log_level!r}")
        settings = ServiceSettings(
            max_body_bytes=max_body_bytes,
            timeout_seconds=timeout,
            workers=workers,
            isolation=isolation,  # type: ignore[arg-type]  # checked by ServiceSettings
            languages=tuple(x.strip() for x in lang.split(",") if x.strip()),
            word_space=word_space,
            sentence_bank=sentence_bank,
            api_key=read_api_key(),
            cors_origins=tuple(cors_origin or ()),
            config_file=config,
        )
        configure(config).pipeline()  # a bad configuration fails now, not in every worker
    if settings.api_key is None and not is_loopback(host):
        console.print(
            f"[yellow]warning:[/yellow] serving on {host} without an API key: anyone who can reach it can "
            "use it. Set ANONYMED_API_KEY or ANONYMED_API_KEY_FILE."
        )
    service_logging(log_level)
    console.print(f"anonymed service on http://{host}:{port}/ (loading models...)")
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        access_log=False,
        log_level=log_level.lower(),
        server_header=False,
    )


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to the main app."""
    app.command("serve")(serve)
