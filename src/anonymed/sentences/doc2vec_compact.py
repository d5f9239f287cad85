"""A Doc2Vec model kept for inference only, its output weights stored as 8-bit integers (a quarter the size).

PV-DBOW inference (``Doc2VecEncoder.encode``) reads the vocabulary, each word's count (for the negative
sampling table) and down-sampling threshold, and the output weights ``syn1neg``; it never reads the word
vectors or the trained sentence vectors, which take most of a saved gensim model. This module writes what
inference reads, ``syn1neg`` rounded per row to int8 (each row scaled by its largest magnitude / 127), and
builds a gensim ``Doc2Vec`` from it again. Rounding changes inferred vectors by at most about 1e-4 in
cosine (see resources/banks/PROVENANCE.md for the measured effect on neighbours).

Files: ``doc2vec-inference.json`` (hyper-parameters, words, counts, sample thresholds) and
``doc2vec-syn1neg.npz`` (``codes`` int8, ``scales`` float32).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from anonymed.errors import ResourceError

SETTINGS_FILE = "doc2vec-inference.json"
WEIGHTS_FILE = "doc2vec-syn1neg.npz"
#: the model attributes inference depends on, stored as they are (alpha may equal min_alpha after training)
_SETTINGS = ("vector_size", "negative", "sample", "ns_exponent", "window", "alpha", "min_alpha", "seed")


def quantised(weights: npt.NDArray[np.floating]) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.float32]]:
    """Per-row int8 codes and scales with ``codes * scales`` close to ``weights`` (zero rows stay zero)."""
    values = np.asarray(weights, dtype=np.float32)
    scales = (np.abs(values).max(axis=1, keepdims=True) / 127).astype(np.float32)
    safe = np.where(scales > 0, scales, 1).astype(np.float32)
    codes = np.clip(np.rint(values / safe), -127, 127).astype(np.int8)
    return codes, scales


def restored(codes: npt.NDArray[np.int8], scales: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The float32 weights the codes stand for."""
    return np.ascontiguousarray(codes.astype(np.float32) * scales, dtype=np.float32)


def compact_model(model: Any) -> Any:
    """A copy of ``model`` for inference only, with ``syn1neg`` rounded as it will be stored."""
    return build_model(_settings(model), restored(*quantised(model.syn1neg)))


def save_compact(model: Any, folder: Path) -> None:
    """Write what inference needs from ``model`` into ``folder`` (``syn1neg`` as int8)."""
    codes, scales = quantised(model.syn1neg)
    settings = _settings(model)
    (Path(folder) / SETTINGS_FILE).write_text(json.dumps(settings, ensure_ascii=False), encoding="utf-8")
    with (Path(folder) / WEIGHTS_FILE).open("wb") as handle:
        np.savez(handle, codes=codes, scales=scales)


def load_compact(folder: Path) -> Any:
    """The inference model saved by ``save_compact`` in ``folder``."""
    try:
        settings = json.loads((Path(folder) / SETTINGS_FILE).read_text(encoding="utf-8"))
        with np.load(Path(folder) / WEIGHTS_FILE) as arrays:
            weights = restored(arrays["codes"], arrays["scales"])
    except (OSError, ValueError, KeyError) as exc:
        raise ResourceError(
            f"cannot load the compact Doc2Vec model from {str(folder)!r}: {type(exc).__name__}"
        ) from None
    if weights.shape != (len(settings["words"]), settings["vector_size"]):
        raise ResourceError(f"compact Doc2Vec model in {str(folder)!r}: weights do not match the vocabulary")
    return build_model(settings, weights)


def _settings(model: Any) -> dict[str, Any]:
    words = list(model.wv.index_to_key)
    return {
        **{name: getattr(model, name) for name in _SETTINGS},
        "words": words,
        "counts": [int(c) for c in model.wv.expandos["count"]],
        "sample_int": [int(s) for s in model.wv.expandos["sample_int"]],
    }


def build_model(settings: dict[str, Any], syn1neg: npt.NDArray[np.float32]) -> Any:
    """A gensim PV-DBOW ``Doc2Vec`` with the vocabulary, sampling tables and output weights given."""
    from gensim.models.doc2vec import Doc2Vec

    dim = int(settings["vector_size"])
    model = Doc2Vec(
        vector_size=dim,
        dm=0,
        hs=0,
        negative=settings["negative"],
        sample=settings["sample"],
        ns_exponent=settings["ns_exponent"],
        window=settings["window"],
        min_count=1,
        workers=1,
        seed=settings["seed"],
    )
    words = list(settings["words"])
    model.wv.index_to_key = words
    model.wv.key_to_index = {word: i for i, word in enumerate(words)}
    model.wv.vectors = np.zeros((len(words), dim), dtype=np.float32)  # unused by PV-DBOW inference
    model.wv.vectors_lockf = np.ones(1, dtype=np.float32)
    model.wv.allocate_vecattrs(attrs=["count", "sample_int"], types=[np.int64, np.uint32])
    model.wv.expandos["count"][:] = settings["counts"]
    model.wv.expandos["sample_int"][:] = settings["sample_int"]
    model.make_cum_table()
    model.syn1neg = syn1neg
    model.alpha, model.min_alpha = settings["alpha"], settings["min_alpha"]
    return model
