"""A seed, a patient key and a database password never reach what a command writes (docs/configuration.md).

Anyone who knows a run's seed can replay its random choices (date shifts, surrogates) and undo them; run
summaries, manifests and reports go to others (an ethics board). Every command that records a run is run
here with a seed, a patient key and (deid-sql) a database URL, and every file it wrote is searched for the
secret values: a summary says *that* a seed was set (``secrets.seed.source``, ``seeded``), never which.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anonymed.cli import app
from anonymed.cli.deid import SAMPLE
from anonymed.redact import (
    REDACTED,
    redacted_command,
    redacted_command_line,
    url_without_password,
    without_url_password,
)

runner = CliRunner()
#: a seed whose digits appear nowhere else by chance (sizes, counts, times)
SEED = "918273645"
KEY = b"PLANTED-seed-test-key-0123456789abcdef"
PASSWORD = "Pl4nted-DB-pw"


def _inputs(tmp: Path) -> dict[str, Path]:
    key = tmp / "patient.key"
    key.write_bytes(KEY)
    key.chmod(0o600)
    db = tmp / "notes.db"
    notes = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()]
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE note (note_id INTEGER PRIMARY KEY, note_text TEXT)")
        conn.executemany("INSERT INTO note VALUES (?, ?)", [(i, n["text"]) for i, n in enumerate(notes)])
    conn.close()
    fhir = tmp / "fhir"
    fhir.mkdir()
    patient = {"resourceType": "Patient", "id": "p1", "birthDate": "1961-03-07",
               "name": [{"family": "Quackenbush", "given": ["Helen"]}]}  # fmt: skip
    (fhir / "Patient.ndjson").write_text(json.dumps(patient) + "\n", encoding="utf-8")
    config = tmp / "seeded.toml"
    config.write_text(f'[pipeline]\nseed = {SEED}\ndetectors = ["patterns"]\n', encoding="utf-8")
    return {"key": key, "db": db, "fhir": fhir, "config": config}


def _commands(tmp: Path, given: dict[str, Path]) -> dict[str, list[str]]:
    """Each command that records a run, writing under ``tmp/<name>``, seeded and keyed where it can be."""
    seed = ["--seed", SEED]
    key = ["--patient-key-file", str(given["key"])]
    quiet = ["--no-progress"]

    def out(name: str) -> Path:
        (tmp / name).mkdir()
        return tmp / name

    return {
        "deid": ["deid", str(SAMPLE), "-o", str(out("deid") / "out.jsonl"), *seed, *key, *quiet,
                 "--detectors", "patterns", "--summary", str(tmp / "deid" / "run.json"),
                 "--privacy-report", str(tmp / "deid" / "privacy.jsonl")],
        "detect": ["detect", str(SAMPLE), "-o", str(out("detect") / "spans.jsonl"), *quiet,  # no --seed
                   "--config", str(given["config"]), "--summary", str(tmp / "detect" / "run.json")],
        "words": ["obfuscate", "words", str(SAMPLE), "-o", str(out("words") / "out.jsonl"), *seed, *quiet,
                  "--summary", str(tmp / "words" / "run.json")],
        "sentences": ["obfuscate", "sentences", str(SAMPLE), "-o", str(out("sentences") / "out.jsonl"),
                      *seed, *quiet, "--summary", str(tmp / "sentences" / "run.json")],
        "hybrid": ["obfuscate", "hybrid", str(SAMPLE), "-o", str(out("hybrid") / "out.jsonl"), *seed,
                   *quiet, "--detectors", "patterns", "--then", "words",
                   "--summary", str(tmp / "hybrid" / "run.json")],
        "deid-fhir": ["deid-fhir", str(given["fhir"]), "-o", str(out("deid-fhir") / "out"), *seed, *quiet,
                      "--summary", str(tmp / "deid-fhir" / "manifest.json")],
        "deid-sql": ["deid-sql", "--url", f"sqlite:///{given['db']}", "--table", "note",
                     "--map", "id=note_id,text=note_text", "-o", str(out("deid-sql") / "out"), *seed, *key,
                     *quiet, "--detectors", "patterns", "--summary", str(tmp / "deid-sql" / "run.json")],
        "review sample": ["review", "sample", str(SAMPLE), "-o", str(out("review") / "folder"), *seed,
                          "--detectors", "patterns", "--n", "3", "--length-bands", "1", "--oversample", "1"],
    }  # fmt: skip


def _written(folder: Path) -> list[Path]:
    return [path for path in folder.rglob("*") if path.is_file()]


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    """Each command run once: the folder it wrote into and what it printed."""
    tmp = tmp_path_factory.mktemp("secrets")
    (tmp / "inputs").mkdir()
    given = _inputs(tmp / "inputs")
    runs: dict[str, tuple[Path, str]] = {}
    for name, args in _commands(tmp, given).items():
        with pytest.MonkeyPatch.context() as patch:  # the command line a command records
            patch.setattr(sys, "argv", ["anonymed", *args])
            result = runner.invoke(app, args)
        assert result.exit_code == 0, (name, result.output)
        runs[name] = (Path(args[args.index("-o") + 1]).parent, result.output)
    review = tmp / "review"
    reported = runner.invoke(
        app, ["review", "report", str(review / "folder"), "-o", str(review / "report.json")]
    )
    assert reported.exit_code == 0, reported.output
    release = tmp / "release"
    release.mkdir()
    typed = f"anonymed deid notes.jsonl -o out.jsonl --seed {SEED} --patient-key-file k"
    result = runner.invoke(app, ["release", "report", "--summary", str(tmp / "deid" / "run.json"),
                                 "-o", str(release / "release.json"), "--review", str(review / "folder"),
                                 "--command", typed, "--command", f"anonymed deid-sql --url "
                                 f"postgresql://u:{PASSWORD}@db/notes --seed={SEED}"])  # fmt: skip
    assert result.exit_code == 0, result.output
    runs["release report"] = (release, result.output)
    return runs


ALL = ("deid", "detect", "words", "sentences", "hybrid", "deid-fhir", "deid-sql", "review sample")


@pytest.mark.parametrize("name", [*ALL, "release report"])
def test_no_written_file_holds_the_seed_the_key_or_a_password(
    ran: dict[str, tuple[Path, str]], name: str
) -> None:
    folder, _ = ran[name]
    files = _written(folder)
    assert files, name
    for path in files:
        data = path.read_bytes()
        for secret in (SEED.encode(), KEY, KEY.hex().encode(), PASSWORD.encode()):
            assert secret not in data, (name, path.name)


@pytest.mark.parametrize("name", ["deid", "detect", "words", "sentences", "hybrid", "deid-fhir", "deid-sql"])
def test_a_summary_says_a_seed_was_set_and_where_from(ran: dict[str, tuple[Path, str]], name: str) -> None:
    folder, _ = ran[name]
    summary = json.loads(
        next(p for p in _written(folder) if p.name in ("run.json", "manifest.json")).read_text()
    )
    recorded = summary["configuration"]
    assert recorded["secrets"]["seed"] == {"source": "file" if name == "detect" else "option"}
    assert "pipeline.seed" not in recorded["sources"] and "seed" not in recorded["values"].get("pipeline", {})
    if name not in ("detect", "deid-fhir"):
        assert summary["seeded"] is True


def test_the_review_records_that_its_draw_was_seeded(ran: dict[str, tuple[Path, str]]) -> None:
    folder, _ = ran["review sample"]
    manifest = json.loads((folder / "folder" / "manifest.json").read_text())
    assert manifest["design"]["seeded"] is True and REDACTED in manifest["command"]
    report = json.loads((folder / "report.json").read_text())
    assert report["design"]["seeded"] is True and REDACTED in report["sample_command"]


def test_config_show_keeps_the_seed_it_is_the_users_own_file(tmp_path: Path) -> None:
    shown = runner.invoke(app, ["config", "show", "--seed", SEED])
    assert shown.exit_code == 0 and f"seed = {SEED}  # option" in shown.stdout


def test_a_database_password_is_not_in_an_error_message(tmp_path: Path) -> None:
    pytest.importorskip("adbc_driver_postgresql")
    url = f"postgresql://anon:{PASSWORD}@127.0.0.1:1/notes"  # nothing listens on port 1
    result = runner.invoke(app, ["deid-sql", "--url", url, "--table", "note", "--map", "id=a,text=b",
                                 "-o", str(tmp_path / "out"), "--no-progress"])  # fmt: skip
    assert result.exit_code == 2 and "cannot connect to postgresql://anon:" in result.output
    assert PASSWORD not in result.output


def test_a_database_password_is_not_in_an_engine_error(tmp_path: Path) -> None:
    pytest.importorskip("sqlalchemy")
    from anonymed.errors import ConfigError
    from anonymed.sql.database import open_database

    with pytest.raises(ConfigError) as caught:
        open_database(f"postgresql://anon:{PASSWORD}@db:notaport/notes", "sqlalchemy")
    assert PASSWORD not in str(caught.value)


def test_a_sql_job_does_not_show_its_url() -> None:
    from anonymed.sql import ColumnMap, Source, SqlJob

    job = SqlJob(f"postgresql://anon:{PASSWORD}@db/notes", Source("note"), ColumnMap.parse("id=a,text=b"),
                 parquet=Path("out"))  # fmt: skip
    assert PASSWORD not in repr(job)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        (f"postgresql://anon:{PASSWORD}@db:5432/notes", f"postgresql://anon:{REDACTED}@db:5432/notes"),
        (f"postgresql://db/notes?sslmode=require&password={PASSWORD}",
         f"postgresql://db/notes?sslmode=require&password={REDACTED}"),
        (f"mssql+pyodbc://anon:{PASSWORD}@x@db/notes", f"mssql+pyodbc://anon:{REDACTED}@db/notes"),
        ("sqlite:///data/notes.db", "sqlite:///data/notes.db"),
        ("postgresql://anon@db/notes", "postgresql://anon@db/notes"),
    ],
)  # fmt: skip
def test_a_url_is_shown_without_its_password(url: str, shown: str) -> None:
    assert url_without_password(url) == shown
    message = without_url_password(f"failed: {url} ({PASSWORD[:-1]}!, {PASSWORD})", url)
    assert (PASSWORD not in message) if PASSWORD in url else message.startswith(f"failed: {url} (")


def test_a_command_line_is_recorded_without_its_seed_or_password() -> None:
    args = [
        "anonymed",
        "deid",
        "in.jsonl",
        "--seed",
        SEED,
        "--url",
        f"pg://u:{PASSWORD}@h/d",
        f"--seed={SEED}",
    ]
    recorded = redacted_command(args)
    assert recorded[:4] == args[:4] and SEED not in " ".join(recorded) and PASSWORD not in " ".join(recorded)
    line = redacted_command_line(" ".join(args))
    assert line.startswith("anonymed deid in.jsonl --seed <set") and SEED not in line and PASSWORD not in line
