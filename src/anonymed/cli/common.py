"""Presentation helpers shared by the CLI commands: progress bar, summary table, option parsing."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    SpinnerColumn,
    Task,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from anonymed.errors import AnonymedError
from anonymed.io.atomic import output_mode, write_atomically
from anonymed.io.base import ReadFailure
from anonymed.runner.local import RunSummary
from anonymed.substitute.summary import OUTCOMES

#: the exit code of a run whose failed records pass its limit (every corpus command, deid-fhir, deid-sql)
EXIT_FAILED_RECORDS = 3

console = Console(stderr=True)
out = Console()
#: ``update(stage, done, total)``: the progress callback of multi-stage work (training, building, attacks)
StageProgress = Callable[[str, int, int | None], None]


@contextmanager
def handled_errors() -> Iterator[None]:
    """Turn anonymed errors into a one-line message and exit code 2 (no traceback, no note text)."""
    try:
        yield
    except AnonymedError as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from None


@contextmanager
def needs_extra(extra: str) -> Iterator[None]:
    """Turn a missing optional module into a one-line message naming the extra to install (exit code 2)."""
    try:
        yield
    except ImportError as exc:
        module = (getattr(exc, "name", None) or "a module").split(".")[0]
        hint = f"pip install 'anonymed[{extra}]'"
        console.print(f"[red]error:[/red] {escape(f'{module} is not installed: {hint}')}")
        raise typer.Exit(2) from None


class RateColumn(ProgressColumn):
    """Records per second, as rich estimates it from the last updates."""

    def render(self, task: Task) -> Text:
        """``123.4 records/s`` (``- records/s`` before the first estimate)."""
        speed = task.finished_speed or task.speed
        return Text("- records/s" if speed is None else f"{speed:,.1f} records/s")


@contextmanager
def progress_bar(label: str, enabled: bool = True) -> Iterator[Progress]:
    """A rich progress bar on stderr counting records: done/total, failed, rate, elapsed and time left."""
    progress = Progress(
        SpinnerColumn(),
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[failed]} failed"),
        RateColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        disable=not enabled,
        transient=False,
    )
    with progress:
        yield progress


@contextmanager
def stage_progress(enabled: bool, width: int = 10) -> Iterator[StageProgress]:
    """A rich progress display on stderr with one bar per stage, names right-aligned in ``width`` columns."""
    columns = (
        TextColumn(f"{{task.description:>{width}}}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, disable=not enabled) as bar:
        tasks: dict[str, TaskID] = {}

        def update(stage: str, done: int, total: int | None) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=done, total=total)

        yield update


def failed_record(failure: ReadFailure) -> str:
    """``record 4 of the input (id 'a7'): reason`` (a position counted from 1; the id when it differs)."""
    position = failure.index + 1
    named = "" if failure.record_id == str(position) else f" (id {failure.record_id!r})"
    return f"record {position} of the input{named}: {failure.reason}"


def print_summary(summary: RunSummary, *, title: str, seeded: bool = False) -> None:
    """A table of documents read / written / failed, spans by label and time, on stderr."""
    table = Table(title=title, show_header=False)
    table.add_row("documents read", str(summary.read))
    table.add_row("documents written", str(summary.written))
    table.add_row("documents failed", str(summary.failed))
    for label, count in sorted(summary.spans_by_label.items()):
        table.add_row(f"spans {label}", str(count))
    table.add_row("time", f"{summary.seconds:.2f} s ({summary.docs_per_second:.1f} docs/s)")
    console.print(table)
    for failure in summary.failures[:20]:
        console.print(f"[yellow]failed:[/yellow] {escape(failed_record(failure))}")
    if seeded:
        console.print(
            "[yellow]note:[/yellow] this run used a seed: anyone who knows the seed can reproduce its "
            "random choices. Keep the seed secret or leave it out for secure randomness."
        )


def print_substitution(summary: Mapping[str, Any], checklist: list[dict[str, Any]] | None = None) -> None:
    """Tables of what the substitution did: per label and operator, DP values unchanged, a checklist."""
    table = Table(title=f"substitution (profile {summary['profile']})")
    for name in ("label", "operator", *OUTCOMES):
        table.add_column(name, justify="left" if name in ("label", "operator") else "right")
    for label, operators in summary["by_label"].items():
        for operator, outcomes in operators.items():
            table.add_row(label, operator, *(str(outcomes.get(o, 0)) for o in OUTCOMES))
    console.print(table)
    dp = summary["dp"]
    if dp["spans"]:
        console.print(
            f"differentially private values written back unchanged: {dp['unchanged']} of {dp['spans']} "
            f"(expected {dp['expected_unchanged']:.1f} from the mechanisms' probabilities)"
        )
    if checklist:
        rows = Table(title="HIPAA Safe Harbor checklist, 45 CFR 164.514(b)(2)(i)")
        for name in ("kind", "identifier", "found", "what was done"):
            rows.add_column(name, justify="right" if name == "found" else "left")
        for row in checklist:
            done = "; ".join(
                f"{op}: " + ", ".join(f"{n} {outcome}" for outcome, n in sorted(outcomes.items()))
                for op, outcomes in row["done"].items()
            )
            rows.add_row(
                row["kind"], row["identifier"], str(row["found"]), done or row["note"] or "none found"
            )
        console.print(rows)


def write_json(path: Path, data: Any) -> None:
    """Write JSON atomically (temp file + rename), with the permissions of every output."""
    write_atomically(path, json.dumps(data, indent=2, ensure_ascii=False), mode=output_mode())


def quiet_logging(verbose: bool) -> None:
    """Log warnings (ids and reasons only) to stderr; more with --verbose."""
    logging.basicConfig(
        level=logging.INFO if verbose else logging.ERROR, format="%(levelname)s %(name)s: %(message)s"
    )
