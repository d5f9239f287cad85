"""Process factories: built once per worker, per-shard streams from the seed and shard id, counts."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.runner.factories import PipelineFactory
from anonymed.runner.process import Process, ProcessFactory, ShardTask, built_process, run_shard, shard_stream
from anonymed.runner.shardfile import read_shard_file
from anonymed.runner.shards import ReaderSpec, plan_shards


@dataclass(frozen=True)
class Dice(ProcessFactory):
    """Appends a roll from the shard's stream to every note (a process with a running stream)."""

    seed: int | None = 1

    def build(self) -> Process:
        return lambda doc: doc

    def for_shard(self, process: Process, shard_id: str) -> Process:
        rng = shard_stream(self.seed, shard_id)
        return lambda doc: doc.evolve(output=f"{doc.text} {rng.randbelow(10**6)}")

    def tally(self, doc: Document) -> Mapping[str, int]:
        return {"rolled": 1}


def test_shard_streams_depend_on_the_seed_and_shard_id_only() -> None:
    draw = [shard_stream(7, shard).randbelow(10**9) for shard in ("000000", "000001", "000000")]
    assert draw[0] == draw[2] != draw[1]
    assert shard_stream(8, "000000").randbelow(10**9) != draw[0]
    assert shard_stream(None, "000000").secure


def test_a_worker_builds_each_factory_once() -> None:
    factory = Dice(seed=41)
    first, built_first = built_process(factory)
    again, built_again = built_process(Dice(seed=41))  # an equal factory: same fingerprint
    assert (built_first, built_again) == (True, False) and first is again
    assert built_process(Dice(seed=42))[1]


def test_fingerprints_tell_configurations_apart() -> None:
    assert Dice(1).fingerprint() == Dice(1).fingerprint() != Dice(2).fingerprint()
    base = PipelineFactory(PipelineConfig(seed=1))
    assert base.fingerprint() == PipelineFactory(PipelineConfig(seed=1)).fingerprint()
    assert base.fingerprint() != PipelineFactory(PipelineConfig(seed=2)).fingerprint()
    assert (
        base.fingerprint() != PipelineFactory(PipelineConfig(seed=1), disable=("substitute",)).fingerprint()
    )
    keyed = PipelineFactory(PipelineConfig(seed=1, patient_key=b"k" * 16))
    assert b"k" * 16 not in keyed.fingerprint().encode() and keyed.fingerprint() != base.fingerprint()


def test_a_shard_task_writes_its_file_and_counts(tmp_path: Path) -> None:
    corpus = tmp_path / "notes.jsonl"
    corpus.write_text("".join(json.dumps({"text": f"note number {i}"}) + "\n" for i in range(5)), "utf-8")
    spec = ReaderSpec.of(corpus)
    shard = plan_shards(spec, 3).shards[1]
    result = run_shard(ShardTask(Dice(), spec, shard, tmp_path / "shard-000001.pkl"))
    docs = list(read_shard_file(tmp_path / result.file, result.sha256))
    assert [d.id for d in docs if isinstance(d, Document)] == ["4", "5"]
    assert (result.read, result.tokens, dict(result.counters)) == (2, 6, {"rolled": 2})
    again = run_shard(ShardTask(Dice(), spec, shard, tmp_path / "shard-000001.pkl"))
    assert again.sha256 == result.sha256  # the shard's stream: same draws on a re-run
