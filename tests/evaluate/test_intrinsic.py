"""Intrinsic evaluation: term vectors, correlations, confidence intervals, the shipped benchmarks."""

from __future__ import annotations

import math

import numpy as np
import pytest

from anonymed.errors import ConfigError
from anonymed.evaluate.intrinsic import (
    BENCHMARKS,
    Benchmark,
    EmbeddingParams,
    Summary,
    confidence_interval,
    correlate,
    evaluate_corpus,
    load_benchmarks,
    score_benchmark,
    term_vector,
    train_embeddings,
)

VECTORS = {
    "renal": np.array([1.0, 0.0]),
    "kidney": np.array([1.0, 0.0]),
    "failure": np.array([0.0, 1.0]),
    "heart": np.array([1.0, 1.0]),
    "myocardium": np.array([1.0, 0.8]),
    "bone": np.array([0.0, 1.0]),
    "zero": np.array([0.0, 0.0]),
}


@pytest.mark.parametrize(
    ("term", "expected"),
    [
        ("Renal failure", [0.5, 0.5]),  # multi-word terms are averaged (case-folded)
        ("KIDNEY", [1.0, 0.0]),
        ("renal-failure", [0.5, 0.5]),  # punctuation splits words
    ],
)
def test_term_vector_is_the_mean_of_its_words(term: str, expected: list[float]) -> None:
    vector = term_vector(VECTORS, term)
    assert vector is not None
    assert vector.tolist() == expected


@pytest.mark.parametrize("term", ["", "12 34", "zero"])  # no word, only numbers, a zero vector
def test_term_without_a_usable_vector_is_none(term: str) -> None:
    assert term_vector(VECTORS, term) is None


def test_benchmark_correlates_cosine_with_human_scores() -> None:
    bench = Benchmark(
        "tiny",
        (
            ("renal failure", "kidney failure", 4.0),  # cosine 1 (same vector)
            ("heart", "myocardium", 3.0),  # cosine 0.9939
            ("kidney", "heart", 2.0),  # cosine 0.7071
            ("kidney", "bone", 1.0),  # cosine 0
            ("zero", "heart", 3.5),  # no vector for "zero": left out
        ),
    )
    result = score_benchmark(VECTORS, bench)
    assert (result.pairs, result.total) == (4, 5)
    assert result.spearman == pytest.approx(1.0)
    model = [1.0, 1.8 / math.sqrt(2 * 1.64), 1 / math.sqrt(2), 0.0]
    assert result.pearson == pytest.approx(float(np.corrcoef(model, [4, 3, 2, 1])[0, 1]))


@pytest.mark.parametrize(
    ("model", "human"),
    [
        ([0.1, 0.2], [1.0, 2.0]),  # fewer than three pairs
        ([0.5, 0.5, 0.5], [1.0, 2.0, 3.0]),  # constant similarities
    ],
)
def test_correlation_is_undefined_on_degenerate_input(model: list[float], human: list[float]) -> None:
    result = correlate(model, human, 10)
    assert (result.pearson, result.spearman) == (None, None)


def test_confidence_interval_uses_student_t() -> None:
    mean, low, high = confidence_interval([1.0, 2.0, 3.0], 0.9)
    half = 2.919986 / math.sqrt(3)  # t(0.95, 2 d.f.) * sd 1 / sqrt(3)
    assert (mean, low, high) == pytest.approx((2.0, 2.0 - half, 2.0 + half), abs=1e-5)
    assert confidence_interval([0.4]) == (0.4, 0.4, 0.4)  # one run: zero width
    with pytest.raises(ConfigError):
        confidence_interval([])


def test_summary_skips_undefined_runs() -> None:
    summary = Summary.of([0.5, None, 0.7])
    assert summary.values == (0.5, 0.7)
    assert Summary.of([None]).mean is None


def test_shipped_benchmarks_have_their_published_sizes() -> None:
    sizes = {b.name: len(b.pairs) for b in load_benchmarks()}
    assert sizes == {
        "umnsrs_similarity": 566,
        "umnsrs_relatedness": 587,
        "mayosrs": 101,
        "pedersen_physicians": 30,
        "pedersen_coders": 30,
        "hliaoutakis": 36,
    }
    assert set(sizes) == set(BENCHMARKS)
    with pytest.raises(ConfigError):
        load_benchmarks(["wordsim353"])


CORPUS = [
    "the heart failure patient had chest pain and heart palpitations",
    "renal failure and kidney disease with kidney stones",
    "the bone fracture of the femur bone healed",
] * 10
TINY = EmbeddingParams(vector_size=8, epochs=1, min_count=1, bucket=1000, workers=1)


def test_fasttext_gives_vectors_to_unseen_words() -> None:
    vectors = train_embeddings(CORPUS, TINY, seed=3)
    assert "nephropathy" not in vectors.key_to_index
    assert term_vector(vectors, "nephropathy") is not None  # from character n-grams


def test_evaluate_corpus_scores_every_benchmark() -> None:
    bench = Benchmark("tiny", (("heart", "chest", 3.0), ("kidney", "renal", 4.0), ("bone", "heart", 1.0)))
    results = evaluate_corpus(CORPUS, [bench], TINY, seed=3)
    assert results["tiny"].pairs == 3
    assert results["tiny"].pearson is not None


def test_corpus_without_words_is_refused() -> None:
    with pytest.raises(ConfigError):
        train_embeddings(["123 456", "!!"], TINY)
    with pytest.raises(ConfigError):
        EmbeddingParams(epochs=0)
