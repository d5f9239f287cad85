"""Fixtures shared by several test packages."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from anonymed.embeddings import Space, TrainParams, train_space
from kneo_corpus import TINY, TINY_HYGIENE, tiny_corpus

#: builds (tokenizer, config) of a tiny BERT with a word-level vocabulary written into a folder
TinyBert = Callable[..., tuple[Any, Any]]


@pytest.fixture(scope="session")
def tiny_bert() -> TinyBert:
    """A factory of tiny randomly initialisable BERTs (one layer, 16 dimensions) over a word vocabulary."""
    transformers = pytest.importorskip("transformers")

    def build(folder: Path, words: Sequence[str], **config: Any) -> tuple[Any, Any]:
        (folder / "vocab.txt").write_text(
            "\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *words]) + "\n"
        )
        tokenizer = transformers.BertTokenizerFast(vocab_file=str(folder / "vocab.txt"), do_lower_case=True)
        bert = transformers.BertConfig(
            vocab_size=len(words) + 5,
            hidden_size=16,
            num_hidden_layers=1,
            num_attention_heads=2,
            intermediate_size=32,
            **config,
        )
        return tokenizer, bert

    return build


@pytest.fixture(scope="session")
def word_corpus() -> list[str]:
    """The tiny corpus of the word-substitution tests (``kneo_corpus.py``)."""
    return tiny_corpus()


@pytest.fixture(scope="session")
def fasttext_space(word_corpus: list[str]) -> Space:
    """A tiny fastText space (subwords for unseen words), trained once per session in a second or two."""
    return train_space(word_corpus, TINY, TINY_HYGIENE)


@pytest.fixture(scope="session")
def word2vec_space(word_corpus: list[str]) -> Space:
    """A tiny Word2Vec space (unseen words by shape), trained once per session."""
    params = TrainParams(algorithm="word2vec", vector_size=16, epochs=3, workers=1, n_max=6)
    return train_space(word_corpus, params, TINY_HYGIENE)
