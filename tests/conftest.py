"""Fixtures shared by several test packages."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

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
