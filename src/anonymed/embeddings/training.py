"""Train an embedding space with gensim (Word2Vec CBOW / skip-gram or fastText) on a de-identified corpus."""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from anonymed.document import Document
from anonymed.embeddings.gensim_train import corpus_lines, train_vectors
from anonymed.embeddings.neighbours import Progress, build_table
from anonymed.embeddings.spaces import Space
from anonymed.embeddings.subwords import Subwords
from anonymed.embeddings.tokenize import words
from anonymed.embeddings.vocab import Counts, Hygiene, candidate_ids, casefold_groups
from anonymed.errors import ConfigError

ALGORITHMS = ("word2vec", "fasttext")
DTYPES = ("float32", "float16")


@dataclass(frozen=True)
class TrainParams:
    """gensim settings; the defaults train the shipped space in about a minute on two cores."""

    algorithm: str = "fasttext"
    sg: bool = False
    vector_size: int = 100
    window: int = 5
    epochs: int = 20
    min_count: int = 1
    negative: int = 5
    sample: float = 1e-3
    bucket: int = 50_000
    min_n: int = 3
    max_n: int = 6
    workers: int = 1
    seed: int = 1
    n_max: int = 20
    dtype: str = "float32"
    dedupe: bool = True

    def __post_init__(self) -> None:
        if self.algorithm not in ALGORITHMS:
            raise ConfigError(f"algorithm must be one of {ALGORITHMS}, got {self.algorithm!r}")
        if self.dtype not in DTYPES:
            raise ConfigError(f"dtype must be one of {DTYPES}, got {self.dtype!r}")
        for name in ("vector_size", "window", "epochs", "min_count", "workers", "bucket", "min_n"):
            if getattr(self, name) < 1:
                raise ConfigError(f"{name} must be >= 1, got {getattr(self, name)}")
        if self.max_n < self.min_n or self.n_max < 2:
            raise ConfigError(
                f"need max_n >= min_n and n_max >= 2, got {self.min_n}-{self.max_n}, n_max={self.n_max}"
            )


# The settings of Alves et al. (section 4.3) and Abdalla et al.'s CBOW/skip-gram, on Word2Vec.
PAPER_PARAMS = TrainParams(
    algorithm="word2vec", vector_size=256, window=15, epochs=100, min_count=1, workers=1
)


@dataclass
class _Corpus:
    """What was learnt while writing the tokenized corpus: counts, skipped duplicates and a digest."""

    counts: Counts
    duplicates: int
    sha256: str


def _write_corpus(
    corpus: Iterable[str | Document], out: TextIO, hygiene: Hygiene, dedupe: bool, progress: Progress | None
) -> tuple[Counts, int, str]:
    counts, seen, duplicates, digest = Counts(by=hygiene.by), set(), 0, hashlib.sha256()
    for item in corpus:
        text, group = (item, None) if isinstance(item, str) else (item.text, item.patient_id)
        key = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
        if dedupe and key in seen:
            duplicates += 1
            continue
        seen.add(key)
        tokens = words(text)
        counts.add(tokens, group)
        for line in corpus_lines(tokens):
            out.write(line)
            digest.update(line.encode("utf-8", "surrogatepass"))
        if progress is not None:
            progress("reading", counts.documents, None)
    return counts, duplicates, digest.hexdigest()


def _fit(path: Path, params: TrainParams, progress: Progress | None) -> Any:
    def epoch_done(done: int) -> None:
        if progress is not None:
            progress("training", done, params.epochs)

    fasttext = params.algorithm == "fasttext"
    subwords: dict[str, Any] = {}
    if fasttext:
        subwords = {"bucket": params.bucket, "min_n": params.min_n, "max_n": params.max_n}
    return train_vectors(
        path,
        fasttext=fasttext,
        epochs=params.epochs,
        on_epoch=epoch_done,
        vector_size=params.vector_size,
        window=params.window,
        min_count=params.min_count,
        sg=int(params.sg),
        negative=params.negative,
        sample=params.sample,
        workers=params.workers,
        seed=params.seed,
        **subwords,
    )


def train_space(
    corpus: Iterable[str | Document],
    params: TrainParams | None = None,
    hygiene: Hygiene | None = None,
    *,
    progress: Progress | None = None,
) -> Space:
    """Tokenize ``corpus`` (texts or documents), train, pick the candidates, build the neighbour table."""
    params, hygiene = params or TrainParams(), hygiene or Hygiene()
    with tempfile.TemporaryDirectory(prefix="anonymed-embed-") as tmp:
        path = Path(tmp) / "corpus.txt"
        with path.open("w", encoding="utf-8", errors="surrogatepass") as out:
            counts, duplicates, sha = _write_corpus(corpus, out, hygiene, params.dedupe, progress)
        if counts.tokens == 0:
            raise ConfigError("the training corpus has no word tokens")
        model = _fit(path, params, progress)
    return _space(model, _Corpus(counts, duplicates, sha), params, hygiene, progress)


def _space(
    model: Any, corpus: _Corpus, params: TrainParams, hygiene: Hygiene, progress: Progress | None
) -> Space:
    wv = model.wv
    tokens = tuple(wv.index_to_key)
    dtype = np.dtype(params.dtype)
    counts = np.asarray([corpus.counts.count[t] for t in tokens], dtype=np.int64)
    doc_freq = np.asarray([corpus.counts.groups[t] for t in tokens], dtype=np.int64)
    vectors = np.asarray(wv.vectors_vocab if params.algorithm == "fasttext" else wv.vectors, dtype=dtype)
    subwords = None
    if params.algorithm == "fasttext":
        subwords = Subwords(
            wv.vectors_ngrams.astype(dtype), wv.vectors.astype(dtype), params.min_n, params.max_n
        )
    candidates = candidate_ids(tokens, counts, doc_freq, hygiene)
    if len(candidates) <= params.n_max + 1:
        raise ConfigError(
            f"only {len(candidates)} words pass hygiene "
            f"(min_count={hygiene.min_count}, min_docs={hygiene.min_docs}); "
            f"need more than {params.n_max + 1}: use a larger corpus or lower thresholds"
        )
    table = build_table(vectors, candidates, casefold_groups(tokens), params.n_max, progress=progress)
    meta = {
        "algorithm": params.algorithm,
        "train": asdict(params),
        "hygiene": asdict(hygiene),
        "corpus": {
            "documents": corpus.counts.documents,
            "duplicates_skipped": corpus.duplicates,
            "tokens": corpus.counts.tokens,
            "sha256": corpus.sha256,
        },
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "anonymed": metadata.version("anonymed"),
        "gensim": _gensim_version(),
    }
    return Space(tokens, counts, doc_freq, vectors, candidates, table, subwords, meta)


def _gensim_version() -> str:
    import gensim

    return str(gensim.__version__)


def with_overrides(params: TrainParams, **changes: Any) -> TrainParams:
    """``params`` with the given (non-None) fields changed."""
    return replace(params, **{k: v for k, v in changes.items() if v is not None})
