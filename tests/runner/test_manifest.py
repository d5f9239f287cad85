"""Manifest and shard files: a killed run resumes to the bytes of an uninterrupted one; damage is redone."""

from __future__ import annotations

import datetime as dt
import json
import os
import pickle
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.errors import ConfigError, OutputError
from anonymed.io.base import ReadFailure
from anonymed.io.registry import open_writer
from anonymed.labels import Label
from anonymed.methods import ReplaceConfig
from anonymed.runner.batch import BatchOptions, BatchSummary, default_workdir, run_batch
from anonymed.runner.manifest import MANIFEST, Manifest, ShardResult
from anonymed.runner.shardfile import ShardFileWriter, file_digest, read_shard_file
from anonymed.runner.shards import ReaderSpec

#: seeded and without differential-privacy operators (OpenDP's noise cannot be seeded): reproducible
SEEDED = {Label.DATE: "fake", Label.AGE: "fake"}
CONFIG = PipelineConfig(seed=11, detectors=("patterns",), operators=SEEDED)


def write_corpus(path: Path, count: int = 40) -> Path:
    """Small notes with dates, phones and emails, and one unreadable line."""
    with path.open("w", encoding="utf-8") as out:
        for i in range(count):
            text = (
                f"Note {i}: seen on 0{i % 9 + 1}/1{i % 3}/2019, call 617-555-{1000 + i}, mail x{i}@mail.org."
            )
            out.write(json.dumps({"id": f"n{i}", "text": text, "patient_id": f"p{i % 7}"}) + "\n")
            if i == 17:
                out.write("{not json\n")
    return path


def run(corpus: Path, output: Path, size: int = 5) -> BatchSummary:
    spec = ReaderSpec.of(corpus)
    return run_batch(
        spec, open_writer(output, like=spec.open()), ReplaceConfig(CONFIG), BatchOptions(shard_size=size)
    )


KILLER = """
import os, signal, sys
from pathlib import Path
from anonymed.config import PipelineConfig
from anonymed.io.registry import open_writer
from anonymed.runner.batch import BatchOptions, run_batch
from anonymed.methods import ReplaceConfig
from anonymed.runner.shards import ReaderSpec
from anonymed.labels import Label

def die_after_two(state):
    if state.shards_done >= 2:
        os.kill(os.getpid(), signal.SIGKILL)

spec = ReaderSpec.of(Path(sys.argv[1]))
seeded = {Label.DATE: "fake", Label.AGE: "fake"}
method = ReplaceConfig(PipelineConfig(seed=11, detectors=("patterns",), operators=seeded))
writer = open_writer(Path(sys.argv[2]), like=spec.open())
run_batch(spec, writer, method, BatchOptions(shard_size=5), on_progress=die_after_two)
"""


@pytest.fixture(scope="module")
def killed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A corpus and the output path of a run SIGKILLed after its second finished shard."""
    root = tmp_path_factory.mktemp("killed")
    corpus = write_corpus(root / "notes.jsonl")
    output = root / "out.jsonl"
    done = subprocess.run([sys.executable, "-c", KILLER, str(corpus), str(output)], check=False, timeout=120)
    assert done.returncode == -signal.SIGKILL
    return corpus, output


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory, killed: tuple[Path, Path]) -> bytes:
    output = tmp_path_factory.mktemp("whole") / "out.jsonl"
    summary = run(killed[0], output)
    assert (summary.read, summary.failed, summary.shards) == (41, 1, 9)
    return output.read_bytes()


def copy_of_killed_run(killed: tuple[Path, Path], tmp_path: Path) -> Path:
    """The killed run's work folder copied next to a fresh output path (each test resumes its own)."""
    source = default_workdir(killed[1])
    output = tmp_path / "out.jsonl"
    target = default_workdir(output)
    target.mkdir(mode=0o700)
    for path in source.iterdir():
        (target / path.name).write_bytes(path.read_bytes())
    return output


def test_a_killed_run_leaves_no_output_and_two_finished_shards(killed: tuple[Path, Path]) -> None:
    assert not killed[1].exists()
    lines = (default_workdir(killed[1]) / MANIFEST).read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + 2  # header + two shards


def test_resuming_skips_finished_shards_and_gives_the_uninterrupted_bytes(
    killed: tuple[Path, Path], uninterrupted: bytes, tmp_path: Path
) -> None:
    output = copy_of_killed_run(killed, tmp_path)
    summary = run(killed[0], output)
    assert output.read_bytes() == uninterrupted
    assert (summary.resumed, summary.processed, summary.read) == (2, 31, 41)
    assert not default_workdir(output).exists()  # cleaned up after success


def test_a_damaged_shard_file_is_not_taken_as_finished(
    killed: tuple[Path, Path], uninterrupted: bytes, tmp_path: Path
) -> None:
    output = copy_of_killed_run(killed, tmp_path)
    shard = default_workdir(output) / "shard-000001.pkl"
    shard.write_bytes(shard.read_bytes()[:-7])  # as if cut short
    summary = run(killed[0], output)
    assert summary.resumed == 1
    assert output.read_bytes() == uninterrupted


def test_a_torn_or_garbled_manifest_is_not_trusted(
    killed: tuple[Path, Path], uninterrupted: bytes, tmp_path: Path
) -> None:
    output = copy_of_killed_run(killed, tmp_path)
    manifest = default_workdir(output) / MANIFEST
    lines = manifest.read_text(encoding="utf-8").splitlines()
    manifest.write_text(
        lines[0] + "\n" + lines[1][:40], encoding="utf-8"
    )  # second shard line lost, first torn
    summary = run(killed[0], output)
    assert summary.resumed == 0
    assert output.read_bytes() == uninterrupted


def test_another_process_or_input_starts_afresh(killed: tuple[Path, Path], tmp_path: Path) -> None:
    output = copy_of_killed_run(killed, tmp_path)
    spec = ReaderSpec.of(killed[0])
    other = ReplaceConfig(CONFIG.replace(seed=12))
    summary = run_batch(spec, open_writer(output, like=spec.open()), other, BatchOptions(shard_size=5))
    assert summary.resumed == 0


def test_shard_file_round_trip_keeps_documents_and_failures(tmp_path: Path) -> None:
    doc = Document("a", "text", {"record": {"when": dt.date(2020, 1, 2)}, "lang": "en"}, output="TEXT")
    failure = ReadFailure(1, "b", "malformed JSON")
    writer = ShardFileWriter(tmp_path / "shard-000000.pkl")
    with writer:
        writer.write(doc)
        writer.write_failure(failure)
    path = tmp_path / "shard-000000.pkl"
    assert file_digest(path) == (writer.size, writer.sha256)
    assert list(read_shard_file(path, writer.sha256)) == [doc, failure]
    with pytest.raises(OutputError, match="does not match its manifest entry"):
        list(read_shard_file(path, "0" * 64))


def test_a_shard_file_cannot_smuggle_in_code(tmp_path: Path) -> None:
    path = tmp_path / "shard-000000.pkl"
    path.write_bytes(pickle.dumps(os.system))
    with pytest.raises(OutputError, match=r"cannot read shard file 'shard-000000.pkl' \(UnpicklingError\)"):
        list(read_shard_file(path, ""))


def entry(index: int, workdir: Path, data: bytes = b"x") -> ShardResult:
    name = f"shard-{index:06d}.pkl"
    (workdir / name).write_bytes(data)
    size, digest = file_digest(workdir / name)
    return ShardResult(index, name, digest, size, read=1, written=1, failures=(ReadFailure(0, "i", "why"),))


def test_manifest_keeps_verified_entries_and_drops_leftovers(tmp_path: Path) -> None:
    with Manifest(tmp_path, "run-1") as manifest:
        manifest.add(entry(0, tmp_path))
        manifest.add(entry(1, tmp_path))
    (tmp_path / "shard-000001.pkl").write_bytes(b"y")  # same size, other bytes
    (tmp_path / ".shard-000002.pkl.abc.tmp").write_bytes(b"partial")
    with Manifest(tmp_path, "run-1") as manifest:
        assert sorted(manifest.finished) == [0]
        assert manifest.finished[0] == entry(0, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lock", MANIFEST, "shard-000000.pkl"]
    with Manifest(tmp_path, "run-2") as manifest:
        assert manifest.finished == {}
    assert not (tmp_path / "shard-000000.pkl").exists()


def test_two_runs_cannot_share_a_work_folder(tmp_path: Path) -> None:
    with Manifest(tmp_path, "run"), pytest.raises(ConfigError, match="another run is using the work folder"):
        Manifest(tmp_path, "run").__enter__()
