"""Where requests run: worker processes that a timeout kills (default), or threads of the server."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from pydantic import BaseModel

from anonymed.service.engine import Engine
from anonymed.service.pool import ProcessPool
from anonymed.service.settings import ServiceSettings
from anonymed.service.tasks import run_task
from anonymed.service.worker import EngineHook


class Runner(Protocol):
    """Runs the endpoints' tasks under a timeout; loads the models at start, frees everything at stop."""

    @property
    def workers_ready(self) -> int:
        """How many workers can take a request now."""

    def methods(self) -> dict[str, str | None]:
        """Method name -> None if it can run, else why not."""

    async def start(self) -> None:
        """Load the models (the service is ready when this returns)."""

    async def stop(self) -> None:
        """Stop every worker."""

    async def run(self, task: str, body: BaseModel, timeout: float) -> Any:
        """The task's response; ``TimeoutError`` past ``timeout`` seconds; ``WorkFailed`` on an error."""


class ThreadRunner:
    """Requests in threads of the server, sharing one engine: a timeout answers 504 but cannot stop them."""

    def __init__(self, settings: ServiceSettings, hook: EngineHook | None = None) -> None:
        self.settings = settings
        self.hook = hook
        self.engine = Engine(settings)
        self._executor = ThreadPoolExecutor(max_workers=settings.workers, thread_name_prefix="anonymed")

    @property
    def workers_ready(self) -> int:
        """Every thread once the engine is loaded, else none."""
        return self.settings.workers if self.engine.ready else 0

    def methods(self) -> dict[str, str | None]:
        """Method name -> None if it can run, else why not."""
        return self.engine.methods()

    def _load(self) -> None:
        self.engine.load()
        if self.hook is not None:
            self.hook(self.engine)

    async def start(self) -> None:
        """Load the engine in a worker thread."""
        await asyncio.get_running_loop().run_in_executor(self._executor, self._load)

    async def stop(self) -> None:
        """Drop queued requests; running ones end on their own."""
        self._executor.shutdown(wait=False, cancel_futures=True)

    async def run(self, task: str, body: BaseModel, timeout: float) -> Any:
        """The task's response, run in a thread; ``TimeoutError`` past ``timeout`` (the thread runs on)."""
        future = asyncio.get_running_loop().run_in_executor(self._executor, run_task, self.engine, task, body)
        return await asyncio.wait_for(future, timeout)


def make_runner(settings: ServiceSettings, hook: EngineHook | None = None) -> Runner:
    """The runner ``settings.isolation`` names; ``hook`` changes each engine after it loads (tests only)."""
    if settings.isolation == "thread":
        return ThreadRunner(settings, hook)
    return ProcessPool(settings, hook)
