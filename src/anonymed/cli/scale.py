"""Options and presentation shared by the corpus commands that run through the batch runner."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer

from anonymed.cli.common import console, print_summary, progress_bar, write_json
from anonymed.io.base import Writer
from anonymed.methods import MethodConfig
from anonymed.runner.batch import DEFAULT_SHARD_SIZE, BatchOptions, BatchProgress, BatchSummary, run_batch
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


EncodingOpt = Annotated[
    str | None,
    typer.Option(
        "--encoding",
        help="Encoding of txt, jsonl and csv inputs (latin-1, cp1252...); a byte it cannot decode fails its "
        "record. Outputs are UTF-8.",
        show_default="utf-8, strict",
    ),
]


def reader_options(
    text_field: str | None, id_field: str | None, lang: str, encoding: str | None = None
) -> dict[str, Any]:
    """Options passed to the reader (only those given)."""
    options: dict[str, Any] = {"lang": lang}
    if encoding:
        options["encoding"] = encoding
    if text_field:
        options["text_field"] = text_field
    if id_field:
        options["id_field"] = id_field
    return options


def reader_spec(
    input: Path,
    input_format: str | None,
    text_field: str | None,
    id_field: str | None,
    lang: str,
    encoding: str | None = None,
) -> ReaderSpec:
    """The input of a corpus command: its path, format and the reader options given."""
    return ReaderSpec.of(input, input_format, **reader_options(text_field, id_field, lang, encoding))


def run_sharded(
    spec: ReaderSpec,
    writer: Writer,
    method: MethodConfig,
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

        return run_batch(spec, writer, method, options, on_progress=tick)


def print_throughput(summary: BatchSummary) -> None:
    """One line: tokens, throughput, workers and resumed shards."""
    resumed = f", {summary.resumed} of {summary.shards} shards resumed" if summary.resumed else ""
    console.print(
        f"{summary.tokens:,} tokens, {summary.docs_per_second:,.1f} docs/s, "
        f"{summary.tokens_per_second:,.0f} tokens/s on {summary.workers} worker(s){resumed}"
    )


def run_command(
    spec: ReaderSpec,
    writer: Writer,
    method: MethodConfig,
    options: BatchOptions,
    *,
    command: str,
    output: Path,
    progress: bool,
    seeded: bool = False,
) -> BatchSummary:
    """Run ``anonymed COMMAND`` to ``output`` with a progress bar, then print its summary and throughput."""
    result = run_sharded(spec, writer, method, options, label=command.split()[-1], progress=progress)
    print_summary(result, title=f"anonymed {command} -> {output}", seeded=seeded)
    print_throughput(result)
    return result


def save_summary(path: Path | None, result: BatchSummary, extra: Mapping[str, object] | None = None) -> None:
    """Write the run summary, then the ``extra`` fields, as JSON to ``path`` if one is given."""
    if path is not None:
        write_json(path, {**result.to_json(), **(extra or {})})
