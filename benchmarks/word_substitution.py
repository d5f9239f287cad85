"""Word substitution speed: the replacement step against the papers' per-token loop, and end to end.

    python benchmarks/word_substitution.py [--space DIR] [--notes 4999] [--n 5] [--paper-tokens 3000]
        [--repeat 3] [--profile]

Notes: the MTSamples transcriptions shipped in src/anonymed/resources/mtsamples (all rows, duplicates kept).
Space: the shipped default unless --space is given. Everything runs on one core (BLAS threads set to 1 for
both methods), and figures are CPU seconds of this process (wall seconds shown too), best of --repeat runs
for the replacement step.

1. Replacement step, ours: lower-cased tokens of every note -> ids (dict) -> neighbour-table rows -> random
   column per token (RandomSource.integers, secure) -> words. Papers' way (Abdalla et al., Algorithm 1;
   Alves et al. 4.3): per token, gensim ``KeyedVectors.most_similar(token, topn=N)`` over the same space's
   vectors and ``random.choice`` of the result; timed on the first --paper-tokens in-vocabulary tokens of the
   same notes and extrapolated per token to all of them.
2. End to end: JSONL in -> read, tokenize, replace, detokenize -> JSONL out, through anonymed.io and the local
   runner, as ``anonymed obfuscate words`` does. Two baselines on the same file in the same run: a plain
   JSONL read and write (``json.loads`` / ``json.dumps`` per line, nothing else) and anonymed's readers,
   runner and writers with no processing. End to end is printed as a multiple of the plain read and write,
   so that a regression shows whatever the machine's speed and load. Best (least CPU) of --repeat runs of
   each, interleaved. ``--profile`` adds a cProfile of one end-to-end run (top functions by own time).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import cProfile  # noqa: E402
import csv  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import lzma  # noqa: E402
import pstats  # noqa: E402
import random  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from itertools import repeat  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from anonymed.document import Document  # noqa: E402
from anonymed.embeddings import Space, default_space, load_space  # noqa: E402
from anonymed.embeddings.tokenize import lower_all, split  # noqa: E402
from anonymed.io.corpus import MTSAMPLES  # noqa: E402
from anonymed.io.registry import open_reader, open_writer  # noqa: E402
from anonymed.randomness import RandomSource  # noqa: E402
from anonymed.runner.local import run_corpus  # noqa: E402
from anonymed.words import WordObfuscator  # noqa: E402


def load_notes(limit: int) -> list[str]:
    """The non-empty MTSamples transcriptions, in file order."""
    csv.field_size_limit(2**31 - 1)
    with io.TextIOWrapper(lzma.open(MTSAMPLES), encoding="utf-8") as handle:
        notes = [row["transcription"] for row in csv.DictReader(handle) if row["transcription"].strip()]
    return notes[:limit]


def clock() -> tuple[float, float]:
    """(CPU seconds of this process, wall seconds)."""
    return time.process_time(), time.perf_counter()


def since(start: tuple[float, float]) -> tuple[float, float]:
    """CPU and wall seconds elapsed since ``start``."""
    cpu, wall = clock()
    return cpu - start[0], wall - start[1]


def ours(space: Space, docs: list[list[str]], n: int) -> tuple[int, float, float]:
    """Tokens replaced, CPU and wall seconds of the table-lookup replacement step (in-vocabulary tokens)."""
    rng, index, words, table = RandomSource(), space.index, space.words, space.neighbours
    tokens = 0
    start = clock()
    for keys in docs:
        ids = np.fromiter(map(index.get, keys, repeat(-1)), dtype=np.int64, count=len(keys))
        ids = ids[ids >= 0]
        words[table[ids, rng.integers(n, size=len(ids))]].tolist()
        tokens += len(ids)
    return tokens, *since(start)


def papers(space: Space, docs: list[list[str]], n: int, limit: int) -> tuple[int, float, float]:
    """Tokens replaced, CPU and wall seconds of gensim ``most_similar`` per token + a random pick."""
    from gensim.models import KeyedVectors

    kv = KeyedVectors(space.vectors.shape[1])
    kv.add_vectors(list(space.tokens), np.asarray(space.vectors, dtype=np.float32))
    kv.most_similar(space.tokens[0], topn=n)  # warm-up: gensim normalises the vectors once
    chosen = [key for keys in docs for key in keys if key in kv.key_to_index][:limit]
    pick = random.SystemRandom()
    start = clock()
    for key in chosen:
        pick.choice(kv.most_similar(key, topn=n))
    return len(chosen), *since(start)


def write_corpus(notes: list[str], path: Path) -> None:
    """The notes as JSON Lines ``{"id", "text"}``."""
    with path.open("w", encoding="utf-8") as out:
        for i, note in enumerate(notes):
            out.write(json.dumps({"id": str(i), "text": note}) + "\n")


def plain_jsonl(source: Path, target: Path) -> tuple[float, float]:
    """CPU and wall seconds of a plain JSONL read and write: ``json.loads`` and ``json.dumps`` per line."""
    start = clock()
    with source.open("rb") as lines, target.open("w", encoding="utf-8") as out:
        for line in lines:
            out.write(json.dumps(json.loads(line), ensure_ascii=False) + "\n")
    return since(start)


def through_runner(
    source: Path, target: Path, process: Callable[[Document], Document]
) -> tuple[float, float]:
    """CPU and wall seconds to read ``source``, ``process`` each note and write ``target`` as the CLI does."""
    start = clock()
    reader = open_reader(source)
    with open_writer(target, like=reader) as writer:
        summary = run_corpus(reader, writer, process)
    cpu, wall = since(start)
    assert summary.written == summary.read and summary.failed == 0
    return cpu, wall


def end_to_end(source: Path, target: Path, space: Space, n: int) -> tuple[int, float, float]:
    """Tokens, CPU and wall seconds to read a JSONL corpus, obfuscate every note and write JSONL."""
    obfuscator = WordObfuscator(space, n=n)
    tokens = 0

    def process(doc: Document) -> Document:
        nonlocal tokens
        done = obfuscator(doc)
        tokens += done.privacy["words"]["tokens"]
        return done

    cpu, wall = through_runner(source, target, process)
    return tokens, cpu, wall


def compare_to_plain(notes: list[str], space: Space, n: int, runs: int, profile: bool) -> None:
    """End to end and anonymed's I/O alone, each as a multiple of a plain JSONL read and write."""
    with tempfile.TemporaryDirectory() as tmp:
        source, target = Path(tmp) / "in.jsonl", Path(tmp) / "out.jsonl"
        write_corpus(notes, source)
        plain, io_only, full = [], [], []
        for _ in range(runs):  # interleaved, so that a change of load hits all three alike
            plain.append(plain_jsonl(source, target))
            io_only.append(through_runner(source, target, lambda doc: doc))
            full.append(end_to_end(source, target, space, n))
        base, bare = min(plain), min(io_only)
        tokens, cpu, wall = min(full, key=lambda r: r[1])
        print(f"plain JSONL read+write (json.loads, json.dumps): {base[0]:.2f} s CPU ({base[1]:.2f} s wall)")
        print(
            f"anonymed I/O + runner, no processing: {bare[0]:.2f} s CPU ({bare[1]:.2f} s wall), "
            f"{bare[0] / base[0]:.2f}x plain"
        )
        print(
            f"end to end (JSONL read, tokenize, replace, detokenize, JSONL write): {tokens:,} tokens in "
            f"{cpu:.2f} s CPU ({wall:.2f} s wall): {tokens / cpu:,.0f} tokens/s per core "
            f"({tokens / wall:,.0f} tokens/s wall)"
        )
        print(
            f"end to end / plain JSONL read+write: {cpu / base[0]:.2f}x the CPU time "
            f"(throughput {base[0] / cpu:.3f} of plain; plain runs at {tokens / base[0]:,.0f} tokens/s)"
        )
        if profile:
            profiler = cProfile.Profile()
            profiler.runcall(end_to_end, source, target, space, n)
            pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


def main() -> None:
    """Run both measurements and print the figures."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--space", type=Path, default=None)
    parser.add_argument("--notes", type=int, default=4999)
    parser.add_argument("--n", type=int, default=5)
    parser.add_argument("--paper-tokens", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="cProfile one end-to-end run")
    args = parser.parse_args()
    space = default_space() if args.space is None else load_space(args.space)
    notes = load_notes(args.notes)
    docs = [lower_all(split(note).tokens) for note in notes]
    print(
        f"{len(notes)} notes, {sum(map(len, docs)):,} tokens; space: {len(space.tokens):,} words, "
        f"{len(space.candidates):,} candidates, dim {space.vectors.shape[1]}; N = {args.n}"
    )
    # best of --repeat runs for both methods (CPU time), as timeit does
    fast = min((ours(space, docs, args.n) for _ in range(args.repeat)), key=lambda r: r[1])
    slow = min(
        (papers(space, docs, args.n, args.paper_tokens) for _ in range(args.repeat)), key=lambda r: r[1]
    )
    fast_us, slow_us = 1e6 * fast[1] / fast[0], 1e6 * slow[1] / slow[0]
    print(
        f"replacement, ours:   {fast[0]:,} tokens in {fast[1]:.3f} s CPU ({fast[2]:.3f} s wall): "
        f"{fast_us:.3f} us/token"
    )
    print(
        f"replacement, papers: {slow[0]:,} tokens in {slow[1]:.3f} s CPU ({slow[2]:.3f} s wall): "
        f"{slow_us:.1f} us/token; extrapolated to {fast[0]:,} tokens: {slow_us * fast[0] / 1e6:.0f} s"
    )
    print(f"speed-up of the replacement step: {slow_us / fast_us:,.0f}x")
    compare_to_plain(notes, space, args.n, args.repeat, args.profile)


if __name__ == "__main__":
    main()
