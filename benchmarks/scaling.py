"""Scaling of the batch runner: 1 vs 2 Dask workers, and peak memory for 10x more input.

Usage: python benchmarks/scaling.py [--data DATA] [--notes 4350] [--memory-notes 1450]
                                    [--shard-size 100]

Needs the ``scale`` extra (dask[distributed], pyarrow). The corpus is the PhysioNet deid development notes
(1,450) cycled to ``--notes`` notes with fresh ids, as JSON Lines; the process is ``anonymed deid`` with
its default detectors, a seed and seeded surrogates for dates and ages (see ``METHOD``). Each
configuration runs on a fresh LocalCluster started as ``--workers N`` starts one
(``runner.dask.local_cluster``: processes of one thread, quiet workers) whose workers have loaded their
models before the clock starts, so the ratio measures processing, not start-up; the cold end-to-end time
of ``--workers N`` is printed beside it. Worker CPU time gives the per-core rate the scale-out plan uses.
Memory: the same run on ``--memory-notes`` notes and on ten times as many, each in a child process with a
fresh cluster; peak RSS (``ru_maxrss``) of the driver and of each worker. All ratios come from one run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.io.physionet import PhysionetReader
from anonymed.io.registry import open_writer
from anonymed.labels import Label
from anonymed.methods import ReplaceConfig
from anonymed.runner.batch import BatchOptions, run_batch
from anonymed.runner.process import built_method
from anonymed.runner.shards import ReaderSpec
from anonymed.train.recipe import training_root

#: the default pipeline, seeded, with "fake" dates and ages (OpenDP's noise cannot be seeded; without it
#: the outputs of the 1- and 2-worker runs can be compared byte for byte)
METHOD = ReplaceConfig(PipelineConfig(seed=1, operators={Label.DATE: "fake", Label.AGE: "fake"}))
NOTES_9M = 9_000_000


def write_corpus(data: Path, path: Path, notes: int) -> Path:
    """``notes`` notes cycled from the PhysioNet dev split, ids made unique, as JSON Lines."""
    base = [r for r in PhysionetReader(data / "physionet_deid") if isinstance(r, Document)]
    with path.open("w", encoding="utf-8") as out:
        for i in range(notes):
            doc = base[i % len(base)]
            record = {"id": f"{i // len(base)}-{doc.id}", "patient_id": doc.patient_id, "text": doc.text}
            out.write(json.dumps(record) + "\n")
    return path


def _warm(method: ReplaceConfig) -> int:
    """Build the method on a worker (runs in the worker process)."""
    built_method(method)
    return os.getpid()


def _usage() -> tuple[float, int]:
    """CPU seconds and peak RSS (KiB) of the calling process."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss


@contextmanager
def warm_cluster(workers: int) -> Iterator[Any]:
    """A fresh LocalCluster, as the runner starts one, whose workers have built the pipeline."""
    from distributed import Client

    from anonymed.runner.dask import local_cluster

    with local_cluster(workers) as c, Client(c) as client:
        client.run(_warm, METHOD)
        yield client


def timed_run(corpus: Path, output: Path, options: BatchOptions) -> tuple[float, float]:
    """Wall seconds of one batch run, and CPU seconds of this (driver) process during it."""
    spec = ReaderSpec.of(corpus)
    started, cpu = time.perf_counter(), time.process_time()
    run_batch(spec, open_writer(output, like=spec.open()), METHOD, options)
    return time.perf_counter() - started, time.process_time() - cpu


def scaling(corpus: Path, out: Path, shard_size: int, notes: int) -> dict[str, Any]:
    """Warm 1- and 2-worker runs, and the cold end-to-end ``--workers N`` runs."""
    results: dict[str, Any] = {"notes": notes}
    for workers in (1, 2):
        with warm_cluster(workers) as client:
            before = client.run(_usage)
            options = BatchOptions(scheduler=client.scheduler.address, shard_size=shard_size)
            wall, driver = timed_run(corpus, out / f"warm{workers}.jsonl", options)
            results[f"warm{workers}"], results[f"driver{workers}"] = wall, driver
            after = client.run(_usage)
            results[f"cpu{workers}"] = sum(after[w][0] - before[w][0] for w in after)
        cold = BatchOptions(workers=workers, shard_size=shard_size)
        results[f"cold{workers}"] = timed_run(corpus, out / f"cold{workers}.jsonl", cold)[0]
    same = (out / "warm1.jsonl").read_bytes() == (out / "warm2.jsonl").read_bytes()
    results["identical"] = same and (out / "cold1.jsonl").read_bytes() == (out / "cold2.jsonl").read_bytes()
    return results


def child_memory(corpus: Path, shard_size: int) -> None:
    """(In a child process) one 2-worker run; prints seconds and peak RSS of the driver and workers."""
    with tempfile.TemporaryDirectory() as tmp, warm_cluster(2) as client:
        options = BatchOptions(scheduler=client.scheduler.address, shard_size=shard_size)
        seconds = timed_run(corpus, Path(tmp) / "out.jsonl", options)[0]
        workers = [rss for _, rss in client.run(_usage).values()]
    print(json.dumps({"seconds": seconds, "driver": _usage()[1], "workers": workers}))


def memory(corpus: Path, shard_size: int) -> dict[str, Any]:
    """Run ``child_memory`` in a fresh interpreter (clean peak RSS)."""
    command = [sys.executable, __file__, "--child-memory", str(corpus), "--shard-size", str(shard_size)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def report(scale: dict[str, Any], small: dict[str, Any], large: dict[str, Any], notes: int) -> None:
    """Print the tables, the ratios and the figures of the scale-out plan."""
    n = scale["notes"]
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores (other jobs share them)")
    print("| workers | warm wall s | notes/s | worker CPU s | notes/worker-CPU-s | driver CPU s | cold s |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for w in (1, 2):
        wall, cpu, driver = scale[f"warm{w}"], scale[f"cpu{w}"], scale[f"driver{w}"]
        rates = f"{n / wall:.1f} | {cpu:.1f} | {n / cpu:.1f}"
        print(f"| {w} | {wall:.1f} | {rates} | {driver:.1f} | {scale[f'cold{w}']:.1f} |")
    warm, cold = scale["warm1"] / scale["warm2"], scale["cold1"] / scale["cold2"]
    print(f"speed-up 2 vs 1 worker: warm {warm:.2f}x, cold {cold:.2f}x; identical: {scale['identical']}")
    print("| input notes | wall s | driver peak RSS MiB | worker peak RSS MiB |")
    print("|---:|---:|---:|---:|")
    for count, m in ((notes, small), (10 * notes, large)):
        workers = "/".join(f"{rss / 1024:.0f}" for rss in m["workers"])
        print(f"| {count} | {m['seconds']:.1f} | {m['driver'] / 1024:.0f} | {workers} |")
    growth = max(large["workers"]) / max(small["workers"])
    print(f"peak worker RSS, 10x input / 1x: {growth:.2f}; driver: {large['driver'] / small['driver']:.2f}")
    per_core = n / max(scale["cpu1"], scale["cpu2"])
    for cores in (2, 16, 64):
        hours = NOTES_9M / (per_core * cores) / 3600
        print(f"9M notes at {per_core:.0f} notes/CPU-s on {cores} cores: {hours:.1f} h (CPU-bound, ideal)")


def main() -> None:
    """Build the corpora, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data",
        type=Path,
        default=training_root(),
        help="data root with physionet_deid/ (default: the development notes shipped in the package)",
    )
    parser.add_argument("--notes", type=int, default=4350)
    parser.add_argument("--memory-notes", type=int, default=1450)
    parser.add_argument("--shard-size", type=int, default=100)
    parser.add_argument("--child-memory", type=Path, default=None)
    args = parser.parse_args()
    if args.child_memory is not None:
        child_memory(args.child_memory, args.shard_size)
        return
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        notes = args.notes
        scale = scaling(write_corpus(args.data, root / "scale.jsonl", notes), root, args.shard_size, notes)
        small = memory(write_corpus(args.data, root / "x1.jsonl", args.memory_notes), args.shard_size)
        large = memory(write_corpus(args.data, root / "x10.jsonl", 10 * args.memory_notes), args.shard_size)
        report(scale, small, large, args.memory_notes)


if __name__ == "__main__":
    main()
