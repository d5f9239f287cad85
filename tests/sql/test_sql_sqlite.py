"""``deid-sql`` on SQLite: Parquet and table outputs, resume, key ranges, the SQLAlchemy path, one key."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from sql_support import NAMES, create_notes, note_rows

from anonymed.config import PipelineConfig
from anonymed.errors import ConfigError
from anonymed.fhir.ids import Pseudonyms
from anonymed.sql import ColumnMap, KeyRange, Source, SqlJob, open_database
from anonymed.substitute.date_shift import DateShiftParams

pq = pytest.importorskip("pyarrow.parquet")
KEY = b"sql-test-patient-key-0123"
COLUMNS = ColumnMap.parse("id=note_id,text=note_text,patient=person_id,date=note_date", "site")
CONFIG = PipelineConfig()
NOISE = DateShiftParams().noise_days  # the default profile's per-date noise in notes


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'notes.db'}"
    create_notes(url, note_rows(23))
    return url


def job(url: str, **changes: Any) -> SqlJob:
    fields: dict[str, Any] = {
        "source": Source(table="note"),
        "columns": COLUMNS,
        "config": CONFIG,
        "patient_key": KEY,
        "seed": 4,
        "page_size": 5,
    }
    fields.update(changes)
    return SqlJob(url, **fields)


def read_parquet(folder: Path) -> list[dict[str, Any]]:
    rows = [row for part in sorted(folder.glob("part-*.parquet")) for row in pq.read_table(part).to_pylist()]
    return sorted(rows, key=lambda r: r["note_id"])


def read_table(url: str, table: str) -> list[dict[str, Any]]:
    db = open_database(url)
    try:
        cols = ("note_id", "note_text", "person_id", "note_date", "site")
        return db.page(Source(table=table), cols, "note_id", None, None, 10_000)
    finally:
        db.close()


def test_parquet_output_scrubs_notes_pseudonymises_patients_and_shifts_dates(
    sqlite_url: str, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    j = job(sqlite_url, parquet=out)
    (whole,) = j.plan()
    result = j.run_range(whole)
    assert result.rows == 23 and result.failed == []
    rows = read_parquet(out)
    source = {r["note_id"]: r for r in note_rows(23)}
    assert [r["note_id"] for r in rows] == sorted(source)
    ids = Pseudonyms("hmac", key=KEY)
    for row in rows:
        original = source[row["note_id"]]
        assert not any(name in row["note_text"] for name in [*NAMES, "Emily Stone"])
        assert row["person_id"] == ids.resource_id("Patient", original["person_id"])  # the FHIR Patient id
        assert row["site"] == original["site"]
        shifted = dt.date.fromisoformat(row["note_date"])
        days = (shifted - original["note_date"]).days
        assert days != 0
        # the note's own first date moved by the same shift plus its own noise (one patient, one timeline)
        first = dt.datetime.strptime(row["note_text"][:10], "%m/%d/%Y").date()
        true_first = dt.datetime.strptime(original["note_text"][:10], "%m/%d/%Y").date()
        assert first != true_first and abs((first - true_first).days - days) <= NOISE
    by_patient: dict[str, set[int]] = {}
    for row in rows:
        original = source[row["note_id"]]
        by_patient.setdefault(original["person_id"], set()).add(
            (dt.date.fromisoformat(row["note_date"]) - original["note_date"]).days
        )
    assert all(len(days) == 1 for days in by_patient.values()) and len(by_patient) == 5


def test_key_ranges_give_the_same_rows_as_one_run(sqlite_url: str, tmp_path: Path) -> None:
    one, split = tmp_path / "one", tmp_path / "split"
    j = job(sqlite_url, parquet=one)
    for r in j.plan():
        j.run_range(r)
    s = job(sqlite_url, parquet=split)
    ranges = s.plan(3)
    assert len(ranges) == 3 and ranges[0].lower is None and ranges[-1].upper is None
    dask = pytest.importorskip("dask")
    results = dask.compute(*[dask.delayed(s.run_range)(r) for r in ranges], scheduler="synchronous")
    assert sum(r.rows for r in results) == 23
    assert read_parquet(split) == read_parquet(one)


def test_an_interrupted_run_resumes_after_the_last_page(sqlite_url: str, tmp_path: Path) -> None:
    expected_dir, out = tmp_path / "expected", tmp_path / "out"
    j = job(sqlite_url, parquet=expected_dir)
    j.run_range(j.plan()[0])

    class Stop(Exception):
        pass

    def stop_after_two_pages(seen: list[int] = []) -> Any:  # noqa: B006 (state of the callback)
        def progress(n: int) -> None:
            seen.append(n)
            if len(seen) == 2:
                raise Stop

        return progress

    first = job(sqlite_url, parquet=out)
    with pytest.raises(Stop):
        first.run_range(first.plan()[0], stop_after_two_pages())
    assert len(read_parquet(out)) == 10
    with pytest.raises(ConfigError, match="--resume"):
        job(sqlite_url, parquet=out).plan()
    again = job(sqlite_url, parquet=out, resume=True)
    result = again.run_range(again.plan()[0])
    assert result.rows == 13
    assert read_parquet(out) == read_parquet(expected_dir)


def test_table_output_is_new_never_in_place_and_resumable(sqlite_url: str) -> None:
    with pytest.raises(ConfigError, match="never writes in place"):
        job(sqlite_url, table="note").plan()
    j = job(sqlite_url, table="note_deid")
    j.run_range(j.plan()[0])
    rows = read_table(sqlite_url, "note_deid")
    assert len(rows) == 23 and not any("Helen Park" in r["note_text"] for r in rows)
    assert read_table(sqlite_url, "note")[0]["note_text"].startswith(
        "01/01/2020: Mr. Helen Park"
    )  # untouched
    with pytest.raises(ConfigError, match="exists"):
        job(sqlite_url, table="note_deid").plan()
    resumed = job(sqlite_url, table="note_deid", resume=True)
    assert resumed.run_range(resumed.plan()[0]).rows == 0  # nothing left after the last key


def test_sqlalchemy_path_and_query_source_give_the_adbc_result(sqlite_url: str, tmp_path: Path) -> None:
    pytest.importorskip("sqlalchemy")
    adbc, alchemy = tmp_path / "adbc", tmp_path / "alchemy"
    query = Source(
        query="SELECT note_id, note_text, person_id, note_date, site FROM note WHERE note_id < 1010"
    )
    for folder, driver in ((adbc, "adbc"), (alchemy, "sqlalchemy")):
        j = job(sqlite_url, parquet=folder, driver=driver, source=query)
        for r in j.plan(2):
            j.run_range(r)
    assert len(read_parquet(adbc)) == 10
    assert read_parquet(alchemy) == read_parquet(adbc)


def test_safe_harbor_keeps_the_year_and_random_patient_codes(sqlite_url: str, tmp_path: Path) -> None:
    out = tmp_path / "sh"
    j = job(sqlite_url, parquet=out, config=CONFIG.replace(profile="hipaa-safe-harbor"), patient_key=None)
    j.run_range(KeyRange(0))
    rows = read_parquet(out)
    assert {r["note_date"] for r in rows} <= {2020, 2021}
    assert all(r["note_text"][:10].count("/") == 0 for r in rows)  # "01/01/2020" became "2020"
    assert len({r["person_id"] for r in rows}) == 5
    assert rows[0]["person_id"] != Pseudonyms("hmac", key=KEY).resource_id("Patient", "P0")


def test_dp_keeps_the_year_of_the_date_column_and_the_hmac_patient_pseudonym(
    sqlite_url: str, tmp_path: Path
) -> None:
    """Under dp the notes' dates are drawn around the true dates, so the date column keeps its year (as the
    dp FHIR table), not a secret shift the notes would give away; patients keep their keyed pseudonym."""
    out = tmp_path / "dp"
    j = job(sqlite_url, parquet=out, config=CONFIG.replace(profile="dp"), seed=None)
    result = j.run_range(KeyRange(0))
    rows = read_parquet(out)
    assert len(rows) == 23 and {r["note_date"] for r in rows} <= {2020, 2021}
    assert rows[0]["person_id"] == Pseudonyms("hmac", key=KEY).resource_id("Patient", "P0")
    assert any(key.startswith("DATE") and "dp_date" in key for key in result.counts), result.counts


def test_one_patient_key_for_fhir_and_sql(sqlite_url: str, tmp_path: Path) -> None:
    """The same key gives a patient the same pseudonym and the same date shift in both paths."""
    import json

    from anonymed.fhir import FhirDeidentifier, FhirOptions

    export = tmp_path / "fhir"
    export.mkdir()
    patient = {"resourceType": "Patient", "id": "P3", "birthDate": "1970-05-05"}
    (export / "Patient.ndjson").write_text(json.dumps(patient) + "\n")
    FhirDeidentifier(FhirOptions(patient_key=KEY, text=False)).run(export, tmp_path / "fhir-out")
    fhir_patient = json.loads((tmp_path / "fhir-out" / "Patient.ndjson").read_text())
    fhir_days = (dt.date.fromisoformat(fhir_patient["birthDate"]) - dt.date(1970, 5, 5)).days
    out = tmp_path / "sql-out"
    j = job(sqlite_url, parquet=out, seed=None)
    j.run_range(j.plan()[0])
    row = next(r for r in read_parquet(out) if r["note_id"] == 1003)  # person P3
    source = next(r for r in note_rows(23) if r["note_id"] == 1003)
    assert row["person_id"] == fhir_patient["id"]
    assert (dt.date.fromisoformat(row["note_date"]) - source["note_date"]).days == fhir_days


@pytest.mark.slow
def test_cli_with_two_dask_workers_writes_the_rows_of_one_process(sqlite_url: str, tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    from typer.testing import CliRunner

    from anonymed.cli import app

    common = [
        "deid-sql",
        "--url",
        sqlite_url,
        "--table",
        "note",
        "--map",
        "id=note_id,text=note_text,patient=person_id,date=note_date",
        "--seed",
        "3",
        "--page-size",
        "4",
        "--no-progress",
    ]
    two = CliRunner().invoke(app, [*common, "-o", str(tmp_path / "two"), "--workers", "2"])
    one = CliRunner().invoke(app, [*common, "-o", str(tmp_path / "one")])
    assert two.exit_code == 0 and one.exit_code == 0, (two.output, one.output)
    assert len(list((tmp_path / "two").glob("_progress-r*.json"))) == 2
    assert read_parquet(tmp_path / "two") == read_parquet(tmp_path / "one")


def test_cli_failed_rows_follow_max_failures_as_every_command(tmp_path: Path) -> None:
    import sqlite3

    from typer.testing import CliRunner

    from anonymed.cli import app

    database = tmp_path / "mixed.db"
    with sqlite3.connect(database) as connection:  # a column without type: one row's "text" is a number
        connection.execute("CREATE TABLE note (note_id INTEGER PRIMARY KEY, note_text)")
        rows = [(i, f"Seen by Dr. Helen Park on 02/12/2020, visit {i}.") for i in range(1, 40)]
        connection.executemany("INSERT INTO note VALUES (?, ?)", [*rows, (40, 42)])
    base = [
        "deid-sql",
        "--url",
        f"sqlite:///{database}",
        "--table",
        "note",
        "--map",
        "id=note_id,text=note_text",
        "--driver",
        "sqlalchemy",
        "--seed",
        "1",
        "--no-progress",
    ]
    runs = {
        limit: CliRunner().invoke(app, [*base, "-o", str(tmp_path / f"out{i}"), *limit])
        for i, limit in enumerate(
            [
                (),
                ("--max-failures", "0"),
                ("--max-failures", "1"),
                ("--max-failures", "3%"),
                ("--max-failed", "0.01"),
            ]
        )
    }
    assert {limit: run.exit_code for limit, run in runs.items()} == {
        (): 3,  # the default, 1%: 1% of 40 allows none
        ("--max-failures", "0"): 3,
        ("--max-failures", "1"): 0,
        ("--max-failures", "3%"): 0,
        ("--max-failed", "0.01"): 3,  # the deprecated fraction: 1% of 40 allows none
    }
    assert "1 of 40 records failed (more than --max-failures 1% allows" in runs[()].output
    assert "1 of 40 records failed (within --max-failures 3%)" in runs[("--max-failures", "3%")].output
    assert "--max-failed is deprecated" in runs[("--max-failed", "0.01")].output
