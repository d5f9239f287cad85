"""The embedding under attack: words and vectors, loaded from gensim files or an anonymed space folder."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from anonymed.errors import ConfigError, ResourceError

_TEXT_FORMATS = (".txt", ".vec")
_BINARY_FORMATS = (".bin",)


@dataclass(frozen=True, eq=False)
class Embedding:
    """A word list and one vector per word (row ``i`` of ``vectors`` is ``words[i]``)."""

    words: tuple[str, ...]
    vectors: npt.NDArray[np.float64]
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.vectors.ndim != 2 or self.vectors.shape[0] != len(self.words):
            raise ConfigError(
                f"embedding has {len(self.words)} words but vectors of shape {self.vectors.shape}"
            )

    @cached_property
    def index(self) -> dict[str, int]:
        """Word -> row."""
        return {word: i for i, word in enumerate(self.words)}

    def __contains__(self, word: object) -> bool:
        return word in self.index

    def rows(self, words: Sequence[str]) -> npt.NDArray[np.int64]:
        """The rows of ``words`` (all must be in the vocabulary)."""
        return np.asarray([self.index[w] for w in words], dtype=np.int64)

    def mean_vector(self, tokens: Sequence[str]) -> npt.NDArray[np.float64] | None:
        """The average vector of the tokens that are in the vocabulary (None if none is)."""
        known = [t for t in tokens if t in self.index]
        if not known:
            return None
        return np.asarray(self.vectors[self.rows(known)].mean(axis=0), dtype=np.float64)

    @classmethod
    def from_keyed_vectors(cls, wv: Any, **meta: Any) -> Embedding:
        """From gensim ``KeyedVectors`` (also a Word2Vec / FastText model's ``.wv``)."""
        words = tuple(str(w) for w in wv.index_to_key)
        return cls(words, np.asarray(wv.vectors[: len(words)], dtype=np.float64), dict(meta))


def load_embedding(path: Path | str) -> Embedding:
    """Load an anonymed space folder, a gensim model / KeyedVectors file or a word2vec text/binary file."""
    path = Path(path)
    if path.is_dir():
        return _load_space(path)
    if not path.is_file():
        raise ResourceError(f"no embedding model at {str(path)!r}")
    try:
        if path.suffix.lower() in _TEXT_FORMATS + _BINARY_FORMATS:
            from gensim.models import KeyedVectors

            binary = path.suffix.lower() in _BINARY_FORMATS
            wv = KeyedVectors.load_word2vec_format(str(path), binary=binary)
        else:
            from gensim.utils import SaveLoad

            loaded = SaveLoad.load(str(path))
            wv = getattr(loaded, "wv", loaded)
        return Embedding.from_keyed_vectors(wv, source=str(path))
    except Exception as exc:  # unpickling an unrelated file raises arbitrary error types
        raise ResourceError(f"cannot load embedding model {str(path)!r}: {type(exc).__name__}") from None


def _load_space(folder: Path) -> Embedding:
    if not (folder / "meta.json").exists():
        raise ResourceError(f"{str(folder)!r} is a folder but not an anonymed space (no meta.json)")
    from anonymed.embeddings.spaces import load_space

    space = load_space(folder)
    return Embedding(space.tokens, np.asarray(space.vectors, dtype=np.float64), {"source": str(folder)})
