"""Run shard tasks on Dask (distributed, an optional dependency): a LocalCluster, or a cluster by address.

``--workers N`` starts N worker processes of one thread each on this machine; ``--scheduler tcp://H:P``
connects to a running cluster (whose workers have anonymed installed and see the input and work folder
at the same paths). Tasks are submitted through a bounded window (two per worker thread), so the driver
holds a handful of futures whatever the number of shards; results come back as they finish and the
driver puts them in order. Models load once per worker process (see ``process.built_method``).

The clusters this module starts (``local_cluster``) run quiet workers (``QUIET``): a shard task runs for
seconds, so Dask's sampling profiler (a look at every thread 100 times a second, for its dashboard) and its
event-loop watchdogs (every 20 ms in each worker, nanny and the scheduler) only take CPU and GIL turns from
the workers and wake processes that share the cores with them. A cluster given by address keeps its own
settings.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from anonymed.errors import ConfigError
from anonymed.runner.manifest import ShardResult
from anonymed.runner.process import ShardTask, run_shard

#: Dask settings of the clusters this runner starts: no worker profiler, event-loop watchdogs once a second
QUIET: Mapping[str, Any] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
}


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ConfigError("--workers and --scheduler need Dask: pip install 'anonymed[scale]'") from None
    return distributed


class DaskExecutor:
    """Submits shard tasks to a Dask client and yields their results as they complete."""

    def __init__(self, client: Any) -> None:
        self.client = client

    @property
    def workers(self) -> int:
        """The number of worker threads of the cluster right now."""
        return int(sum(self.client.nthreads().values()))

    def __call__(self, tasks: Iterable[ShardTask]) -> Iterator[ShardResult]:
        """Run every task; a task's exception (e.g. ``--strict``) is raised here and the rest cancelled."""
        distributed = _distributed()
        run = uuid.uuid4().hex[:8]
        todo = iter(tasks)
        futures: set[Any] = set()
        pending = distributed.as_completed()

        def submit(count: int) -> None:
            for task in (next(todo, None) for _ in range(count)):
                if task is not None:
                    key = f"anonymed-shard-{task.shard.id}-{run}"
                    future = self.client.submit(run_shard, task, key=key, pure=False)
                    futures.add(future)
                    pending.add(future)

        try:
            submit(max(2, 2 * self.workers))
            for future in pending:
                result: ShardResult = future.result()
                futures.discard(future)
                submit(1)
                yield result
        finally:
            if futures:
                self.client.cancel(list(futures))


@contextmanager
def _quiet(name: str = "distributed", level: int = logging.ERROR) -> Iterator[None]:
    """Keep Dask's informational logs (cluster start, stop, slow event loop) off the console."""
    logger = logging.getLogger(name)
    previous = logger.level
    logger.setLevel(max(level, previous))
    try:
        yield
    finally:
        logger.setLevel(previous)


@contextmanager
def dask_executor(workers: int | None = None, scheduler: str | None = None) -> Iterator[DaskExecutor]:
    """An executor on a new LocalCluster of ``workers`` processes, or on the cluster at ``scheduler``."""
    _distributed()  # importing it sets up its loggers: quiet them after
    with _quiet(), _executor(workers, scheduler) as executor:
        yield executor


@contextmanager
def _executor(workers: int | None, scheduler: str | None) -> Iterator[DaskExecutor]:
    distributed = _distributed()
    if scheduler is not None:
        try:
            client = distributed.Client(scheduler, timeout="20s")
        except OSError as exc:
            reason = type(exc).__name__
            raise ConfigError(f"cannot reach the Dask scheduler {scheduler!r} ({reason})") from None
        with client:
            yield DaskExecutor(client)
        return
    with local_cluster(workers) as cluster, distributed.Client(cluster) as client:
        yield DaskExecutor(client)


def local_cluster(workers: int | None) -> Any:
    """A new LocalCluster of ``workers`` processes of one thread, with the ``QUIET`` settings.

    The nannies hand the configuration of their start to the worker processes; the scheduler and the
    nannies run in this process and read it as they start.
    """
    distributed = _distributed()
    if workers is None or workers < 1:
        raise ConfigError(f"--workers must be at least 1, got {workers}")
    import dask

    with dask.config.set(dict(QUIET)):
        return distributed.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",  # any free port for Dask's HTTP server: never a clash with 8787
            silence_logs=logging.ERROR,
        )
