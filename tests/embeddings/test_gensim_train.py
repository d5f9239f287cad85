"""embeddings/gensim_train.py: the one gensim trainer and the corpus_file lines it reads."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from anonymed.embeddings.gensim_train import MAX_LINE, corpus_lines, train_vectors
from anonymed.errors import ConfigError

TEXTS = [["the", "patient", "has", "chest", "pain"], ["the", "pain", "is", "better", "today"]] * 20
SMALL = {"vector_size": 8, "window": 2, "min_count": 1, "workers": 1, "seed": 3}


def test_a_long_text_is_cut_into_lines_of_at_most_max_line_tokens() -> None:
    lines = list(corpus_lines(["w"] * (MAX_LINE + 5)))
    assert [len(line.split()) for line in lines] == [MAX_LINE, 5]
    assert all(line.endswith("\n") for line in lines) and list(corpus_lines([])) == []


def test_every_epoch_is_reported_and_the_seed_repeats_the_vectors(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("".join(line for tokens in TEXTS for line in corpus_lines(tokens)), encoding="utf-8")
    done: list[int] = []
    first = train_vectors(corpus, fasttext=False, epochs=3, on_epoch=done.append, **SMALL)
    again = train_vectors(corpus, fasttext=False, epochs=3, **SMALL)
    assert done == [1, 2, 3]
    assert type(first).__name__ == "Word2Vec" and np.array_equal(first.wv.vectors, again.wv.vectors)


def test_fasttext_from_token_lists_has_vectors_for_unseen_words() -> None:
    model = train_vectors(TEXTS, fasttext=True, epochs=2, bucket=1000, min_n=3, max_n=4, **SMALL)
    assert type(model).__name__ == "FastText" and "painful" not in model.wv.key_to_index
    assert np.linalg.norm(model.wv["painful"]) > 0


def test_a_corpus_with_no_word_frequent_enough_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="min_count"):
        train_vectors([["once"]], fasttext=False, epochs=1, **{**SMALL, "min_count": 5})
