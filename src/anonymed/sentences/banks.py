"""Replacement banks for sentence substitution: scrubbed, de-duplicated sentences, their vectors and an index.

A bank is a folder::

    meta.json        format, version, encoder spec, build parameters and counts, index kind, files' SHA-256
    sentences.json   the bank's sentences; id = position (``sentences.json.xz`` in a packed bank)
    keys.npy         uint64 digest of each sentence's normalised text (to refuse identical replacements)
    index.faiss      the faiss index over the unit vectors (inner product = cosine)
    doc2vec*         the Doc2Vec model, for Doc2Vec banks (inference only, int8, in a packed bank)

The index is exact (``IndexFlatIP``) up to ``exact_max`` sentences (10,000) and a small HNSW graph above
(``IndexHNSWFlat``, M=16, efSearch=16): on a 150k bank it costs about a tenth of a Doc2Vec inference per
sentence with 90% of the exact top 5, where exact search costs twice the inference and an inverted file
(``index="ivf"``: ``IndexIVFFlat``, about 4 sqrt(n) lists, 16 probed) about 40%; see the README and
benchmarks/sentence_substitution.py. ``index="ivfpq"`` stores product-quantised residuals (``pq_m`` bytes
per sentence) instead of the vectors: the shipped default bank uses it to fit the package
(``bank_build.pack_bank``).
Results are approximate above ``exact_max``, which only changes which near sentences are drawn from, never
the guarantees (k distinct bank sentences, none identical).
"""

from __future__ import annotations

import hashlib
import json
import lzma
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from anonymed.errors import ConfigError, ResourceError
from anonymed.io.hashed_folder import read_meta, save_folder, write_hashed_meta
from anonymed.sentences.encoders import SentenceEncoder, load_encoder

FORMAT, VERSION = "anonymed-bank", 1
IndexKind = Literal["auto", "flat", "ivf", "hnsw", "ivfpq"]
INDEX_KINDS = ("auto", "flat", "ivf", "hnsw", "ivfpq")
SENTENCES, PACKED_SENTENCES = "sentences.json", "sentences.json.xz"
Progress = Callable[[str, int, int | None], None]
SEARCH_BATCH = 512
_NON_WORD = re.compile(r"[\W_]+")


def normalise(sentence: str) -> str:
    """The comparison form of a sentence: case-folded letters and digits separated by single spaces."""
    return " ".join(_NON_WORD.split(sentence.casefold())).strip()


def key_of(sentence: str) -> int:
    """A 64-bit digest of the normalised sentence (equal sentences, equal keys)."""
    return int.from_bytes(hashlib.blake2b(normalise(sentence).encode(), digest_size=8).digest(), "big")


def keys_of(sentences: Iterable[str]) -> npt.NDArray[np.uint64]:
    """``key_of`` of each sentence."""
    return np.fromiter((key_of(s) for s in sentences), dtype=np.uint64)


@dataclass(frozen=True)
class IndexParams:
    """How the bank is indexed: ``auto`` is exact up to ``exact_max`` sentences and HNSW above."""

    kind: IndexKind = "auto"
    exact_max: int = 10_000
    nlist: int | None = None
    nprobe: int = 16
    hnsw_m: int = 16
    ef_search: int = 16
    pq_m: int = 128
    pq_bits: int = 8

    def __post_init__(self) -> None:
        if self.kind not in INDEX_KINDS:
            raise ConfigError(f"unknown index kind {self.kind!r}; expected one of {', '.join(INDEX_KINDS)}")
        if self.exact_max < 1 or self.nprobe < 1 or self.hnsw_m < 4 or self.ef_search < 1:
            raise ConfigError(f"invalid index parameters: {self}")
        if self.pq_m < 1 or not 1 <= self.pq_bits <= 8:
            raise ConfigError(f"invalid product quantisation: pq_m={self.pq_m}, pq_bits={self.pq_bits}")

    def chosen(self, size: int) -> str:
        """The index kind used for a bank of ``size`` sentences."""
        if self.kind != "auto":
            return self.kind
        return "flat" if size <= self.exact_max else "hnsw"

    def lists(self, size: int) -> int:
        """IVF lists for ``size`` vectors: about 4 sqrt(n), with at least 39 training points per list."""
        wanted = self.nlist or int(4 * math.sqrt(size))
        return max(1, min(wanted, size // 39))


def build_index(vectors: npt.NDArray[np.float32], params: IndexParams, seed: int = 0) -> Any:
    """A faiss inner-product index over unit ``vectors``, of the kind ``params`` chooses for their number."""
    import faiss

    size, dim = vectors.shape
    kind = params.chosen(size)
    index: Any
    if kind == "flat":
        index = faiss.IndexFlatIP(dim)
    elif kind == "hnsw":
        index = faiss.IndexHNSWFlat(dim, params.hnsw_m, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efSearch = params.ef_search
    else:
        nlist = params.lists(size)
        quantizer = faiss.IndexFlatIP(dim)
        if kind == "ivf":
            index = faiss.IndexIVFFlat(quantizer, dim, nlist, faiss.METRIC_INNER_PRODUCT)
        elif dim % params.pq_m:
            raise ConfigError(f"pq_m={params.pq_m} must divide the vector dimension {dim}")
        else:
            index = faiss.IndexIVFPQ(
                quantizer, dim, nlist, params.pq_m, params.pq_bits, faiss.METRIC_INNER_PRODUCT
            )
            index.pq.cp.seed = seed
        index.cp.seed = seed
        index.nprobe = min(params.nprobe, nlist)
    threads = faiss.omp_get_max_threads()
    faiss.omp_set_num_threads(1)  # a parallel HNSW insertion order would make the graph irreproducible
    try:
        if not index.is_trained:
            sample = np.random.default_rng(seed).permutation(size)[: 256 * index.nlist]
            index.train(vectors[np.sort(sample)])
        index.add(vectors)
    finally:
        faiss.omp_set_num_threads(threads)
    return index


def tune(index: Any, params: IndexParams, widen: bool = False) -> None:
    """Set the search-time parameters (``widen``: search every list / a wide beam, for rare misses)."""
    import faiss

    if isinstance(index, faiss.IndexIVF):
        index.nprobe = index.nlist if widen else min(params.nprobe, index.nlist)
    elif isinstance(index, faiss.IndexHNSW):
        index.hnsw.efSearch = max(params.ef_search * 16, 256) if widen else params.ef_search


@dataclass(eq=False)
class Bank:
    """A replacement bank: sentences, their normalised keys, a faiss index and the encoder that made it."""

    sentences: tuple[str, ...]
    keys: npt.NDArray[np.uint64]
    index: Any
    encoder: SentenceEncoder
    index_params: IndexParams = field(default_factory=IndexParams)
    meta: dict[str, Any] = field(default_factory=dict)
    #: saved with the sentences xz-compressed (a shipped bank)
    packed: bool = False

    def __post_init__(self) -> None:
        if not len(self.sentences) == len(self.keys) == int(self.index.ntotal):
            raise ResourceError(
                f"bank of {len(self.sentences)} sentences has {len(self.keys)} keys "
                f"and {int(self.index.ntotal)} indexed vectors"
            )
        tune(self.index, self.index_params)

    def __len__(self) -> int:
        return len(self.sentences)

    @cached_property
    def texts(self) -> npt.NDArray[np.object_]:
        """The sentences as an object array (vectorised id -> text lookups)."""
        return np.asarray(self.sentences, dtype=object)

    @property
    def sentences_file(self) -> str:
        """The name of the file the sentences are saved in."""
        return PACKED_SENTENCES if self.packed else SENTENCES

    @property
    def kind(self) -> str:
        """The index kind (flat, ivf, hnsw)."""
        return str(self.meta.get("index", {}).get("kind", self.index_params.chosen(len(self))))

    def neighbours(
        self, vectors: npt.NDArray[np.float32], keys: npt.NDArray[np.uint64], k: int
    ) -> npt.NDArray[np.int64]:
        """Per query, its ``k`` nearest bank sentences whose normalised text differs from the query's.

        The bank holds each normalised text once, so ``k + 1`` hits always leave ``k`` valid ones; rows an
        approximate index leaves short are searched again exhaustively.
        """
        if not 1 <= k < len(self):
            raise ConfigError(f"k={k} needs a bank of more than {k} sentences; this one has {len(self)}")
        out = np.empty((len(vectors), k), dtype=np.int64)
        for start in range(0, len(vectors), SEARCH_BATCH):
            stop = min(start + SEARCH_BATCH, len(vectors))
            out[start:stop] = self._search(vectors[start:stop], keys[start:stop], k)
        return out

    def _search(
        self, vectors: npt.NDArray[np.float32], keys: npt.NDArray[np.uint64], k: int, widen: bool = False
    ) -> npt.NDArray[np.int64]:
        if widen:
            tune(self.index, self.index_params, widen=True)
        try:
            _, found = self.index.search(np.ascontiguousarray(vectors, dtype=np.float32), k + 1)
        finally:
            if widen:
                tune(self.index, self.index_params)
        valid = (found >= 0) & (self.keys[np.maximum(found, 0)] != keys[:, None])
        short = np.flatnonzero(valid.sum(axis=1) < k)
        order = np.argsort(~valid, axis=1, kind="stable")[:, :k]
        chosen = np.take_along_axis(found, order, axis=1)
        if len(short):
            if widen:
                raise ResourceError(f"the bank index returned fewer than {k} neighbours for some queries")
            chosen[short] = self._search(vectors[short], keys[short], k, widen=True)
        return chosen

    def save(self, path: Path) -> Path:
        """Write the bank folder atomically (a temporary sibling renamed into place)."""
        return save_folder(path, self._write, "bank")

    def _write(self, folder: Path) -> None:
        import faiss

        text = json.dumps(list(self.sentences), ensure_ascii=False).encode("utf-8")
        if self.packed:
            text = lzma.compress(text, preset=9 | lzma.PRESET_EXTREME)
        (folder / self.sentences_file).write_bytes(text)
        np.save(folder / "keys.npy", self.keys)
        faiss.write_index(self.index, str(folder / "index.faiss"))
        save = getattr(self.encoder, "save", None)
        if save is not None:
            save(folder)
        meta = {
            **self.meta,
            "format": FORMAT,
            "version": VERSION,
            "size": len(self),
            "encoder": self.encoder.spec(),
            "index": {**asdict(self.index_params), "kind": self.kind},
        }
        write_hashed_meta(folder, meta)


def load_bank(path: Path | str, *, verify: bool = True, encoder: SentenceEncoder | None = None) -> Bank:
    """Load a bank folder (the index is memory-mapped when faiss can); ``verify`` checks the SHA-256."""
    import faiss

    folder = Path(path)
    try:
        meta = read_meta(folder, FORMAT, VERSION, what="bank", verify=verify)
        packed = (folder / PACKED_SENTENCES).exists()
        if packed:
            text = lzma.decompress((folder / PACKED_SENTENCES).read_bytes()).decode("utf-8")
        else:
            text = (folder / SENTENCES).read_text(encoding="utf-8")
        sentences = tuple(json.loads(text))
        keys = np.load(folder / "keys.npy")
        index = faiss.read_index(str(folder / "index.faiss"), faiss.IO_FLAG_MMAP | faiss.IO_FLAG_READ_ONLY)
        stored = dict(meta.get("index", {}))
        stored.pop("kind", None)
        params = IndexParams(**stored)
    except (OSError, ValueError, KeyError, TypeError, RuntimeError, lzma.LZMAError) as exc:
        raise ResourceError(f"cannot load bank from {str(folder)!r}: {type(exc).__name__}") from None
    encoder = encoder or load_encoder(meta["encoder"], folder)
    if encoder.dim != int(index.d):
        raise ResourceError(
            f"bank {str(folder)!r}: encoder gives {encoder.dim} dimensions, index has {index.d}"
        )
    return Bank(sentences, keys, index, encoder, params, meta, packed)
