"""``deid`` / ``detect`` through the batch runner: options checked, formats kept, summary printed."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from anonymed.cli import app

runner = CliRunner()
NOTES = [f"Seen on 0{i + 1}/02/2020, call 617-555-{1200 + i}." for i in range(5)]


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    path = tmp_path / "notes.jsonl"
    path.write_text("".join(json.dumps({"id": f"n{i}", "text": t}) + "\n" for i, t in enumerate(NOTES)))
    return path


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--workers", "0"], "--workers must be at least 1, got 0"),  # no empty cluster
        (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "not both"),  # one place to run
        (["--shard-size", "0"], "--shard-size must be at least 1, got 0"),  # shards hold records
    ],
)
def test_bad_scale_options_exit_2_naming_the_option(
    notes: Path, tmp_path: Path, options: list[str], message: str
) -> None:
    result = runner.invoke(app, ["deid", str(notes), "-o", str(tmp_path / "o.jsonl"), *options])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())
    assert not (tmp_path / "o.jsonl").exists()


def test_deid_reports_tokens_and_throughput_and_cleans_its_work_folder(notes: Path, tmp_path: Path) -> None:
    out = tmp_path / "o.jsonl"
    summary = tmp_path / "summary.json"
    args = ["deid", str(notes), "-o", str(out), "--seed", "1", "--shard-size", "2", "--summary", str(summary)]
    result = runner.invoke(app, [*args, "--detectors", "patterns", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "tokens/s on 1 worker(s)" in result.output
    report = json.loads(summary.read_text())
    assert (report["read"], report["shards"], report["tokens"]) == (5, 3, sum(len(t.split()) for t in NOTES))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.jsonl", "o.jsonl", "summary.json"]


def test_detect_writes_spans_through_the_batch_runner(notes: Path, tmp_path: Path) -> None:
    out = tmp_path / "spans.jsonl"
    args = [
        "detect",
        str(notes),
        "-o",
        str(out),
        "--detectors",
        "patterns",
        "--shard-size",
        "2",
        "--no-progress",
    ]
    assert runner.invoke(app, args).exit_code == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["id"] for line in lines] == [f"n{i}" for i in range(5)]
    assert all({s["label"] for s in line["spans"]} >= {"DATE", "CONTACT"} for line in lines)


def test_parquet_in_parquet_out(tmp_path: Path) -> None:
    source = tmp_path / "notes.parquet"
    pq.write_table(pa.table({"id": [1, 2], "text": NOTES[:2], "ward": ["a", "b"]}), source, row_group_size=1)
    out = tmp_path / "out.parquet"
    args = [
        "deid",
        str(source),
        "-o",
        str(out),
        "--detectors",
        "patterns",
        "--shard-size",
        "1",
        "--no-progress",
    ]
    assert runner.invoke(app, args).exit_code == 0
    table = pq.read_table(out)
    assert table.column("id").to_pylist() == [1, 2] and table.column("ward").to_pylist() == ["a", "b"]
    assert all("617-555-12" not in text for text in table.column("text").to_pylist())
