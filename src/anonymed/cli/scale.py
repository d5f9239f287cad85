"""Options and presentation shared by the corpus commands that run through the batch runner."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer

from anonymed.cli.common import EXIT_FAILED_RECORDS, console, print_summary, progress_bar, write_json
from anonymed.io.atomic import output_permissions
from anonymed.io.base import Reader, Writer
from anonymed.io.registry import open_writer
from anonymed.methods import MethodConfig
from anonymed.runner.batch import DEFAULT_SHARD_SIZE, BatchOptions, BatchProgress, BatchSummary, run_batch
from anonymed.runner.failures import DEFAULT_MAX_FAILURES, FailureLimit
from anonymed.runner.shards import ReaderSpec

#: the exit code of a run that wrote its output but in which too many records failed (``--max-failures``)

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
MaxFailuresOpt = Annotated[
    str,
    typer.Option(
        "--max-failures",
        help="Exit with code 3 when more records fail: a count (5) or a share of the records (1%). "
        "A run in which every record failed always exits 3. The output is written either way.",
    ),
]
#: the default of --max-failures
MAX_FAILURES = DEFAULT_MAX_FAILURES
#: ``--max-failed FRACTION``, the earlier spelling of ``deid-fhir`` and ``deid-sql``: hidden, warns
MaxFailedOpt = Annotated[
    float | None,
    typer.Option("--max-failed", hidden=True, help="Deprecated: --max-failures with a share (0.01 is 1%)."),
]


def failure_limit(max_failures: str, max_failed: float | None = None) -> FailureLimit:
    """``--max-failures`` parsed; the deprecated ``--max-failed FRACTION`` wins when given, with a warning."""
    if max_failed is None:
        return FailureLimit.parse(max_failures)
    limit = FailureLimit(share=max_failed)
    console.print(f"[yellow]warning:[/yellow] --max-failed is deprecated: use --max-failures {limit}")
    return limit


def _permissions(ctx: typer.Context, private: bool) -> bool:
    """Apply ``--private`` / ``--umask`` to every output of the command (undone when it ends)."""
    ctx.with_resource(output_permissions(private=private))
    return private


PrivateOpt = Annotated[
    bool,
    typer.Option(
        "--private/--umask",
        callback=_permissions,
        help="Outputs owner-only: files 0600, folders 0700, inside output folders too (default); "
        "--umask: every output as the umask allows (0666/0777 less the umask).",
    ),
]


def reader_options(
    text_field: str | None,
    id_field: str | None,
    lang: str,
    patient_field: str | None = None,
    *,
    encoding: str | None = None,
) -> dict[str, Any]:
    """Options passed to the reader (only those given)."""
    options: dict[str, Any] = {"lang": lang}
    if encoding:
        options["encoding"] = encoding
    if text_field:
        options["text_field"] = text_field
    if id_field:
        options["id_field"] = id_field
    if patient_field:
        options["patient_field"] = patient_field
    return options


def reader_spec(
    input: Path,
    input_format: str | None,
    text_field: str | None,
    id_field: str | None,
    lang: str,
    patient_field: str | None = None,
    *,
    encoding: str | None = None,
) -> ReaderSpec:
    """The input of a corpus command: its path, format and the reader options given."""
    options = reader_options(text_field, id_field, lang, patient_field, encoding=encoding)
    return ReaderSpec.of(input, input_format, **options)


def output_path(output: str | Path) -> tuple[Path, bool]:
    """The output as the user wrote it: its path, and whether it names a folder (a trailing slash)."""
    text = os.fspath(output)
    return Path(text), text.endswith(("/", os.sep))


def open_output(output: str | Path, fmt: str | None, like: Reader | None) -> Writer:
    """The writer of a corpus command's output (a trailing slash asks for a folder, created on commit)."""
    path, folder = output_path(output)
    return open_writer(path, fmt, like, folder=folder)


def batch_options(
    workers: int | None,
    scheduler: str | None,
    shard_size: int,
    workdir: Path | None,
    strict: bool,
    max_failures: str = MAX_FAILURES,
) -> BatchOptions:
    """The batch options of a corpus command (``--max-failures`` parsed)."""
    limit = failure_limit(max_failures)
    return BatchOptions(workers, scheduler, shard_size, workdir, strict, max_failures=limit)


def run_sharded(
    spec: ReaderSpec,
    writer: Writer,
    method: MethodConfig,
    options: BatchOptions,
    *,
    label: str,
    progress: bool,
) -> BatchSummary:
    """Run the batch with a progress bar counting records (done of total, failed, rate and time left)."""
    with progress_bar(f"{label} records", progress) as bar:
        task = bar.add_task(label, total=None, failed=0)
        started = False

        def tick(state: BatchProgress) -> None:
            nonlocal started
            if not started:  # records of resumed shards are done already: not part of the rate
                bar.reset(task, total=state.documents_total, completed=state.documents, failed=state.failed)
                started = True
                return
            bar.update(task, completed=state.documents, total=state.documents_total, failed=state.failed)

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
    output: str | Path,
    progress: bool,
    seeded: bool = False,
) -> BatchSummary:
    """Run ``anonymed COMMAND`` to ``output`` with a progress bar, then print its summary and throughput."""
    result = run_sharded(spec, writer, method, options, label=command.split()[-1], progress=progress)
    print_summary(result, title=f"anonymed {command} -> {os.fspath(output)}", seeded=seeded)
    print_throughput(result)
    return result


def check_failures(limit: FailureLimit, read: int, failed: int, where: str) -> None:
    """Say whether ``failed`` of ``read`` records pass ``--max-failures`` (``where``: what became of them);
    past it, exit with code 3. Every command that reads records (corpus, FHIR, SQL) ends with this verdict."""
    if not failed:
        return
    share = f"{failed} of {read} records failed"
    if limit.exceeded(read, failed):
        console.print(
            f"[red]run failed:[/red] {share} (more than --max-failures {limit} allows, or all of them); "
            f"{where}; exit code {EXIT_FAILED_RECORDS}"
        )
        raise typer.Exit(EXIT_FAILED_RECORDS)
    console.print(f"[yellow]warning:[/yellow] {share} (within --max-failures {limit}); {where}")


def save_summary(path: Path | None, result: BatchSummary, extra: Mapping[str, object] | None = None) -> None:
    """Write the run summary, then the ``extra`` fields, as JSON to ``path`` if one is given."""
    if path is not None:
        write_json(path, {**result.to_json(), **(extra or {})})


def finish_run(path: Path | None, result: BatchSummary, extra: Mapping[str, object] | None = None) -> None:
    """Save the summary, say whether the run succeeded and exit with code 3 if too many records failed."""
    save_summary(path, result, extra)
    limit = result.limit or failure_limit(MAX_FAILURES)
    check_failures(limit, result.read, result.failed, "the output holds placeholders for them")
