"""Dask: a 2-process LocalCluster gives the bytes of one process; models load once per worker."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import dask
import pytest
from distributed import Client, LocalCluster
from typer.testing import CliRunner

from anonymed.cli import app
from anonymed.config import PipelineConfig
from anonymed.errors import InputError
from anonymed.io.registry import open_writer
from anonymed.labels import Label
from anonymed.methods import ReplaceConfig
from anonymed.runner.batch import BatchOptions, BatchSummary, run_batch
from anonymed.runner.dask import DaskExecutor, dask_executor
from anonymed.runner.manifest import shard_file_name
from anonymed.runner.process import ShardTask
from anonymed.runner.shards import ReaderSpec, plan_shards

#: seeded and without differential-privacy operators (OpenDP's noise cannot be seeded): reproducible
CONFIG = PipelineConfig(seed=5, detectors=("patterns",), operators={Label.DATE: "fake", Label.AGE: "fake"})

pytestmark = pytest.mark.slow  # starts worker processes: about 10 s for the module


@pytest.fixture(scope="module")
def cluster() -> Iterator[Client]:
    """Two worker processes of one thread, started once for the module and shut down after it."""
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as local,
        Client(local) as client,
    ):
        yield client
    assert local.status.name == "closed"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("corpus") / "notes.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for i in range(48):
            text = f"Seen {i % 28 + 1}/03/2021 by Dr Lee; phone 212-555-{2000 + i}; MRN {900000 + i}."
            out.write(json.dumps({"id": f"n{i}", "text": text}) + "\n")
    return path


def run(corpus: Path, output: Path, options: BatchOptions, config: PipelineConfig = CONFIG) -> BatchSummary:
    spec = ReaderSpec.of(corpus)
    return run_batch(spec, open_writer(output, like=spec.open()), ReplaceConfig(config), options)


def test_two_workers_give_the_bytes_of_one_process(cluster: Client, corpus: Path, tmp_path: Path) -> None:
    one = run(corpus, tmp_path / "one.jsonl", BatchOptions(shard_size=4))
    two = run(corpus, tmp_path / "two.jsonl", BatchOptions(shard_size=4, scheduler=cluster.scheduler.address))
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()
    assert (two.workers, two.shards, two.read, two.tokens) == (2, 12, 48, one.tokens)
    assert two.spans_by_label == one.spans_by_label and sum(two.spans_by_label.values()) >= 48 * 3


def test_one_and_two_workers_give_identical_output(cluster: Client, corpus: Path, tmp_path: Path) -> None:
    one = run(corpus, tmp_path / "one.jsonl", BatchOptions(shard_size=4, workers=1))  # its own LocalCluster
    run(corpus, tmp_path / "two.jsonl", BatchOptions(shard_size=4, scheduler=cluster.scheduler.address))
    assert one.workers == 1
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()


def _quiet(dask_worker: Any) -> tuple[bool, float]:
    """(On a worker) whether it runs Dask's sampling profiler, and its event-loop watchdog's interval."""
    profiling = any("profile" in name for name in dask_worker.periodic_callbacks)
    return profiling, dask_worker._tick_interval


def test_the_workers_option_starts_quiet_workers(cluster: Client) -> None:
    """--workers N: no sampling profiler, watchdogs once a second; a cluster by address keeps its own."""
    before = dask.config.get("distributed.worker.profile.enabled")
    with dask_executor(workers=1) as executor:
        quiet = list(executor.client.run(_quiet).values())
        scheduler_tick = executor.client.cluster.scheduler._tick_interval
    assert (quiet, scheduler_tick) == ([(False, 1.0)], 1.0)
    assert list(cluster.run(_quiet).values()) == [(True, 0.02), (True, 0.02)]  # Dask's defaults
    assert dask.config.get("distributed.worker.profile.enabled") == before  # set for the cluster's start only


def test_output_does_not_depend_on_the_shard_size(corpus: Path, tmp_path: Path) -> None:
    run(corpus, tmp_path / "four.jsonl", BatchOptions(shard_size=4))
    run(corpus, tmp_path / "seven.jsonl", BatchOptions(shard_size=7))  # per-document streams, not per-shard
    assert (tmp_path / "four.jsonl").read_bytes() == (tmp_path / "seven.jsonl").read_bytes()


def test_models_load_once_per_worker(cluster: Client, corpus: Path, tmp_path: Path) -> None:
    spec = ReaderSpec.of(corpus)
    method = ReplaceConfig(CONFIG.replace(seed=99))  # a fingerprint no worker has built yet
    plan = plan_shards(spec, 3)
    tasks = [ShardTask(method, spec, s, tmp_path / shard_file_name(s.id)) for s in plan.shards]
    results = list(DaskExecutor(cluster)(tasks))
    assert sorted(r.index for r in results) == list(range(16))
    assert 1 <= sum(r.built for r in results) <= 2


def test_a_strict_failure_on_a_worker_stops_the_run(cluster: Client, tmp_path: Path) -> None:
    corpus = tmp_path / "bad.jsonl"
    corpus.write_text('{"text": "fine"}\n{broken\n', encoding="utf-8")
    options = BatchOptions(shard_size=1, scheduler=cluster.scheduler.address, strict=True)
    with pytest.raises(InputError, match="record '2'"):
        run(corpus, tmp_path / "out.jsonl", options)
    assert not (tmp_path / "out.jsonl").exists()


def test_deid_command_runs_on_a_cluster_by_address(cluster: Client, corpus: Path, tmp_path: Path) -> None:
    base = [
        "deid",
        str(corpus),
        "--seed",
        "5",
        "--detectors",
        "patterns",
        "--no-progress",
        "--shard-size",
        "5",
        *("--operator", "DATE=fake", "--operator", "AGE=fake"),  # no DP noise: OpenDP cannot be seeded
    ]
    local = CliRunner().invoke(app, [*base, "-o", str(tmp_path / "a.jsonl")])
    remote = CliRunner().invoke(
        app, [*base, "-o", str(tmp_path / "b.jsonl"), "--scheduler", cluster.scheduler.address]
    )
    assert local.exit_code == 0 and remote.exit_code == 0, remote.output
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert "on 2 worker(s)" in remote.output


def test_obfuscate_words_runs_on_a_cluster_by_address(cluster: Client, corpus: Path, tmp_path: Path) -> None:
    base = ["obfuscate", "words", str(corpus), "--seed", "3", "--no-progress", "--shard-size", "10"]
    local = CliRunner().invoke(app, [*base, "-o", str(tmp_path / "a.jsonl")])
    remote = CliRunner().invoke(
        app, [*base, "-o", str(tmp_path / "b.jsonl"), "--scheduler", cluster.scheduler.address]
    )
    assert local.exit_code == 0 and remote.exit_code == 0, remote.output
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    replaced = [line.split()[0] for line in remote.output.splitlines() if "tokens replaced" in line]
    assert replaced == [line.split()[0] for line in local.output.splitlines() if "tokens replaced" in line]
    assert int(replaced[0]) > 48 * 5  # counted on the workers, summed by the driver
