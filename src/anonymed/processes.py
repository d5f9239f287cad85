"""Worker processes that never outlive their parent, and SIGTERM/SIGINT that stop a run cleanly.

Every pool of worker processes anonymed starts goes through this module (the audit grid's process pool, the
service's workers; Dask's LocalCluster has its own equivalent, see docs/scale.md):

* ``watch_parent`` runs first in each worker. A daemon thread waits on the parent's sentinel (a pipe whose
  other end only the parent holds): end of file means the parent has ended, however it ended (SIGKILL
  included), and the worker leaves at once with ``os._exit``, even in the middle of a task. It works with the
  spawn, fork-server and fork start methods, on Linux and macOS. ``prctl(PR_SET_PDEATHSIG)`` is not used: it
  fires when the *thread* that started the worker ends (the service starts workers from a thread pool), and
  a fork-server worker's parent process is the fork server, not the program.
* ``worker_pool`` is a spawn ``ProcessPoolExecutor`` whose workers watch their parent and ignore SIGINT (a
  Ctrl-C reaches the whole process group: the parent decides). When the ``with`` block ends with an exception
  (``Stopped``, ``KeyboardInterrupt``, an error), ``stop_pool`` cancels the pending tasks and terminates and
  reaps the workers before the exception goes on; a normal end waits for them as before.
* ``stop_on_signals`` (the command's entry point) turns SIGTERM and SIGINT into ``Stopped`` in the main
  thread, so that ``finally`` blocks and context managers run (pools stopped, temporary files removed). A
  second signal ends the process at once (the default action); the workers then end on their own.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from types import FrameType

#: signals that stop a command: a scheduler's SIGTERM (timeout, cancel), SIGINT (Ctrl-C, ``kill -INT``)
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Stopped(BaseException):
    """The process received SIGTERM or SIGINT (a BaseException: ``except Exception`` does not swallow it)."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(signal.Signals(signum).name)

    @property
    def name(self) -> str:
        """``SIGTERM`` or ``SIGINT``."""
        return signal.Signals(self.signum).name

    @property
    def exit_code(self) -> int:
        """128 + the signal's number, as a shell reports a process ended by it (143, 130)."""
        return 128 + self.signum


def _wait_for_parent(sentinel: int) -> None:
    from multiprocessing.connection import wait

    wait([sentinel])
    os._exit(1)


def watch_parent() -> None:
    """In a worker process: end it as soon as its parent process ends (a daemon thread; no-op elsewhere)."""
    parent = multiprocessing.parent_process()
    sentinel = getattr(parent, "sentinel", None)
    if sentinel is None:  # not started by multiprocessing: nothing to watch
        return
    name = "anonymed-parent-watch"
    watch = threading.Thread(target=_wait_for_parent, args=(sentinel,), name=name, daemon=True)
    watch.start()


def _init_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    watch_parent()


def stop_pool(pool: ProcessPoolExecutor, seconds: float = 5.0) -> None:
    """Cancel the pool's pending tasks; terminate its workers (SIGKILL after ``seconds``) and reap them."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.exitcode is None:
            process.terminate()
    deadline = time.monotonic() + seconds
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.exitcode is None:
            process.kill()
            process.join(1.0)


@contextmanager
def worker_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``workers`` spawned processes that end with this one; stopped at once if the block fails.

    Spawn, not fork: the caller may hold threads (a progress bar), which fork does not copy safely.
    """
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=multiprocessing.get_context("spawn"), initializer=_init_worker
    )
    try:
        yield pool
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown(wait=True)


def _raise_stopped(signum: int, frame: FrameType | None) -> None:
    for each in STOP_SIGNALS:  # a second signal ends the process at once
        signal.signal(each, signal.SIG_DFL)
    raise Stopped(signum)


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """In the main thread: SIGTERM and SIGINT raise ``Stopped``; the previous handlers come back after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {each: signal.getsignal(each) for each in STOP_SIGNALS}
    for each in STOP_SIGNALS:
        signal.signal(each, _raise_stopped)
    try:
        yield
    finally:
        for each, handler in previous.items():
            signal.signal(each, handler)
