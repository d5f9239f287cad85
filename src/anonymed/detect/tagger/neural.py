"""A convolutional PHI tagger run in NumPy: in-domain fastText word vectors, a character CNN, word shape,
lexicon and rule-hint features, a dense layer and residual dilated convolutions over the tokens.

Trained with torch (``anonymed.train.neural``, the ``neural`` extra); inference needs NumPy only, so the
shipped model adds no dependency. A model folder holds ``meta.json`` (family ``cnn``, labels, hint and
character vocabularies, sizes), ``weights.npz`` and the feature lexicons of the CRF (``lexicons.json.gz``).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from anonymed.detect.tagger.features import FeatureLexicons, case_of, mostly_upper
from anonymed.detect.tokens import TaggerToken, fold
from anonymed.detect.view import NoteView
from anonymed.document import Document
from anonymed.errors import ResourceError

FAMILY: Final = "cnn"
WEIGHTS_FILE: Final = "weights.npz"
#: the embedding space whose fastText subwords give every word a vector
SPACE: Final = "mtsamples"
#: characters of a token the character CNN reads
MAX_CHARS: Final = 16
CASES: Final = ("digit", "upper", "initial", "lower", "title", "mixed")
#: separators before a token, as one-hot classes (the rest is "other")
GAPS: Final = ("", ".", ",", ":", "/", "-", "(", ")", "#", "'")

Array = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Vocabularies:
    """What the encoder maps to indices: labels, characters, hint marks and lexicon names."""

    labels: tuple[str, ...]
    chars: str  # index 0 is padding, 1 unknown, then these characters from 2
    hints: tuple[str, ...]
    lexicons: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The vocabularies as JSON."""
        return {
            "labels": list(self.labels),
            "chars": self.chars,
            "hints": list(self.hints),
            "lexicons": list(self.lexicons),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Vocabularies:
        """Vocabularies written by ``to_json``."""
        return cls(tuple(data["labels"]), str(data["chars"]), tuple(data["hints"]), tuple(data["lexicons"]))


@dataclass(frozen=True)
class Encoded:
    """One note's inputs: dense per-token features and character ids."""

    dense: Array  # tokens x (word vector + case + gap + hints + lexicons)
    chars: npt.NDArray[np.int64]  # tokens x MAX_CHARS


class Encoder:
    """Turns a note's tokens and hint spans into the network's inputs (word vectors cached per word)."""

    def __init__(self, vocab: Vocabularies, lexicons: FeatureLexicons) -> None:
        from anonymed.detect.tagger.clusters import WordVectors

        self.vocab = vocab
        self.lexicons = lexicons
        self.vectors = WordVectors(SPACE)
        self._char_index = {char: i + 2 for i, char in enumerate(vocab.chars)}
        self._hint_index = {mark: i for i, mark in enumerate(vocab.hints)}
        self._lexicon_index = {name: i for i, name in enumerate(vocab.lexicons)}
        self._cache: dict[str, tuple[Array, npt.NDArray[np.int64]]] = {}
        # column offsets: word vector, case, gap class (+ other), newline, note in capitals, hints, lexicons
        self.case_at = 100
        self.gap_at = self.case_at + len(CASES)
        self.newline_at = self.gap_at + len(GAPS) + 1
        self.caps_at = self.newline_at + 1
        self.hint_at = self.caps_at + 1
        self.lexicon_at = self.hint_at + len(vocab.hints)
        self.width = self.lexicon_at + len(vocab.lexicons)

    def _word(self, word: str) -> tuple[Array, npt.NDArray[np.int64]]:
        cached = self._cache.get(word)
        if cached is None:
            row = np.zeros(self.width, dtype=np.float32)
            row[:100] = self.vectors.vector(word)
            row[self.case_at + CASES.index(case_of(word))] = 1.0
            for mark in self.lexicons.memberships(fold(word)):
                index = self._lexicon_index.get(mark.removeprefix("lex="))
                if index is not None:
                    row[self.lexicon_at + index] = 1.0
            chars = np.zeros(MAX_CHARS, dtype=np.int64)
            for i, char in enumerate(word[:MAX_CHARS]):
                chars[i] = self._char_index.get(char, 1)
            cached = (row, chars)
            if len(self._cache) < 200_000:
                self._cache[word] = cached
        return cached

    def encode(self, tokens: Sequence[TaggerToken], marks: dict[int, list[str]]) -> Encoded:
        """The inputs of one note (``marks``: token index -> hint marks ``source:LABEL``)."""
        rows = [self._word(token.text) for token in tokens]
        dense = np.stack([row for row, _ in rows]) if rows else np.zeros((0, self.width), np.float32)
        chars = np.stack([c for _, c in rows]) if rows else np.zeros((0, MAX_CHARS), np.int64)
        dense = dense.copy()
        dense[:, self.caps_at] = float(mostly_upper(tokens))
        for i, token in enumerate(tokens):
            gap = token.before[:1]
            dense[i, self.gap_at + (GAPS.index(gap) if gap in GAPS else len(GAPS))] = 1.0
            dense[i, self.newline_at] = float(token.newline_before)
            for mark in marks.get(i, ()):
                index = self._hint_index.get(mark)
                if index is not None:
                    dense[i, self.hint_at + index] = 1.0
        return Encoded(dense, chars)


def _shifted(x: Array, dilation: int) -> Array:
    """Left, centre and right neighbours at ``dilation`` side by side (zero padding): tokens x 3·width."""
    pad = np.zeros((dilation, x.shape[1]), dtype=x.dtype)
    padded = np.concatenate([pad, x, pad])
    size = x.shape[0]
    return np.concatenate([padded[:size], padded[dilation : dilation + size], padded[2 * dilation :]], axis=1)


def forward(weights: dict[str, Array], encoded: Encoded, dilations: Sequence[int]) -> Array:
    """Label probabilities per token (tokens x labels), NumPy only."""
    table = weights["char_embedding"]
    chars = table[encoded.chars]  # tokens x chars x dim
    size, length, dim = chars.shape
    pad = np.zeros((size, 1, dim), dtype=np.float32)
    padded = np.concatenate([pad, chars, pad], axis=1)
    windows = np.concatenate([padded[:, :length], padded[:, 1 : length + 1], padded[:, 2:]], axis=2)
    conv = np.maximum(windows @ weights["char_conv"] + weights["char_bias"], 0.0)
    conv *= (encoded.chars > 0)[:, :, None]
    char_features = conv.max(axis=1) if length else np.zeros((size, conv.shape[2]), np.float32)
    x = np.concatenate([encoded.dense, char_features], axis=1)
    h = np.maximum(x @ weights["input"] + weights["input_bias"], 0.0)
    for layer, dilation in enumerate(dilations):
        step = _shifted(h, dilation) @ weights[f"conv{layer}"] + weights[f"conv{layer}_bias"]
        h = h + np.maximum(step, 0.0)
    logits = h @ weights["output"] + weights["output_bias"]
    logits -= logits.max(axis=1, keepdims=True)
    exp = np.exp(logits)
    probabilities: Array = (exp / exp.sum(axis=1, keepdims=True)).astype(np.float32)
    return probabilities


class NeuralTagger:
    """The CNN tagger of a model folder: per-token label probabilities from a note."""

    def __init__(self, folder: Path, meta: dict[str, Any], lexicons: FeatureLexicons) -> None:
        from anonymed.detect.tagger.model import HintRunner

        self.path = folder
        self.meta = meta
        self.vocab = Vocabularies.from_json(meta["vocabularies"])
        self.labels = self.vocab.labels
        self.dilations = tuple(int(d) for d in meta["dilations"])
        self.hints = HintRunner(meta.get("hints", ()))
        self.encoder = Encoder(self.vocab, lexicons)
        try:
            with np.load(folder / WEIGHTS_FILE) as data:
                self.weights = {name: data[name].astype(np.float32) for name in data.files}
        except (OSError, ValueError) as exc:
            raise ResourceError(f"cannot load tagger weights from {folder}: {type(exc).__name__}") from None

    def probabilities(self, view: NoteView) -> tuple[list[TaggerToken], Array]:
        """The tokens of a note and their label probabilities (tokens x labels)."""
        from anonymed.detect.tagger.features import hint_marks

        tokens = view.tokens
        if not tokens:
            return tokens, np.zeros((0, len(self.labels)), np.float32)
        encoded = self.encoder.encode(tokens, hint_marks(tokens, self.hints(view)))
        with _one_blas_thread():
            return tokens, forward(self.weights, encoded, self.dilations)

    def marginals(self, note: Document | NoteView) -> tuple[list[TaggerToken], list[dict[str, float]]]:
        """The tokens of a note and, per token, the probability of each label."""
        view = note if isinstance(note, NoteView) else NoteView(note)
        tokens, probs = self.probabilities(view)
        labels = self.labels
        return tokens, [dict(zip(labels, row.tolist(), strict=True)) for row in probs]


@lru_cache(maxsize=1)
def _controller() -> Any:
    """threadpoolctl's controller of the BLAS libraries NumPy loaded, if threadpoolctl is installed."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return None
    return ThreadpoolController()


def _one_blas_thread() -> AbstractContextManager[Any]:
    """Run the small matrix products of one note on one BLAS thread: threads only add overhead there, and
    on a loaded machine they cost tenfold (measured: 0.9 ms per note on one thread, 16 ms CPU on many)."""
    controller = _controller()
    if controller is None:
        return nullcontext()
    limited: AbstractContextManager[Any] = controller.limit(limits=1, user_api="blas")
    return limited


def load_lexicons(folder: Path) -> FeatureLexicons:
    """The feature lexicons stored in a model folder."""
    from anonymed.detect.tagger.model import LEXICON_FILE

    try:
        with gzip.open(folder / LEXICON_FILE, "rt", encoding="utf-8") as handle:
            raw = json.load(handle)
    except (OSError, ValueError) as exc:
        raise ResourceError(f"cannot load tagger lexicons from {folder}: {type(exc).__name__}") from None
    return FeatureLexicons({name: frozenset(words) for name, words in raw.items()})
