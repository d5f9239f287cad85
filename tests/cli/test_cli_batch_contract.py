"""What a batch scheduler relies on: exit codes, folder outputs, patient ids, progress and permissions."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anonymed.cli import app
from anonymed.io.atomic import output_mode

runner = CliRunner()
NOTE = "Mr. JOHN DURAND was seen on 02/12/2020; call (617) 555-0142."


def jsonl(path: Path, rows: list[dict[str, str]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    return jsonl(tmp_path / "notes.jsonl", [{"id": f"n{i}", "mrn": "P7", "text": NOTE} for i in range(4)])


@pytest.fixture
def umask_022() -> Iterator[None]:
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


def test_a_run_in_which_every_record_failed_exits_3(tmp_path: Path) -> None:
    csv = tmp_path / "notes.csv"
    csv.write_text("id,text\n" + "".join(f"n{i},note {i}\n" for i in range(5)), encoding="utf-8")
    out, summary = tmp_path / "x.csv", tmp_path / "run.json"
    args = ["deid", str(csv), "-o", str(out), "--input-format", "jsonl", "--no-progress"]
    result = runner.invoke(app, [*args, "--summary", str(summary), "--max-failures", "100%"])
    assert result.exit_code == 3, result.output
    assert "run failed" in result.output and "6 of 6 records failed" in " ".join(result.output.split())
    data = json.loads(summary.read_text())
    assert data["ok"] is False and data["failed"] == data["read"] == 6


@pytest.mark.parametrize(("limit", "code"), [(None, 3), ("1", 0), ("34%", 0), ("33%", 3), ("0", 3)])
def test_max_failures_is_a_count_or_a_share(tmp_path: Path, limit: str | None, code: int) -> None:
    rows = [{"id": "a", "text": NOTE}, {"id": "b", "body": "no text"}, {"id": "c", "text": NOTE}]
    src = jsonl(tmp_path / "in.jsonl", rows)
    args = ["deid", str(src), "-o", str(tmp_path / "out.jsonl"), "--no-progress"]
    result = runner.invoke(app, [*args, *(["--max-failures", limit] if limit else [])])
    assert result.exit_code == code, result.output
    assert len((tmp_path / "out.jsonl").read_text().splitlines()) == 3  # written either way
    assert ("run failed" in result.output) is (code == 3)


def test_a_bad_max_failures_is_a_usage_error(notes: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["deid", str(notes), "-o", str(tmp_path / "o.jsonl"), "--max-failures", "x"])
    assert result.exit_code == 2 and "--max-failures" in result.output


def test_a_trailing_slash_means_a_folder_output(notes: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["deid", str(notes), "-o", f"{tmp_path / 'notes.deid'}/", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "notes.deid").iterdir()) == [f"n{i}.txt" for i in range(4)]


def test_a_folder_input_writes_a_folder_output_that_did_not_exist(tmp_path: Path) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text(NOTE, encoding="utf-8")
    for output in (tmp_path / "notes.deid", f"{tmp_path / 'other.deid'}/"):
        result = runner.invoke(app, ["deid", str(tmp_path / "notes"), "-o", str(output), "--no-progress"])
        assert result.exit_code == 0, result.output
        assert "DURAND" not in (Path(output) / "a.txt").read_text()


def test_a_missing_input_says_it_does_not_exist(tmp_path: Path) -> None:
    for name in ("notes", "notes.jsonl"):
        result = runner.invoke(app, ["deid", str(tmp_path / name), "-o", f"{tmp_path / 'out'}/"])
        assert result.exit_code == 2 and "does not exist" in " ".join(result.output.split())
        assert "cannot guess" not in result.output


def test_the_patient_field_makes_surrogates_consistent_across_a_patients_notes(
    notes: Path, tmp_path: Path
) -> None:
    key, out = tmp_path / "key", tmp_path / "out.jsonl"
    assert runner.invoke(app, ["keygen", str(key)]).exit_code == 0
    args = ["deid", str(notes), "-o", str(out), "--patient-key-file", str(key), "--no-progress"]
    result = runner.invoke(app, [*args, "--patient-field", "mrn"])
    assert result.exit_code == 0, result.output
    texts = {json.loads(line)["text"] for line in out.read_text().splitlines()}
    assert len(texts) == 1 and "DURAND" not in texts.pop()  # four notes of one patient: one surrogate
    assert "warning" not in result.output


def test_a_patient_key_without_patient_ids_is_a_warning(notes: Path, tmp_path: Path) -> None:
    key = tmp_path / "key"
    runner.invoke(app, ["keygen", str(key)])
    args = ["deid", str(notes), "-o", str(tmp_path / "o.jsonl"), "--patient-key-file", str(key)]
    result = runner.invoke(app, [*args, "--no-progress"])
    assert result.exit_code == 0
    assert "no record has a patient id in field 'patient_id'" in " ".join(result.output.split())
    partly = jsonl(
        tmp_path / "partly.jsonl", [{"id": "a", "mrn": "P1", "text": NOTE}, {"id": "b", "text": NOTE}]
    )
    args = ["deid", str(partly), "-o", str(tmp_path / "p.jsonl"), "--patient-key-file", str(key)]
    result = runner.invoke(app, [*args, "--patient-field", "mrn", "--no-progress"])
    assert "1 of 2 records have no patient id" in " ".join(result.output.split())


def test_the_progress_bar_counts_records_with_rate_and_time_left(notes: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["deid", str(notes), "-o", str(tmp_path / "o.jsonl"), "--progress"])
    assert result.exit_code == 0, result.output
    assert "deid records" in result.output and "4/4" in result.output
    assert "records/s" in result.output and "ETA" in result.output


def test_every_output_is_owner_only_by_default(notes: Path, tmp_path: Path, umask_022: None) -> None:
    out, summary, report = tmp_path / "out", tmp_path / "run.json", tmp_path / "privacy.jsonl"
    args = ["deid", str(notes), "-o", f"{out}/", "--summary", str(summary), "--privacy-report", str(report)]
    assert runner.invoke(app, [*args, "--no-progress"]).exit_code == 0
    modes = {stat.S_IMODE(p.stat().st_mode) for p in [summary, report, *out.iterdir()]}
    assert modes == {0o600} and stat.S_IMODE(out.stat().st_mode) == 0o700


def test_with_umask_every_output_follows_the_umask(notes: Path, tmp_path: Path, umask_022: None) -> None:
    out, summary, csv = tmp_path / "out", tmp_path / "run.json", tmp_path / "o.csv"
    args = ["deid", str(notes), "-o", f"{out}/", "--summary", str(summary), "--umask", "--no-progress"]
    assert runner.invoke(app, args).exit_code == 0
    assert runner.invoke(app, ["deid", str(notes), "-o", str(csv), "--umask", "--no-progress"]).exit_code == 0
    modes = {stat.S_IMODE(p.stat().st_mode) for p in [summary, csv, *out.iterdir()]}
    assert modes == {0o644} and stat.S_IMODE(out.stat().st_mode) == 0o755
    assert output_mode() == 0o600  # the option lasts as long as its command


def test_a_csv_output_has_an_error_column_only_when_a_record_failed(tmp_path: Path) -> None:
    good = tmp_path / "good.csv"
    good.write_text(f'id,text\na,"{NOTE}"\n', encoding="utf-8")
    assert (
        runner.invoke(app, ["deid", str(good), "-o", str(tmp_path / "g.csv"), "--no-progress"]).exit_code == 0
    )
    assert (tmp_path / "g.csv").read_text().splitlines()[0] == "id,text"
    bad = tmp_path / "bad.csv"
    bad.write_text(f'id,text\na,"{NOTE}"\nb,x,extra\n', encoding="utf-8")
    args = ["deid", str(bad), "-o", str(tmp_path / "b.csv"), "--max-failures", "1", "--no-progress"]
    assert runner.invoke(app, args).exit_code == 0
    lines = (tmp_path / "b.csv").read_text().splitlines()
    assert lines[0] == "id,text,anonymed_error" and lines[1].endswith(",") and "row has 3 fields" in lines[2]
