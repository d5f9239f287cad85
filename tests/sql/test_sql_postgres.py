"""``deid-sql`` against a real PostgreSQL server: typed dates, keyset pages, resume, the CLI."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from sql_support import NAMES, create_notes, note_rows
from typer.testing import CliRunner

from anonymed.cli import app
from anonymed.config import PipelineConfig
from anonymed.sql import ColumnMap, Source, SqlJob, open_database

KEY = b"sql-test-patient-key-0123"
COLUMNS = ColumnMap.parse("id=note_id,text=note_text,patient=person_id,date=note_date", "site")


@pytest.fixture
def pg_table(postgres_url: str) -> str:
    name = f"note_{uuid.uuid4().hex[:8]}"
    create_notes(postgres_url, note_rows(17), name)
    return name


def read(url: str, table: str) -> list[dict[str, Any]]:
    db = open_database(url)
    try:
        return db.page(Source(table=table), COLUMNS.columns, "note_id", None, None, 10_000)
    finally:
        db.close()


def test_postgres_table_to_new_table_with_typed_dates(postgres_url: str, pg_table: str) -> None:
    job = SqlJob(
        postgres_url,
        Source(table=pg_table),
        COLUMNS,
        table=f"{pg_table}_deid",
        config=PipelineConfig(),
        patient_key=KEY,
        page_size=4,
    )
    ranges = job.plan(2)
    assert sum(job.run_range(r).rows for r in ranges) == 17
    rows, source = read(postgres_url, f"{pg_table}_deid"), read(postgres_url, pg_table)
    assert [r["note_id"] for r in rows] == [r["note_id"] for r in source]
    for out, original in zip(rows, source, strict=True):
        assert isinstance(out["note_date"], dt.date) and out["note_date"] != original["note_date"]
        assert not any(name in out["note_text"] for name in NAMES)
        assert out["site"] == original["site"]
    assert source[0]["note_text"].startswith("01/01/2020: Mr. Helen Park")  # the source is untouched


def test_postgres_query_source_and_resume(postgres_url: str, pg_table: str) -> None:
    query = Source(query=f"SELECT * FROM {pg_table} WHERE site = 'north'")
    options: dict[str, Any] = {
        "table": f"{pg_table}_north",
        "patient_key": KEY,
        "seed": 1,
        "page_size": 3,
        "config": PipelineConfig(),
    }
    job = SqlJob(postgres_url, query, COLUMNS, **options)

    def stop(n: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        job.run_range(job.plan()[0], stop)
    assert len(read(postgres_url, f"{pg_table}_north")) == 3
    resumed = SqlJob(postgres_url, query, COLUMNS, resume=True, **options)
    assert resumed.run_range(resumed.plan()[0]).rows == 5
    assert len(read(postgres_url, f"{pg_table}_north")) == 8


def test_cli_round_trip_and_summary(postgres_url: str, pg_table: str, tmp_path: Path) -> None:
    key = tmp_path / "key"
    key.write_bytes(KEY)
    summary = tmp_path / "run.json"
    base = ["deid-sql", "--url", postgres_url, "--table", pg_table, "--no-progress"]
    mapping = "id=note_id,text=note_text,patient=person_id,date=note_date"
    options = ["--patient-key-file", str(key), "--summary", str(summary)]
    result = CliRunner().invoke(app, [*base, "--map", mapping, "-o", str(tmp_path / "pq"), *options])
    assert result.exit_code == 0, result.output
    report = json.loads(summary.read_text())
    assert report["rows"] == 17 and report["failed"] == 0 and report["keyed"]
    substitution = report["substitution"]  # the run summary's counts, as deid writes them
    assert substitution["profile"] == "pseudonymise" and substitution["totals"]["replaced"] > 17
    assert set(substitution["by_label"]["DATE"]) == {"date_shift"}
    bad = CliRunner().invoke(app, [*base, "--map", "id=note_id", "-o", str(tmp_path / "x")])
    assert bad.exit_code == 2 and "needs the roles ['text']" in bad.output
