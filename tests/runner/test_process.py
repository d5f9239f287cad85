"""The worker's side of a batch run: a method built once per worker, per-document streams, counts."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.methods import Method, MethodConfig, ReplaceConfig
from anonymed.randomness import check_random_state
from anonymed.runner.process import ShardTask, built_method, run_shard
from anonymed.runner.shardfile import read_shard_file
from anonymed.runner.shards import ReaderSpec, plan_shards


@dataclass(frozen=True)
class Dice(MethodConfig):
    """Appends a roll from the document's stream to every note (a method of the test's own)."""

    seed: int | None = 1  # type: ignore[assignment]
    kind = "dice"

    def describe(self) -> Any:
        return [self.seed]

    def reseeded(self, seed: int | None) -> Dice:
        return Dice(seed)

    def build(self) -> Roll:
        return Roll(self)


class Roll(Method[Dice]):
    def load(self) -> Roll:
        return self

    def __call__(self, doc: Document) -> Document:
        rng = check_random_state(self.config.seed).spawn(f"doc:{doc.id}")
        return doc.evolve(output=f"{doc.text} {rng.randbelow(10**6)}")

    def reseeded(self, seed: int | None) -> Roll:
        return Roll(self.config.reseeded(seed))

    def tally(self, doc: Document) -> Mapping[str, int]:
        return {"rolled": 1}


def test_a_worker_builds_each_method_once() -> None:
    first, built_first = built_method(Dice(seed=41))
    again, built_again = built_method(Dice(seed=41))  # an equal configuration: same fingerprint
    assert (built_first, built_again) == (True, False) and first is again
    assert built_method(Dice(seed=42))[1]


def test_fingerprints_tell_configurations_apart() -> None:
    assert Dice(1).fingerprint() == Dice(1).fingerprint() != Dice(2).fingerprint()
    base = ReplaceConfig(PipelineConfig(seed=1))
    assert base.fingerprint() == ReplaceConfig(PipelineConfig(seed=1)).fingerprint()
    assert base.fingerprint() != ReplaceConfig(PipelineConfig(seed=2)).fingerprint()
    assert base.fingerprint() != ReplaceConfig(PipelineConfig(seed=1, stages=("detect",))).fingerprint()
    keyed = ReplaceConfig(PipelineConfig(seed=1, patient_key=b"k" * 16))
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
    assert again.sha256 == result.sha256  # the documents' streams: same draws on a re-run
