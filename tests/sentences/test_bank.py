"""Replacement banks: scrubbing (hygiene), de-duplication, index choice, persistence and reload."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from sentence_corpus import PLANTED, PLANTED_WORDS, TINY_D2V, notes, tiny_bank

from anonymed.document import Document, Span
from anonymed.errors import ConfigError, ResourceError
from anonymed.sentences.bank_build import BankParams, build_bank, collect_sentences
from anonymed.sentences.banks import IndexParams, build_index, key_of, keys_of, load_bank, normalise


def test_no_planted_phi_sentence_enters_the_bank() -> None:
    bank = tiny_bank()
    assert bank.meta["counts"]["dropped_phi"] >= len(PLANTED)
    assert not [s for s in bank.sentences if any(word in s for word in PLANTED_WORDS)]


def test_without_scrubbing_the_planted_sentences_would_be_kept() -> None:
    collected = collect_sentences(notes(), BankParams(scrub=False))
    assert set(PLANTED) <= set(collected.sentences)


def test_sentences_are_unique_after_normalisation() -> None:
    bank = tiny_bank()
    assert len({normalise(s) for s in bank.sentences}) == len(bank)
    assert np.array_equal(bank.keys, keys_of(bank.sentences))


class _FlagsFirstNote:
    """A stand-in detector that finds PHI (its last sentence) in the first note only."""

    def __init__(self) -> None:
        self.calls = 0

    def detect(self, doc: Document) -> Document:
        self.calls += 1
        if self.calls > 1:
            return doc
        start = doc.text.rindex("Seen")
        return doc.with_spans([Span.of(doc.text, start, len(doc.text), "NAME")])


def test_a_text_flagged_in_one_note_is_dropped_everywhere() -> None:
    corpus = ["The patient is stable. Seen by the team.", "Seen by the team.", "Pain is better."]
    collected = collect_sentences(corpus, BankParams(), _FlagsFirstNote())  # type: ignore[arg-type]
    assert collected.sentences == ["The patient is stable.", "Pain is better."]
    assert collected.counts["dropped_phi"] == 1 and collected.counts["dropped_flagged_elsewhere"] == 1


@pytest.mark.parametrize(
    ("sentence", "same_as"),
    [
        ("Pain: none.", "pain none"),  # case and punctuation do not count
        ("Stable  ,\n  today", "STABLE TODAY"),  # nor spaces and line breaks
    ],
)
def test_normalised_keys_ignore_case_punctuation_and_spacing(sentence: str, same_as: str) -> None:
    assert key_of(sentence) == key_of(same_as)


@pytest.mark.parametrize(
    ("size", "params", "expected"),
    [
        (500, IndexParams(), "flat"),  # small banks: exact search
        (500, IndexParams(exact_max=100), "hnsw"),  # above the threshold: a small HNSW graph
        (500, IndexParams(kind="ivf"), "ivf"),  # an inverted file on request
        (500, IndexParams(kind="flat", exact_max=10), "flat"),  # an explicit kind wins
    ],
)
def test_index_kind_follows_bank_size(size: int, params: IndexParams, expected: str) -> None:
    import faiss

    vectors = np.random.default_rng(0).standard_normal((size, 8)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    index = build_index(vectors, params)
    assert params.chosen(size) == expected and index.ntotal == size
    kinds = {"flat": faiss.IndexFlat, "ivf": faiss.IndexIVF, "hnsw": faiss.IndexHNSW}
    assert isinstance(index, kinds[expected])


@pytest.mark.parametrize("kind", ["flat", "ivf", "hnsw"])
def test_every_index_kind_gives_k_valid_neighbours(kind: str) -> None:
    bank = tiny_bank(kind, exact_max=50)
    vectors = bank.encoder.encode(list(bank.sentences[:40]))
    hits = bank.neighbours(vectors, bank.keys[:40], 5)
    assert hits.shape == (40, 5) and (hits >= 0).all()
    assert not np.any(bank.keys[hits] == bank.keys[:40, None])  # a sentence is never its own neighbour
    assert all(len(set(row)) == 5 for row in hits.tolist())


def test_a_saved_bank_reloads_with_the_same_neighbours(tmp_path: Path) -> None:
    bank = tiny_bank()
    bank.save(tmp_path / "bank")
    again = load_bank(tmp_path / "bank")
    queries = ["The knee was examined with mild pain.", "The wound improved without complication."]
    keys = keys_of(queries)
    assert again.sentences == bank.sentences
    assert np.array_equal(
        again.neighbours(again.encoder.encode(queries), keys, 4),
        bank.neighbours(bank.encoder.encode(queries), keys, 4),
    )
    meta = json.loads((tmp_path / "bank" / "meta.json").read_text())
    assert (
        meta["encoder"]["kind"] == "doc2vec" and meta["index"]["kind"] == "flat" and meta["size"] == len(bank)
    )


def test_a_tampered_bank_is_refused(tmp_path: Path) -> None:
    tiny_bank().save(tmp_path / "bank")
    (tmp_path / "bank" / "sentences.json").write_text('["Mr. John Smith was here."]', encoding="utf-8")
    with pytest.raises(ResourceError, match="SHA-256"):
        load_bank(tmp_path / "bank")


def test_a_missing_bank_is_a_resource_error(tmp_path: Path) -> None:
    with pytest.raises(ResourceError, match="cannot load bank"):
        load_bank(tmp_path / "nowhere")


def test_k_must_leave_room_in_the_bank() -> None:
    bank = build_bank(["Alpha beta. Gamma delta. Epsilon zeta."], BankParams(doc2vec=TINY_D2V, scrub=False))
    with pytest.raises(ConfigError, match="k=3"):
        bank.neighbours(bank.encoder.encode(["Alpha"]), keys_of(["Alpha"]), 3)


@pytest.mark.slow
def test_doc2vec_inference_is_the_same_in_another_process(tmp_path: Path) -> None:
    import subprocess
    import sys

    tiny_bank().save(tmp_path / "bank")
    query = "The knee was draped under general anesthesia."
    here = load_bank(tmp_path / "bank").encoder.encode([query])[0]
    code = (
        "import sys, numpy as np; from anonymed.sentences.banks import load_bank; "
        f"np.save(sys.argv[1], load_bank(sys.argv[2]).encoder.encode([{query!r}])[0])"
    )
    subprocess.run([sys.executable, "-c", code, str(tmp_path / "v.npy"), str(tmp_path / "bank")], check=True)
    assert np.array_equal(np.load(tmp_path / "v.npy"), here)
