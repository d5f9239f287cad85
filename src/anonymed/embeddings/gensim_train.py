"""The one gensim trainer: Word2Vec (CBOW or skip-gram) or fastText, seeded, over tokenised text.

Embedding spaces (``training.py``), the intrinsic evaluation (``evaluate/intrinsic.py``) and the audit's
attacked embeddings (``audit/models.py``) all train through ``train_vectors``; ``corpus_lines`` writes
gensim's ``corpus_file`` format, which trains on every core without holding the corpus in memory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from anonymed.errors import ConfigError

#: gensim's longest sentence: a longer text is cut into lines of at most this many tokens
MAX_LINE = 10_000


def corpus_lines(tokens: Sequence[str]) -> Iterator[str]:
    """One text's tokens as ``corpus_file`` lines (space-separated, newline-terminated, cut at MAX_LINE)."""
    for start in range(0, len(tokens), MAX_LINE):
        yield " ".join(tokens[start : start + MAX_LINE]) + "\n"


def train_vectors(
    corpus: Path | Sequence[Sequence[str]],
    *,
    fasttext: bool,
    epochs: int,
    on_epoch: Callable[[int], None] | None = None,
    **settings: Any,
) -> Any:
    """A gensim ``FastText`` or ``Word2Vec`` model trained on ``corpus`` (a file of ``corpus_lines``, or
    token lists).

    ``settings`` are gensim's own (``vector_size``, ``window``, ``min_count``, ``sg``, ``seed``, ``workers``;
    ``bucket``, ``min_n`` and ``max_n`` for fastText); ``on_epoch`` is told the number of epochs done.
    """
    from gensim.models import FastText, Word2Vec
    from gensim.models.callbacks import CallbackAny2Vec

    class _Epochs(CallbackAny2Vec):  # type: ignore[misc]
        def __init__(self) -> None:
            self.done = 0

        def on_epoch_end(self, model: Any) -> None:
            self.done += 1
            if on_epoch is not None:
                on_epoch(self.done)

    source: dict[str, Any] = (
        {"corpus_file": str(corpus)} if isinstance(corpus, Path) else {"corpus_iterable": corpus}
    )
    model = (FastText if fasttext else Word2Vec)(epochs=epochs, **settings)
    model.build_vocab(**source)
    if len(model.wv) == 0:
        raise ConfigError("the training corpus has no word with at least min_count occurrences")
    model.train(
        **source,
        total_examples=model.corpus_count,
        total_words=model.corpus_total_words,
        epochs=epochs,
        callbacks=[_Epochs()],
    )
    return model
