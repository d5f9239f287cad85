"""A batch killed with SIGKILL at random points and resumed gives the bytes of an uninterrupted run."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from anonymed.config import PipelineConfig
from anonymed.io.registry import open_writer
from anonymed.methods import ReplaceConfig
from anonymed.runner.batch import BatchOptions, run_batch
from anonymed.runner.shards import ReaderSpec

#: the seeds of the kill points (how many finished shards to wait for, drawn among the shards still to do,
#: then how long to wait more); CI runs one chain of three kills, ``ANONYMED_KILL_SEEDS=1-20`` runs twenty
KILL_SEEDS = os.environ.get("ANONYMED_KILL_SEEDS", "11")
KILLS = 3
SHARD_SIZE = 4
CLI = [sys.executable, "-c", "from anonymed.cli import main; main()"]


def write_corpus(path: Path, count: int = 40) -> Path:
    """Notes full of PHI, and one malformed line (a failure keeps its place across kills)."""
    with path.open("w", encoding="utf-8") as out:
        for i in range(count):
            text = (
                f"Mr. John Smith{i} was seen by Dr. Helen Park on 0{i % 9 + 1}/1{i % 3}/2019 in Boston, "
                f"aged {40 + i}; call (617) 555-{1000 + i} or mail h{i}@example.org. MRN {4482913 + i}."
            )
            out.write(json.dumps({"id": f"n{i:03d}", "text": text, "patient_id": f"p{i % 6}"}) + "\n")
            if i == 21:
                out.write('{"id": "broken", "text": \n')
    return path


def deid(corpus: Path, output: Path, workdir: Path) -> subprocess.Popen[bytes]:
    """``anonymed deid`` with the sharded runner, seeded and without DP operators (reproducible)."""
    command = [
        *CLI, "deid", str(corpus), "-o", str(output), "--workdir", str(workdir),
        "--shard-size", str(SHARD_SIZE), "--seed", "7",
        "--operator", "DATE=fake", "--operator", "AGE=fake", "--no-progress", "--max-failures", "1",
    ]  # fmt: skip
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def finished_shards(workdir: Path) -> int:
    try:
        lines = (workdir / "manifest.jsonl").read_text(encoding="utf-8").splitlines()
    except OSError:
        return 0
    return max(0, len(lines) - 1)


def kill_at(process: subprocess.Popen[bytes], workdir: Path, shards: int, delay: float) -> bool:
    """SIGKILL the run once ``shards`` shards are done, then ``delay`` seconds later or as soon as one more
    shard is done, whichever comes first (False: it ended before).

    The kill point is tied to the run's progress, not to the clock: a point drawn with at least two shards
    still to do is always reached while the run is working, however fast the machine is.
    """
    deadline = time.monotonic() + 120
    while process.poll() is None and finished_shards(workdir) < shards and time.monotonic() < deadline:
        time.sleep(0.005)
    until = time.monotonic() + delay
    while process.poll() is None and finished_shards(workdir) <= shards and time.monotonic() < until:
        time.sleep(0.002)
    if process.poll() is not None:
        return False
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    return True


def leftovers(folder: Path, output: Path) -> list[str]:
    """Temporary siblings of the output (hidden ``.out.jsonl.*.tmp`` files)."""
    return sorted(
        p.name for p in folder.iterdir() if p.name.startswith(f".{output.name}.") and "tmp" in p.name
    )


def seeds(spec: str) -> list[int]:
    """``"11"``, ``"1,5"`` or ``"1-20"``."""
    low, _, high = spec.partition("-")
    return list(range(int(low), int(high) + 1)) if high else [int(s) for s in spec.split(",")]


@pytest.mark.slow
@pytest.mark.parametrize("seed", seeds(KILL_SEEDS))
def test_runs_killed_at_random_points_resume_to_the_uninterrupted_bytes(tmp_path: Path, seed: int) -> None:
    corpus = write_corpus(tmp_path / "notes.jsonl")
    whole = tmp_path / "whole.jsonl"
    done = deid(corpus, whole, tmp_path / "whole-run")
    assert done.wait(timeout=300) == 0, done.stderr.read() if done.stderr else ""
    expected = whole.read_bytes()
    assert len(expected.splitlines()) == 41

    output, workdir = tmp_path / "out.jsonl", tmp_path / "run"
    total = -(-41 // SHARD_SIZE)
    points = random.Random(seed)
    killed = []
    for _ in range(KILLS):
        done = finished_shards(workdir)
        if done > total - 2:
            break  # fewer than two shards left: no kill point is sure to come before the end
        shards, delay = points.randint(done, total - 2), points.uniform(0.0, 0.2)
        if not kill_at(deid(corpus, output, workdir), workdir, shards, delay):
            break  # the run ended before the chosen point (it should not: at least one shard was left)
        killed.append((shards, round(delay, 3)))
        # a killed run leaves no output, or (killed after the final rename) the complete one
        assert not output.exists() or output.read_bytes() == expected
    assert killed, "no run was killed: the points are too late for this corpus"
    if "ANONYMED_KILL_LOG" in os.environ:  # the long run counts the kills it made
        with open(os.environ["ANONYMED_KILL_LOG"], "a", encoding="utf-8") as log:
            log.write(json.dumps({"seed": seed, "killed": killed}) + "\n")

    resumed = deid(corpus, output, workdir)
    assert resumed.wait(timeout=300) == 0, resumed.stderr.read() if resumed.stderr else ""
    assert output.read_bytes() == expected, f"kill points (finished shards, extra seconds): {killed}"
    assert leftovers(tmp_path, output) == []
    assert not workdir.exists()  # removed after a successful run
    assert os.stat(output).st_mode & 0o777 == 0o600


def test_a_run_removes_the_temporary_outputs_killed_runs_left(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "notes.jsonl", count=3)
    output = tmp_path / "out.jsonl"
    stale = [tmp_path / ".out.jsonl.k1ll3d_a.tmp", tmp_path / ".out.jsonl.0ld0ut99.old"]
    kept = [tmp_path / ".out.jsonl.notes", tmp_path / ".other.jsonl.k1ll3d_a.tmp", tmp_path / "x.tmp"]
    for path in [*stale, *kept]:
        path.write_text("partial", encoding="utf-8")
    spec = ReaderSpec.of(corpus)
    run_batch(
        spec, open_writer(output, like=spec.open()), ReplaceConfig(PipelineConfig(seed=1)), BatchOptions()
    )
    assert [p.exists() for p in stale] == [False, False]
    assert [p.exists() for p in kept] == [True, True, True]
    assert len(output.read_text(encoding="utf-8").splitlines()) == 3
