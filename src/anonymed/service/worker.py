"""A worker process of the service: loads its engine once, then answers the tasks sent over its pipe.

Messages from the server: ``(task name, request body)``, or ``None`` to stop. Replies: ``("ready", methods)``
once the engine is loaded, then ``("ok", response)`` or ``("failed", Failure)`` per task, in order.
Nothing the worker logs or replies in a failure carries note text.
"""

from __future__ import annotations

import gc
import logging
import signal
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from anonymed.processes import watch_parent
from anonymed.service.engine import Engine
from anonymed.service.settings import ServiceSettings
from anonymed.service.tasks import WorkFailed, failure_of, run_task

log = logging.getLogger("anonymed.service")
EngineHook = Callable[[Engine], None]


@dataclass(frozen=True)
class WorkerSpec:
    """What a worker needs: settings (without the API key), the server's log level, and a hook.

    ``hook`` (pickled by reference: a module-level function) is a test-only way to change the engine of
    every worker; the API cannot reach it.
    """

    settings: ServiceSettings
    log_level: int
    hook: EngineHook | None = None


def _setup(spec: WorkerSpec) -> Engine:
    """Signals and logging as the server wants them, a watch on the server; the engine loaded and hooked."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the server stops us
    watch_parent()  # ends this worker as soon as the server ends, even in the middle of a task
    logger = logging.getLogger("anonymed")
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(
            logging.Formatter("%(asctime)s %(levelname)s %(name)s[%(process)d]: %(message)s")
        )
        logger.addHandler(handler)
    logger.setLevel(spec.log_level)
    engine = Engine(spec.settings)
    engine.load()
    if spec.hook is not None:
        spec.hook(engine)
    gc.collect()
    gc.freeze()  # the engine lives as long as the worker: keep it out of the collector's full passes
    return engine


def answer(engine: Engine, message: Any) -> tuple[str, Any]:
    """The reply to one task message: its response, or the failure (status and detail, no text)."""
    try:
        name, body = message
        return ("ok", run_task(engine, name, body))
    except WorkFailed as failed:
        return ("failed", failed.failure)
    except Exception as exc:  # a malformed message
        return ("failed", failure_of(exc))


def serve(conn: Connection, spec: WorkerSpec) -> None:
    """Main of a worker process: load, say ready with the methods offered, then answer until told to stop."""
    try:
        engine = _setup(spec)
    except Exception as exc:
        conn.send(("failed", failure_of(exc)))
        return
    conn.send(("ready", engine.methods()))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):  # the server is gone
            return
        if message is None:
            return
        reply = answer(engine, message)
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception as exc:  # the response could not be pickled: say so, without its content
            log.error("worker could not send a response: %s", type(exc).__name__)
            conn.send(("failed", failure_of(exc)))
