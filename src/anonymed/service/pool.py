"""Requests in worker processes: a timeout kills the worker running the request and starts a fresh one.

Workers come from a fork server (a fresh interpreter that imported and warmed the models once, see
``anonymed.service.preload``), else are spawned; never forked from the threaded server. Each worker runs one
request at a time; requests wait for a free worker, and the wait counts in their timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any

from pydantic import BaseModel

from anonymed.errors import ResourceError
from anonymed.service.settings import ServiceSettings
from anonymed.service.tasks import Failure, WorkFailed
from anonymed.service.worker import EngineHook, WorkerSpec, serve

log = logging.getLogger("anonymed.service")
PRELOAD = ["anonymed.service.preload"]


def start_context() -> BaseContext:
    """The fork server where available (its workers share the warmed models), else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        return context
    return multiprocessing.get_context("spawn")


class NotDelivered(Exception):
    """A task could not be sent: the worker had ended (it never started the task)."""


@dataclass(eq=False)
class Worker:
    """One worker process, the server's end of its pipe and the methods its engine offers."""

    process: BaseProcess
    conn: Connection
    methods: dict[str, str | None] = field(default_factory=dict)

    def exchange(self, message: Any) -> Any:
        """Send a task and wait for its reply (blocking: run in a thread); the pipe closes on failure.

        ``NotDelivered`` if the worker had ended before the task could be sent.
        """
        try:
            try:
                self.conn.send(message)
            except (BrokenPipeError, ConnectionResetError):
                raise NotDelivered from None
            return self.conn.recv()
        except BaseException:
            self.conn.close()
            raise


def kill(process: BaseProcess) -> None:
    """SIGKILL a started process that has not ended."""
    if process.pid is not None and process.exitcode is None:
        process.kill()


async def reaped(processes: list[BaseProcess], seconds: float = 5.0) -> None:
    """Wait until these processes have ended and been reaped (polling: no thread is blocked)."""
    deadline = asyncio.get_running_loop().time() + seconds
    while any(p.pid is not None and p.is_alive() for p in processes):
        if asyncio.get_running_loop().time() > deadline:
            log.error("worker processes did not end %.0f s after SIGKILL", seconds)
            return
        await asyncio.sleep(0.005)


class ProcessPool:
    """``settings.workers`` worker processes, each with its own engine; one request per worker at a time."""

    def __init__(self, settings: ServiceSettings, hook: EngineHook | None = None) -> None:
        self.settings = settings
        self.hook = hook
        self.start_timeout = 600.0
        self._context = start_context()
        self._workers: set[Worker] = set()
        self._starting: set[BaseProcess] = set()
        self._replacing: set[asyncio.Task[None]] = set()
        self._idle: asyncio.Queue[Worker] | None = None
        self._io = ThreadPoolExecutor(max_workers=2 * settings.workers + 1, thread_name_prefix="anonymed-io")
        self._methods: dict[str, str | None] = {}
        self._closed = False

    @property
    def workers_ready(self) -> int:
        """How many workers are loaded and alive."""
        return sum(w.process.is_alive() for w in self._workers)

    def pids(self) -> list[int]:
        """Process ids of the loaded workers (for monitoring and tests)."""
        return sorted(w.process.pid for w in self._workers if w.process.pid is not None)

    def methods(self) -> dict[str, str | None]:
        """Method name -> None if it can run, else why not (as the first worker reported it)."""
        return dict(self._methods)

    async def start(self) -> None:
        """Start every worker and wait until all have loaded their models (an error if one cannot)."""
        self._idle = asyncio.Queue()
        started = await asyncio.gather(
            *(self._spawn() for _ in range(self.settings.workers)), return_exceptions=True
        )
        for result in started:
            if isinstance(result, Worker):
                self._add(result)
        errors = [r for r in started if isinstance(r, BaseException)]
        if errors:
            await self.stop()
            raise errors[0]

    async def stop(self) -> None:
        """Kill every worker (and any being started) and wait until they are gone."""
        self._closed = True
        victims = [*self._starting, *(w.process for w in self._workers)]
        for process in victims:
            kill(process)
        for task in self._replacing:
            task.cancel()
        await asyncio.gather(*self._replacing, return_exceptions=True)
        await reaped(victims)
        for worker in self._workers:
            with contextlib.suppress(OSError):
                worker.conn.close()
        self._workers.clear()
        self._io.shutdown(wait=False, cancel_futures=True)

    async def run(self, task: str, body: BaseModel, timeout: float) -> Any:
        """The task's response; ``TimeoutError`` past ``timeout`` s (the worker is killed); ``WorkFailed``."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            worker = await self._acquire(deadline)
            try:
                kind, payload = await self._exchange(worker, (task, body), deadline)
            except NotDelivered:  # the worker had ended before it got the task: try another
                await self._retire(worker, "ended while idle")
                continue
            break
        if kind != "ok":
            raise WorkFailed(payload)
        return payload

    async def _exchange(self, worker: Worker, message: Any, deadline: float) -> tuple[str, Any]:
        """The worker's reply to the message, then the worker is free again; killed on timeout or cancel."""
        loop = asyncio.get_running_loop()
        exchange = loop.run_in_executor(self._io, worker.exchange, message)
        try:
            done, _ = await asyncio.wait({exchange}, timeout=max(0.0, deadline - loop.time()))
        except asyncio.CancelledError:
            exchange.cancel()
            await self._retire(worker, "cancelled")
            raise
        if not done:
            exchange.cancel()
            await self._retire(worker, "timed out")
            raise TimeoutError
        try:
            reply: tuple[str, Any] = exchange.result()
        except (EOFError, OSError):
            await self._retire(worker, "died")
            code = worker.process.exitcode
            raise WorkFailed(Failure(500, f"worker process ended (exit code {code})")) from None
        assert self._idle is not None
        self._idle.put_nowait(worker)
        return reply

    async def _acquire(self, deadline: float) -> Worker:
        """A free, live worker; ``TimeoutError`` if none frees up before the deadline."""
        assert self._idle is not None
        loop = asyncio.get_running_loop()
        while True:
            getter = asyncio.ensure_future(self._idle.get())
            await asyncio.wait({getter}, timeout=max(0.0, deadline - loop.time()))
            if not getter.done():
                getter.cancel()  # a cancelled get leaves the worker in the queue
                raise TimeoutError
            worker = getter.result()
            if worker.process.is_alive():
                return worker
            await self._retire(worker, "ended while idle")

    async def _retire(self, worker: Worker, why: str) -> None:
        """Kill a worker, wait until it is gone, and start its replacement in the background."""
        self._workers.discard(worker)
        kill(worker.process)
        await reaped([worker.process])
        log.warning(
            "worker pid=%s %s (exit code %s): replacing it", worker.process.pid, why, worker.process.exitcode
        )
        if not self._closed:
            task = asyncio.create_task(self._replace())
            self._replacing.add(task)
            task.add_done_callback(self._replacing.discard)

    async def _replace(self) -> None:
        """Start one worker, retrying with a growing delay if it cannot load."""
        delay = 1.0
        while not self._closed:
            try:
                worker = await self._spawn()
            except Exception as exc:  # start-up errors name paths and types, never note text
                log.error(
                    "could not start a worker (%s: %s); retrying in %.0f s", type(exc).__name__, exc, delay
                )
                await asyncio.sleep(delay)
                delay = min(2 * delay, 60.0)
                continue
            self._add(worker)
            return

    def _add(self, worker: Worker) -> None:
        if self._closed:
            kill(worker.process)
            return
        assert self._idle is not None
        self._methods = self._methods or worker.methods
        self._workers.add(worker)
        self._idle.put_nowait(worker)
        log.info("worker pid=%s ready", worker.process.pid)

    def _spec(self) -> WorkerSpec:
        return WorkerSpec(
            settings=replace(self.settings, api_key=None),
            log_level=logging.getLogger("anonymed.service").getEffectiveLevel(),
            hook=self.hook,
        )

    async def _spawn(self) -> Worker:
        """Start a worker process and wait (in a thread) until its engine is loaded."""
        ours, theirs = self._context.Pipe()
        process = self._context.Process(  # type: ignore[attr-defined]
            target=serve, args=(theirs, self._spec()), name="anonymed-worker", daemon=True
        )
        self._starting.add(process)
        try:
            reply = await asyncio.get_running_loop().run_in_executor(
                self._io, self._boot, process, ours, theirs
            )
        finally:
            self._starting.discard(process)
        if reply[0] != "ready":
            kill(process)
            ours.close()
            raise ResourceError(f"a service worker could not start: {reply[1]}")
        return Worker(process, ours, reply[1])

    def _boot(self, process: BaseProcess, ours: Connection, theirs: Connection) -> tuple[str, Any]:
        """Start the process and wait for its first message (blocking: run in a thread)."""
        if self._closed:
            return ("failed", "the service is stopping")
        process.start()
        theirs.close()
        if self._closed:
            kill(process)
        try:
            if ours.poll(self.start_timeout):
                reply: tuple[str, Any] = ours.recv()
                return (reply[0], reply[1].detail if isinstance(reply[1], Failure) else reply[1])
        except (EOFError, OSError):
            pass
        kill(process)
        process.join(5)
        return ("failed", f"worker process ended (exit code {process.exitcode}) while loading")
