"""Embedding spaces: the tokenizer, vocabularies, fastText subwords, neighbour tables, training with gensim.

A part (docs/architecture.md): word substitution (``words/``), the tagger's word clusters (``detect/``),
the evaluation and the audit read spaces and tokens from here.
"""

from __future__ import annotations

from anonymed.embeddings.spaces import Space, default_space, load_space
from anonymed.embeddings.training import PAPER_PARAMS, TrainParams, train_space
from anonymed.embeddings.vocab import Hygiene

__all__ = [
    "PAPER_PARAMS",
    "Hygiene",
    "Space",
    "TrainParams",
    "default_space",
    "load_space",
    "train_space",
]
