"""Packed banks: int8 Doc2Vec for inference, product-quantised index, xz sentences; the shipped bank."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from sentence_corpus import PLANTED_WORDS, tiny_bank

from anonymed.document import Document
from anonymed.errors import ConfigError, ResourceError
from anonymed.sentences.bank_build import DEFAULT_BANK, default_bank, pack_bank
from anonymed.sentences.banks import Bank, IndexParams, keys_of, load_bank, normalise
from anonymed.sentences.doc2vec_compact import build_model, quantised, restored
from anonymed.sentences.encoders import Doc2VecEncoder
from anonymed.sentences.obfuscator import SentenceObfuscator

#: the tiny bank has 24 dimensions and a few hundred sentences: 8 sub-quantisers of 16 centroids
TINY_PQ = IndexParams(kind="ivfpq", pq_m=8, pq_bits=4, nprobe=4)
QUERIES = ["The knee was examined with mild pain.", "The wound improved without complication."]
#: the package-size budget of a shipped resource (the word space is 20.5 MB)
BUDGET_BYTES = 20_500_000


@lru_cache(maxsize=1)
def packed() -> Bank:
    return pack_bank(tiny_bank(), TINY_PQ)


def test_int8_weights_are_within_half_a_step_of_the_originals() -> None:
    weights = np.random.default_rng(0).standard_normal((50, 16)).astype(np.float32)
    weights[3] = 0.0
    codes, scales = quantised(weights)
    assert codes.dtype == np.int8 and scales.shape == (50, 1)
    assert np.all(np.abs(restored(codes, scales) - weights) <= scales / 2 + 1e-7)
    assert not restored(codes, scales)[3].any()  # a zero row stays zero


def test_the_model_rebuilt_from_float32_weights_infers_exactly_as_the_trained_one() -> None:
    encoder = tiny_bank().encoder
    assert isinstance(encoder, Doc2VecEncoder)
    compact = encoder.compact()
    settings_model = build_model(
        {
            **{k: getattr(encoder.model, k) for k in ("vector_size", "negative", "sample", "ns_exponent")},
            **{k: getattr(encoder.model, k) for k in ("window", "alpha", "min_alpha", "seed")},
            "words": list(encoder.model.wv.index_to_key),
            "counts": encoder.model.wv.expandos["count"].tolist(),
            "sample_int": encoder.model.wv.expandos["sample_int"].tolist(),
        },
        np.array(encoder.model.syn1neg, dtype=np.float32),
    )
    rebuilt = Doc2VecEncoder(settings_model, encoder.params)
    assert np.array_equal(rebuilt.encode(QUERIES), encoder.encode(QUERIES))
    cosines = (compact.encode(QUERIES) * encoder.encode(QUERIES)).sum(axis=1)
    assert compact.storage == "int8" and np.all(cosines > 0.999)
    with pytest.raises(ResourceError, match="no trained sentence vectors"):
        compact.trained_vectors()


def test_a_packed_bank_keeps_the_sentences_and_their_order() -> None:
    bank, small = tiny_bank(), packed()
    assert small.sentences == bank.sentences and np.array_equal(small.keys, bank.keys)
    assert small.kind == "ivfpq" and small.packed and small.meta["counts"] == bank.meta["counts"]
    assert not [s for s in small.sentences if any(word in s for word in PLANTED_WORDS)]


def test_a_packed_bank_gives_k_valid_neighbours() -> None:
    bank = packed()
    hits = bank.neighbours(bank.encoder.encode(list(bank.sentences[:40])), bank.keys[:40], 5)
    assert hits.shape == (40, 5) and (hits >= 0).all()
    assert not np.any(bank.keys[hits] == bank.keys[:40, None])
    assert all(len(set(row)) == 5 for row in hits.tolist())


def test_a_saved_packed_bank_is_smaller_and_reloads_with_the_same_neighbours(tmp_path: Path) -> None:
    tiny_bank().save(tmp_path / "full")
    packed().save(tmp_path / "packed")
    names = {p.name for p in (tmp_path / "packed").iterdir()}
    assert {"sentences.json.xz", "doc2vec-inference.json", "doc2vec-syn1neg.npz", "index.faiss"} <= names
    assert not [n for n in names if n.startswith("doc2vec.model") or n == "sentences.json"]

    def size(folder: Path) -> int:
        return sum(p.stat().st_size for p in folder.iterdir())

    assert size(tmp_path / "packed") < size(tmp_path / "full")
    again = load_bank(tmp_path / "packed")
    keys = keys_of(QUERIES)
    assert again.packed and again.sentences == packed().sentences
    assert np.array_equal(
        again.neighbours(again.encoder.encode(QUERIES), keys, 4),
        packed().neighbours(packed().encoder.encode(QUERIES), keys, 4),
    )


def test_a_tampered_packed_bank_is_refused(tmp_path: Path) -> None:
    packed().save(tmp_path / "bank")
    (tmp_path / "bank" / "sentences.json.xz").write_bytes(b"not xz")
    with pytest.raises(ResourceError, match="SHA-256"):
        load_bank(tmp_path / "bank")


def test_product_quantisation_must_fit_the_vectors() -> None:
    with pytest.raises(ConfigError, match="pq_m=7"):
        pack_bank(tiny_bank(), IndexParams(kind="ivfpq", pq_m=7, pq_bits=4))
    with pytest.raises(ConfigError, match="pq_bits=9"):
        IndexParams(kind="ivfpq", pq_bits=9)


def test_the_default_bank_ships_within_the_package_budget() -> None:
    meta = json.loads((DEFAULT_BANK / "meta.json").read_text(encoding="utf-8"))
    assert sum(p.stat().st_size for p in DEFAULT_BANK.iterdir()) < BUDGET_BYTES
    assert meta["scrub"] == {
        "enabled": True,
        "detectors": ["tagger", "patterns", "lexicons"],
        "high_recall": True,
        "lang": "en",
    }
    assert meta["encoder"]["storage"] == "int8" and meta["index"]["kind"] == "ivfpq"
    assert meta["counts"]["kept"] == meta["size"] > 50_000 and meta["counts"]["dropped_phi"] > 1_000


def test_the_default_bank_replaces_every_sentence_with_another_bank_sentence() -> None:
    bank = default_bank()
    note = "Patient seen for chest pain. She denies fever or chills. Plan: follow up in two weeks."
    out = SentenceObfuscator(None, k=5, random_state=3)(Document("n1", note))
    written = out.result
    pieces = [bank.sentences[i] for i in range(len(bank)) if bank.sentences[i] in written]
    assert written != note and len(pieces) >= 3
    assert not {normalise(p) for p in pieces} & {
        normalise(s) for s in ("Patient seen for chest pain.", "She denies fever or chills.")
    }
    assert out.privacy["sentences"]["sentences"] == 3 and out.privacy["sentences"]["bank"]
