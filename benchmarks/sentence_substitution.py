"""Sentence substitution figures for the README: splitter accuracy, encoder speed, search cost, build time.

    python benchmarks/sentence_substitution.py splitting  # boundary F1 on hand-checked notes, vs pysbd, spaCy
    python benchmarks/sentence_substitution.py speed      # sentences/s per core; search vs encode, 150k bank
    python benchmarks/sentence_substitution.py build      # build the default bank (packed) into a temp folder
    python benchmarks/sentence_substitution.py pack FULL  # packing's cost, against the full-precision bank

Single-threaded (torch, faiss and BLAS pinned to one thread) so that the figures are per core. The speed
run uses the shipped default bank's sentences (encoded again) and, for MiniLM, torch and
sentence-transformers.
``pack`` compares the shipped bank with FULL, the same recipe unpacked (``anonymed bank build -o FULL``:
MTSamples, Doc2Vec, HNSW), on 1,000 PhysioNet development sentences and 1,000 MTSamples sentences.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import numpy as np  # noqa: E402

from anonymed.sentences.splitter import split_sentences  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GOLD = ROOT / "tests" / "fixtures" / "sentences"
BANK_SIZE = 150_000
BATCH = 512


def _starts(text: str, spans: list[tuple[int, int]]) -> set[int]:
    word = re.compile(r"\w")
    return {m.start() for s, e in spans if (m := word.search(text, s, e))}


def _splitters() -> dict[str, Callable[[str], list[tuple[int, int]]]]:
    found: dict[str, Callable[[str], list[tuple[int, int]]]] = {
        "anonymed": lambda t: [(s.start, s.end) for s in split_sentences(t)]
    }
    try:
        import pysbd

        segmenter = pysbd.Segmenter(language="en", clean=False, char_span=True)
        found["pysbd 0.3.4"] = lambda t: [(c.start, c.end) for c in segmenter.segment(t)]
    except ImportError:
        pass
    try:
        import spacy

        nlp = spacy.blank("en")
        nlp.add_pipe("sentencizer")
        found[f"spaCy {spacy.__version__} sentencizer"] = lambda t: [
            (s.start_char, s.end_char) for s in nlp(t).sents
        ]
    except ImportError:
        pass
    return found


def splitting() -> None:
    """Boundary precision / recall / F1 (sentence starts) on the two hand-checked samples."""
    print("| splitter | sample | sentences | precision | recall | F1 |")
    print("|---|---|---|---|---|---|")
    for name, split in _splitters().items():
        for sample in ("clinical_gold.jsonl", "clinical_heldout.jsonl"):
            tp = fp = fn = gold_count = 0
            for line in (GOLD / sample).read_text(encoding="utf-8").splitlines():
                record = json.loads(line)
                predicted, gold = _starts(record["text"], split(record["text"])), set(record["starts"])
                tp, fp, fn = (
                    tp + len(predicted & gold),
                    fp + len(predicted - gold),
                    fn + len(gold - predicted),
                )
                gold_count += len(gold)
            precision, recall = tp / (tp + fp), tp / (tp + fn)
            f1 = 2 * precision * recall / (precision + recall)
            print(f"| {name} | {sample} | {gold_count} | {precision:.3f} | {recall:.3f} | {f1:.3f} |")


def _mtsamples_sentences(limit: int) -> list[str]:
    from anonymed.io.corpus import MTSAMPLES, MTSAMPLES_OPTIONS, documents, open_corpus

    out: list[str] = []
    with open_corpus(MTSAMPLES, "csv", **MTSAMPLES_OPTIONS) as reader:
        for doc in documents(reader, []):
            out.extend(doc.text[s.start : s.end] for s in split_sentences(doc.text))
            if len(out) >= 4 * limit:
                break
    rng = np.random.default_rng(0)
    return [out[i] for i in rng.choice(len(out), size=limit, replace=False)]


def _padded(vectors: np.ndarray, size: int) -> np.ndarray:
    """``vectors`` plus random unit vectors up to ``size`` rows (the real bank is smaller than 150k)."""
    extra = np.random.default_rng(1).standard_normal((max(0, size - len(vectors)), vectors.shape[1]))
    extra = (extra / np.linalg.norm(extra, axis=1, keepdims=True)).astype(np.float32)
    return np.ascontiguousarray(np.vstack([vectors, extra]), dtype=np.float32)


def _timed(call: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - started)
    return best


def _search_row(name: str, encoder: object, vectors: np.ndarray, queries: list[str]) -> None:
    import faiss

    from anonymed.sentences.banks import Bank, IndexParams, build_index, keys_of

    encode = encoder.encode  # type: ignore[attr-defined]
    query_vectors = encode(queries)
    encode_s = _timed(lambda: encode(queries), repeat=1) / len(queries)
    keys = keys_of(queries)
    for kind in ("flat", "ivf", "hnsw"):
        params = IndexParams(kind=kind)  # type: ignore[arg-type]
        started = time.perf_counter()
        index = build_index(vectors, params)
        built_s = time.perf_counter() - started
        bank = Bank(
            tuple(str(i) for i in range(len(vectors))),
            np.arange(len(vectors), dtype=np.uint64),
            index,
            encoder,
            params,
        )  # type: ignore[arg-type]
        search_s = _timed(lambda b=bank: b.neighbours(query_vectors, keys, 5)) / len(queries)
        exact = faiss.IndexFlatIP(vectors.shape[1])
        exact.add(vectors)
        _, truth = exact.search(query_vectors, 6)
        found = bank.neighbours(query_vectors, keys, 5)
        recall = np.mean(
            [len(set(f) & set(t)) / 5 for f, t in zip(found.tolist(), truth.tolist(), strict=True)]
        )
        print(
            f"| {name} | {kind} | {len(vectors):,} | {built_s:.1f} | {encode_s * 1e3:.3f} "
            f"| {search_s * 1e3:.4f} | {100 * search_s / encode_s:.1f}% | {recall:.3f} |"
        )


def speed() -> None:
    """Encoder speed per core and search cost on a 150k bank, per sentence, in batches of 512 queries."""
    import faiss

    faiss.omp_set_num_threads(1)
    from anonymed.sentences.bank_build import default_bank

    queries = _mtsamples_sentences(BATCH)
    bank = default_bank()
    doc2vec = bank.encoder
    trained = doc2vec.encode(bank.sentences)  # the shipped bank keeps no full-precision vectors
    print(
        f"default bank: {len(bank):,} sentences; padded with {BANK_SIZE - len(trained):,} random unit vectors"
    )
    print(
        "| encoder | index | bank | build s | encode ms/sentence | search ms/sentence | search/encode "
        "| recall@5 |"
    )
    print("|---|---|---|---|---|---|---|---|")
    _search_row("doc2vec (256d, 20 infer epochs)", doc2vec, _padded(trained, BANK_SIZE), queries)
    try:
        import torch

        from anonymed.sentences.encoders import TransformerEncoder
    except ImportError:
        print("MiniLM: torch / sentence-transformers not installed", file=sys.stderr)
        return
    torch.set_num_threads(1)
    minilm = TransformerEncoder("minilm")
    real = minilm.encode(_mtsamples_sentences(4096))
    _search_row("all-MiniLM-L6-v2 (384d)", minilm, _padded(real, BANK_SIZE), queries)


def build() -> None:
    """Build the default bank (packed) into a temporary folder and report each stage's time."""
    from anonymed.sentences.bank_build import build_default_bank

    marks: dict[str, float] = {}
    started = time.perf_counter()
    cpu = time.process_time()

    def progress(stage: str, done: int, total: int | None) -> None:
        marks.setdefault(stage, time.perf_counter() - started)

    with tempfile.TemporaryDirectory() as tmp:
        path = build_default_bank(Path(tmp) / "bank", progress)
        total = time.perf_counter() - started
        meta = json.loads((path / "meta.json").read_text())
        size = sum(p.stat().st_size for p in path.iterdir())
    stages = sorted(marks.items(), key=lambda kv: kv[1])
    ends = [t for _, t in stages[1:]] + [total]
    for (stage, start), end in zip(stages, ends, strict=True):
        print(f"{stage:>8}: {end - start:6.1f} s")
    print(
        f"total {total:.1f} s wall, {time.process_time() - cpu:.1f} s CPU; {meta['size']:,} sentences, "
        f"{meta['index']['kind']} index, {size / 1e6:.1f} MB"
    )
    print(json.dumps(meta["counts"]), json.dumps(meta["dropped_labels"]))


def _physionet_sentences(limit: int) -> list[str]:
    from anonymed.document import Document
    from anonymed.io.physionet import PhysionetReader
    from anonymed.train.recipe import training_root

    out: list[str] = []
    for note in PhysionetReader(training_root() / "physionet_deid"):
        if isinstance(note, Document):
            out.extend(note.text[s.start : s.end] for s in split_sentences(note.text))
    rng = np.random.default_rng(0)
    return [out[i] for i in rng.choice(len(out), size=limit, replace=False)]


def pack(full_folder: str) -> None:
    """Recall@5 and cost of the shipped (packed) bank against the full-precision bank of the same recipe."""
    import faiss

    faiss.omp_set_num_threads(1)
    from anonymed.sentences.bank_build import DEFAULT_BANK, default_bank
    from anonymed.sentences.banks import Bank, IndexParams, keys_of, load_bank

    full, shipped = load_bank(full_folder), default_bank()
    if full.sentences != shipped.sentences:
        raise SystemExit("FULL is not the bank the shipped one was packed from (different sentences)")
    exact = faiss.IndexFlatIP(full.encoder.dim)
    exact.add(full.encoder.trained_vectors())  # type: ignore[attr-defined]
    reference = Bank(full.sentences, full.keys, exact, full.encoder, IndexParams(kind="flat"))
    queries = _physionet_sentences(1000) + _mtsamples_sentences(1000)
    keys = keys_of(queries)
    truth = reference.neighbours(full.encoder.encode(queries), keys, 5)
    print("| encoder | index | encode ms/sentence | search ms/sentence | recall@5 (PhysioNet, MTSamples) |")
    print("|---|---|---|---|---|")
    for encoder_name, encoder in (("full", full.encoder), ("int8 (shipped)", shipped.encoder)):
        vectors = encoder.encode(queries)
        encode_s = _timed(lambda e=encoder: e.encode(queries), repeat=1) / len(queries)
        for index_name, bank in (
            ("exact", reference),
            (f"{full.kind} (full bank)", full),
            (f"{shipped.kind} (shipped)", shipped),
        ):
            search_s = _timed(lambda b=bank, v=vectors: b.neighbours(v, keys, 5)) / len(queries)
            found = bank.neighbours(vectors, keys, 5)
            hits = [len(set(f) & set(t)) / 5 for f, t in zip(found.tolist(), truth.tolist(), strict=True)]
            print(
                f"| {encoder_name} | {index_name} | {encode_s * 1e3:.3f} | {search_s * 1e3:.4f} "
                f"| {np.mean(hits):.3f} ({np.mean(hits[:1000]):.3f}, {np.mean(hits[1000:]):.3f}) |"
            )
    for name, folder in (("full", Path(full_folder)), ("shipped", DEFAULT_BANK)):
        print(f"{name}: {sum(p.stat().st_size for p in folder.iterdir()) / 1e6:.1f} MB")


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else "splitting"
    if command == "pack":
        pack(sys.argv[2])
    else:
        {"splitting": splitting, "speed": speed, "build": build}[command]()
