"""The batch runner's progress reports count records (done of total, within a shard too) and patients."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from anonymed.config import PipelineConfig
from anonymed.io.registry import open_writer
from anonymed.methods import ReplaceConfig
from anonymed.runner import batch
from anonymed.runner.batch import BatchOptions, BatchProgress, run_batch
from anonymed.runner.shards import ReaderSpec

METHOD = ReplaceConfig(PipelineConfig(seed=1, detectors=("patterns",)))


def _corpus(path: Path, count: int, field: str = "patient_id") -> Path:
    lines = [
        json.dumps({"id": f"n{i}", "text": f"Call 617-555-{1000 + i}.", **({field: "p1"} if i % 2 else {})})
        for i in range(count)
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_progress_counts_records_within_a_shard(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "PROGRESS_INTERVAL", 0.0)  # report after every record
    spec = ReaderSpec.of(_corpus(tmp_path / "in.jsonl", 12))
    states: list[BatchProgress] = []
    writer = open_writer(tmp_path / "out.jsonl", like=spec.open())
    run_batch(spec, writer, METHOD, BatchOptions(shard_size=500), on_progress=states.append)
    assert {s.documents_total for s in states} == {12}
    assert [s.documents for s in states] == [*range(12), 12]  # one shard, yet every record shows
    assert states[-1].shards_done == 1 and states[0].shards_done == 0


def test_progress_reports_are_rate_limited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "PROGRESS_INTERVAL", 3600.0)
    spec = ReaderSpec.of(_corpus(tmp_path / "in.jsonl", 12))
    states: list[BatchProgress] = []
    writer = open_writer(tmp_path / "out.jsonl", like=spec.open())
    run_batch(spec, writer, METHOD, BatchOptions(shard_size=5), on_progress=states.append)
    assert [s.documents for s in states] == [0, 5, 10, 12]  # the start and each finished shard


def test_the_summary_counts_documents_that_name_a_patient(tmp_path: Path) -> None:
    spec = ReaderSpec.of(_corpus(tmp_path / "in.jsonl", 9, field="mrn"), patient_field="mrn")
    summary = run_batch(
        spec, open_writer(tmp_path / "out.jsonl", like=spec.open()), METHOD, BatchOptions(shard_size=4)
    )
    assert summary.with_patient == 4 and summary.to_json()["with_patient_id"] == 4
    other = ReaderSpec.of(tmp_path / "in.jsonl")  # the default field, patient_id, is not in these records
    summary = run_batch(other, open_writer(tmp_path / "o2.jsonl", like=other.open()), METHOD)
    assert summary.with_patient == 0
