"""Options and presentation shared by the corpus commands that run through the batch runner."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from anonymed.cli.common import console, progress_bar
from anonymed.io.base import Writer
from anonymed.runner.batch import DEFAULT_SHARD_SIZE, BatchOptions, BatchProgress, BatchSummary, run_batch
from anonymed.runner.process import ProcessFactory
from anonymed.runner.shards import ReaderSpec

WorkersOpt = Annotated[
    int | None,
    typer.Option("--workers", help="Start a local Dask cluster of N processes (1 thread each)."),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option("--scheduler", help="Use the Dask cluster at this address (tcp://HOST:PORT)."),
]
ShardSizeOpt = Annotated[
    int, typer.Option("--shard-size", help="Records per shard (the unit of work and of resume).")
]
#: the default of --shard-size
SHARD_SIZE = DEFAULT_SHARD_SIZE
WorkdirOpt = Annotated[
    Path | None,
    typer.Option("--workdir", help="Work folder for shard files (default: hidden, next to the output)."),
]


def run_sharded(
    spec: ReaderSpec,
    writer: Writer,
    factory: ProcessFactory,
    options: BatchOptions,
    *,
    label: str,
    progress: bool,
) -> BatchSummary:
    """Run the batch with a progress bar counting shards (and documents, failures)."""
    with progress_bar(f"{label} shards", progress) as bar:
        task = bar.add_task(label, total=None, failed=0)

        def tick(state: BatchProgress) -> None:
            bar.update(task, completed=state.shards_done, total=state.shards_total, failed=state.failed)

        return run_batch(spec, writer, factory, options, on_progress=tick)


def print_throughput(summary: BatchSummary) -> None:
    """One line: tokens, throughput, workers and resumed shards."""
    resumed = f", {summary.resumed} of {summary.shards} shards resumed" if summary.resumed else ""
    console.print(
        f"{summary.tokens:,} tokens, {summary.docs_per_second:,.1f} docs/s, "
        f"{summary.tokens_per_second:,.0f} tokens/s on {summary.workers} worker(s){resumed}"
    )
