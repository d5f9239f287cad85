"""Train the embeddings an attacker would be handed: CBOW, skip-gram, fastText (gensim), GloVe if installed.

Texts are prepared the paper's way: lower case, punctuation and digits removed, nothing else. GloVe needs
the optional ``bicleaner-ai-glove`` package (a maintained fork of glove-python with binary wheels); the
other algorithms only need gensim.
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from anonymed.audit.embedding import Embedding
from anonymed.embeddings.gensim_train import corpus_lines, train_vectors
from anonymed.embeddings.tokenize import words
from anonymed.errors import ConfigError

ALGORITHMS = ("cbow", "skipgram", "fasttext", "glove")


@dataclass(frozen=True)
class ModelSpec:
    """One embedding to train; gensim's defaults unless stated (the paper kept each tool's defaults).

    ``bucket``: fastText n-gram buckets (gensim's 2,000,000 takes 800 MB a model; 200,000 is plenty for a
    benchmark vocabulary). ``glove_epochs``: GloVe iterations (15, the reference implementation's demo).
    """

    algorithm: str
    window: int
    vector_size: int = 100
    epochs: int = 5
    min_count: int = 5
    bucket: int = 200_000
    glove_epochs: int = 15
    seed: int = 1

    def __post_init__(self) -> None:
        if self.algorithm not in ALGORITHMS:
            raise ConfigError(f"algorithm must be one of {ALGORITHMS}, got {self.algorithm!r}")
        for name in ("window", "vector_size", "epochs", "min_count", "bucket", "glove_epochs"):
            if getattr(self, name) < 1:
                raise ConfigError(f"{name} must be >= 1, got {getattr(self, name)!r}")

    @property
    def label(self) -> str:
        """``skipgram w5``."""
        return f"{self.algorithm} w{self.window}"


def glove_available() -> bool:
    """Whether a GloVe implementation (module ``glove`` from bicleaner-ai-glove) is installed."""
    return importlib.util.find_spec("glove") is not None


def write_corpus(texts: Iterable[str], path: Path) -> Path:
    """One note per line, lower-cased words separated by spaces (gensim's ``corpus_file`` format)."""
    with Path(path).open("w", encoding="utf-8") as out:
        for text in texts:
            tokens = words(text)
            out.writelines(corpus_lines(tokens))
    return Path(path)


def train(corpus: Path, spec: ModelSpec) -> Embedding:
    """Train ``spec`` on a corpus file from ``write_corpus`` (one thread: the grid runs jobs in parallel)."""
    if spec.algorithm == "glove":
        return _glove(corpus, spec)
    fasttext = spec.algorithm == "fasttext"
    subwords: dict[str, Any] = {"bucket": spec.bucket} if fasttext else {}
    model = train_vectors(
        corpus,
        fasttext=fasttext,
        epochs=spec.epochs,
        vector_size=spec.vector_size,
        window=spec.window,
        min_count=spec.min_count,
        sg=int(spec.algorithm == "skipgram"),
        workers=1,
        seed=spec.seed,
        **subwords,
    )
    return Embedding.from_keyed_vectors(model.wv, algorithm=spec.algorithm, window=spec.window)


def _glove(corpus: Path, spec: ModelSpec) -> Embedding:
    if not glove_available():
        raise ConfigError(
            "GloVe needs the optional package bicleaner-ai-glove (pip install bicleaner-ai-glove)"
        )
    from glove import Corpus, Glove

    lines = [line.split() for line in corpus.read_text(encoding="utf-8").splitlines()]
    counts = Counter(token for line in lines for token in line)
    kept = [[t for t in line if counts[t] >= spec.min_count] for line in lines]
    cooccurrence = Corpus()
    cooccurrence.fit(kept, window=spec.window)
    model = Glove(no_components=spec.vector_size, learning_rate=0.05, random_state=spec.seed)
    model.fit(cooccurrence.matrix, epochs=spec.glove_epochs, no_threads=1)
    order = sorted(cooccurrence.dictionary.items(), key=lambda item: item[1])
    vectors = np.asarray(model.word_vectors, dtype=np.float64)
    return Embedding(tuple(word for word, _ in order), vectors, {"algorithm": "glove", "window": spec.window})
