"""Intrinsic utility: embeddings trained on a corpus, scored against human term-pair judgements.

As in Abdalla et al. (Table 3): train fastText (CBOW) on the original and on the anonymized corpus, take the
cosine similarity of each benchmark pair (a multi-word term is the mean of its word vectors; fastText's
character n-grams give vectors to words the corpus never had), and correlate it with the human scores
(Pearson, and Spearman). Repeated runs give a mean with a Student-t confidence interval (90% by default).
Corpora are tokenized as the word-substitution spaces are: lower-cased letter runs, numbers dropped.
"""

from __future__ import annotations

import csv
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from anonymed.embeddings.gensim_train import train_vectors
from anonymed.embeddings.tokenize import words
from anonymed.errors import ConfigError, ResourceError
from anonymed.evaluate.scores import rounded

WORDSIM = Path(__file__).resolve().parents[1] / "resources" / "wordsim"
BENCHMARKS = (
    "umnsrs_similarity",
    "umnsrs_relatedness",
    "mayosrs",
    "pedersen_physicians",
    "pedersen_coders",
    "hliaoutakis",
)


@dataclass(frozen=True)
class Benchmark:
    """A named list of (term, term, human score) pairs."""

    name: str
    pairs: tuple[tuple[str, str, float], ...]


def load_benchmark(name: str, folder: Path = WORDSIM) -> Benchmark:
    """Read ``folder/name.csv`` (columns term1, term2, score)."""
    path = Path(folder) / f"{name}.csv"
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            rows = [(r["term1"], r["term2"], float(r["score"])) for r in csv.DictReader(handle)]
    except (OSError, KeyError, ValueError) as exc:
        raise ResourceError(f"cannot read benchmark {str(path)!r}: {type(exc).__name__}") from None
    return Benchmark(name, tuple(rows))


def load_benchmarks(names: Sequence[str] = BENCHMARKS, folder: Path = WORDSIM) -> list[Benchmark]:
    """The named benchmarks (default: all shipped ones)."""
    unknown = [n for n in names if not (Path(folder) / f"{n}.csv").exists()]
    if unknown:
        raise ConfigError(f"unknown word-similarity benchmarks {unknown}; known: {list(BENCHMARKS)}")
    return [load_benchmark(name, folder) for name in names]


@dataclass(frozen=True)
class EmbeddingParams:
    """fastText settings (Abdalla et al.: CBOW, 100 dimensions, window 5, 5 negative samples)."""

    vector_size: int = 100
    window: int = 5
    negative: int = 5
    epochs: int = 5
    min_count: int = 3
    sg: bool = False
    min_n: int = 3
    max_n: int = 6
    bucket: int = 100_000
    workers: int = 2

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if name != "sg" and value < 1:
                raise ConfigError(f"embedding parameter {name} must be >= 1, got {value!r}")


def train_embeddings(texts: Iterable[str], params: EmbeddingParams | None = None, seed: int = 1) -> Any:
    """gensim fastText word vectors (``KeyedVectors`` with n-gram vectors for unseen words)."""
    params = params or EmbeddingParams()
    sentences = [tokens for text in texts if (tokens := words(text))]
    if not sentences:
        raise ConfigError("the corpus has no word to train embeddings on")
    if max(Counter(t for tokens in sentences for t in tokens).values()) < params.min_count:
        raise ConfigError(f"no word occurs min_count={params.min_count} times: nothing to train")
    model = train_vectors(
        sentences,
        fasttext=True,
        epochs=params.epochs,
        vector_size=params.vector_size,
        window=params.window,
        negative=params.negative,
        min_count=params.min_count,
        sg=int(params.sg),
        min_n=params.min_n,
        max_n=params.max_n,
        bucket=params.bucket,
        workers=params.workers,
        seed=seed,
    )
    return model.wv


def term_vector(vectors: Any, term: str) -> npt.NDArray[np.float64] | None:
    """The mean of the term's word vectors (None if it has no word or only zero vectors)."""
    tokens = words(term)
    if not tokens:
        return None
    mean: npt.NDArray[np.float64] = np.mean(
        [np.asarray(vectors[t], dtype=np.float64) for t in tokens], axis=0
    )
    return mean if np.linalg.norm(mean) > 0 else None


def cosine(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> float:
    """Cosine similarity of two non-zero vectors."""
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


@dataclass(frozen=True)
class Correlation:
    """Pearson and Spearman correlation over the pairs that both terms of which have a vector."""

    pearson: float | None
    spearman: float | None
    pairs: int
    total: int


def correlate(model: list[float], human: list[float], total: int) -> Correlation:
    """Correlations of two aligned score lists (None below 3 pairs or for a constant list)."""
    from scipy.stats import pearsonr, spearmanr

    if len(model) < 3 or np.ptp(model) == 0 or np.ptp(human) == 0:
        return Correlation(None, None, len(model), total)
    return Correlation(float(pearsonr(model, human)[0]), float(spearmanr(model, human)[0]), len(model), total)


def score_benchmark(vectors: Any, benchmark: Benchmark) -> Correlation:
    """Cosine similarity of each pair against the human scores."""
    model: list[float] = []
    human: list[float] = []
    for first, second, score in benchmark.pairs:
        a, b = term_vector(vectors, first), term_vector(vectors, second)
        if a is not None and b is not None:
            model.append(cosine(a, b))
            human.append(score)
    return correlate(model, human, len(benchmark.pairs))


def confidence_interval(values: Sequence[float], level: float = 0.9) -> tuple[float, float, float]:
    """(mean, low, high): Student-t interval of the mean; a single value gives a zero-width interval."""
    from scipy.stats import t

    if not values:
        raise ConfigError("no values to average")
    mean = float(np.mean(values))
    if len(values) < 2:
        return mean, mean, mean
    half = (
        float(t.ppf(0.5 + level / 2, len(values) - 1))
        * float(np.std(values, ddof=1))
        / math.sqrt(len(values))
    )
    return mean, mean - half, mean + half


@dataclass(frozen=True)
class Summary:
    """Mean and confidence interval of a score over runs (and the runs' values)."""

    mean: float | None
    low: float | None
    high: float | None
    values: tuple[float, ...]

    @classmethod
    def of(cls, values: Sequence[float | None], level: float = 0.9) -> Summary:
        """Summarise the defined values."""
        kept = tuple(float(v) for v in values if v is not None)
        if not kept:
            return cls(None, None, None, ())
        mean, low, high = confidence_interval(kept, level)
        return cls(mean, low, high, kept)

    def to_json(self) -> dict[str, Any]:
        """Rounded mean, bounds and values."""
        return {
            "mean": rounded(self.mean),
            "low": rounded(self.low),
            "high": rounded(self.high),
            "values": [rounded(v) for v in self.values],
        }


def summarise_runs(runs: Sequence[dict[str, Correlation]], level: float = 0.9) -> dict[str, dict[str, Any]]:
    """Per benchmark: Pearson and Spearman summaries over runs, and the pairs used."""
    names = list(runs[0]) if runs else []
    return {
        name: {
            "pearson": Summary.of([run[name].pearson for run in runs], level).to_json(),
            "spearman": Summary.of([run[name].spearman for run in runs], level).to_json(),
            "pairs": runs[0][name].pairs,
            "total": runs[0][name].total,
        }
        for name in names
    }


def evaluate_corpus(
    texts: Iterable[str],
    benchmarks: Sequence[Benchmark],
    params: EmbeddingParams | None = None,
    seed: int = 1,
) -> dict[str, Correlation]:
    """Train one embedding on ``texts`` and score every benchmark."""
    vectors = train_embeddings(texts, params, seed)
    return {benchmark.name: score_benchmark(vectors, benchmark) for benchmark in benchmarks}
