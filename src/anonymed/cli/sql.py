"""``anonymed deid-sql``: de-identify notes of a SQL table or query into a new table or Parquet."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer

from anonymed.cli.common import (
    console,
    handled_errors,
    progress_bar,
    quiet_logging,
    write_json,
)
from anonymed.cli.deid import read_patient_key, run_configuration
from anonymed.cli.fhir import AsOfOpt, RulesOpt, parse_as_of
from anonymed.cli.options import PIPELINE, Choices, configured
from anonymed.cli.scale import MAX_FAILURES, MaxFailedOpt, MaxFailuresOpt, check_failures, failure_limit
from anonymed.pipeline import substitution_report
from anonymed.sql import ColumnMap, RangeResult, Source, SqlJob


def _run(job: SqlJob, workers: int | None, progress: bool) -> list[RangeResult]:
    ranges = job.plan(workers or 1)
    if not workers or workers <= 1:
        with progress_bar("deid-sql", progress) as bar:
            task = bar.add_task("deid-sql", total=None, failed=0)
            return [job.run_range(r, lambda n: bar.advance(task, n)) for r in ranges]
    from anonymed.runner.dask import dask_executor  # Dask is optional: imported when asked for

    with dask_executor(workers) as executor:
        client = executor.client
        return list(client.gather(client.map(job.run_range, ranges, pure=False)))


@configured(PIPELINE)
def deid_sql(
    url: Annotated[
        str, typer.Option("--url", help="Database URL (postgresql://, sqlite:///, or SQLAlchemy).")
    ],
    map_: Annotated[str, typer.Option("--map", help="id=COL,text=COL[,patient=COL][,date=COL]")],
    table: Annotated[str | None, typer.Option("--table", help="Source table.")] = None,
    query: Annotated[str | None, typer.Option("--query", help="Source query (read as a subquery).")] = None,
    to_table: Annotated[
        str | None, typer.Option("--to-table", help="New output table (same database).")
    ] = None,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Output folder of Parquet files.")
    ] = None,
    keep: Annotated[str | None, typer.Option("--keep", help="Other columns to copy unchanged.")] = None,
    rules: RulesOpt = None,
    patient_key_file: Annotated[Path | None, typer.Option("--patient-key-file", help="Secret key.")] = None,
    as_of: AsOfOpt = None,
    driver: Annotated[str, typer.Option("--driver", help="auto | adbc | sqlalchemy")] = "auto",
    page_size: Annotated[int, typer.Option("--page-size", help="Rows per page (and commit).")] = 1000,
    resume: Annotated[bool, typer.Option("--resume", help="Continue after the last key written.")] = False,
    workers: Annotated[
        int | None, typer.Option("--workers", help="Dask worker processes (key ranges).")
    ] = None,
    max_failures: MaxFailuresOpt = MAX_FAILURES,
    max_failed: MaxFailedOpt = None,
    summary: Annotated[Path | None, typer.Option("--summary", help="Write the run summary (JSON).")] = None,
    progress: Annotated[bool, typer.Option("--progress/--no-progress", help="Show progress.")] = True,
    verbose: Annotated[bool, typer.Option("--verbose")] = False,
    *,
    choices: Choices,
) -> None:
    """De-identify the notes of a table or query; never in place: a new table or Parquet files."""
    quiet_logging(verbose)
    started = time.perf_counter()
    with handled_errors():
        limit = failure_limit(max_failures, max_failed)
        chosen = choices.configured()
        cfg = chosen.pipeline()
        seed = cfg.seed
        job = SqlJob(url, Source(table, query), ColumnMap.parse(map_, keep), table=to_table, parquet=output,
                     config=cfg, rules=rules, patient_key=read_patient_key(patient_key_file), seed=seed,
                     as_of=parse_as_of(as_of), driver=driver, page_size=page_size, resume=resume)  # fmt: skip
        results = _run(job, workers, progress)
    seconds = time.perf_counter() - started
    rows = sum(r.rows for r in results)
    failed = [f for r in results for f in r.failed]
    report: dict[str, Any] = {
        "rows": rows,
        "failed": len(failed),
        "failures": failed[:1000],
        "ranges": len(results),
        "seconds": round(seconds, 3),
        "rows_per_second": round(rows / seconds, 1) if seconds else None,
        "seeded": seed is not None,
        "keyed": patient_key_file is not None,
        "substitution": substitution_report(cfg, sum((Counter(r.counts) for r in results), Counter())),
        "configuration": run_configuration(chosen, patient_key_file),
    }
    console.print(f"deid-sql: {rows} rows, {len(failed)} failed, {report['rows_per_second']} rows/s")
    if summary is not None:
        write_json(summary, report)
    check_failures(limit, rows, len(failed), "their text is written as NULL; the summary lists them")


def register(app: typer.Typer) -> None:
    """Add ``deid-sql`` to the main app."""
    app.command("deid-sql")(deid_sql)
