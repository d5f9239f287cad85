"""Sentence encoders: Doc2Vec (trained here) and sentence-transformers models loaded offline from a folder."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from sentence_corpus import tiny_bank

from anonymed.errors import ConfigError, ResourceError
from anonymed.sentences.bank_build import BankParams, build_bank
from anonymed.sentences.banks import load_bank
from anonymed.sentences.encoders import Doc2VecParams, minilm_folder, model_folder, paper_tokens


@pytest.mark.parametrize(
    ("sentence", "tokens"),
    [
        (
            "Tylenol 500 mg p.o. q.d.",
            ["tylenol", "500", "mg", "p", "o", "q", "d"],
        ),  # the paper's preprocessing
        ("HISTORY_OF: Pain!", ["history", "of", "pain"]),  # underscores split words too
    ],
)
def test_doc2vec_sees_lower_case_letters_and_digits_only(sentence: str, tokens: list[str]) -> None:
    assert paper_tokens(sentence) == tokens


def test_doc2vec_defaults_are_the_papers() -> None:
    params = Doc2VecParams()
    assert (params.vector_size, params.dm, params.window, params.min_count, params.epochs) == (
        256,
        0,
        15,
        1,
        100,
    )


def test_only_pv_dbow_is_supported() -> None:
    with pytest.raises(ConfigError, match="dm=0"):
        Doc2VecParams(dm=1)


def test_doc2vec_vectors_are_unit_norm_and_repeatable() -> None:
    encoder = tiny_bank().encoder
    first = encoder.encode(["The knee improved.", "The wound was draped."])
    assert np.allclose(np.linalg.norm(first, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(first, encoder.encode(["The knee improved.", "The wound was draped."]))


def test_a_folder_that_is_not_a_model_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ResourceError, match="not a local sentence-transformers model"):
        model_folder(tmp_path)


@pytest.mark.slow
def test_minilm_loads_offline_from_its_package_and_makes_a_bank(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert (minilm_folder() / "model.safetensors").exists()
    notes = [
        "The patient has chest pain. The knee is swollen. Blood pressure is normal.",
        "She reports shortness of breath. The wound is healing well. He was discharged home.",
    ]
    bank = build_bank(notes, BankParams(encoder="minilm", scrub=False))
    assert bank.encoder.dim == 384 and bank.encoder.spec()["model"] == "minilm"
    vectors = bank.encoder.encode(["Chest pain in the patient.", "The knee is swollen."])
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    nearest = bank.neighbours(vectors, np.zeros(2, dtype=np.uint64), 1)[:, 0]
    assert [bank.sentences[i] for i in nearest] == ["The patient has chest pain.", "The knee is swollen."]
    bank.save(tmp_path / "minilm")
    again = load_bank(tmp_path / "minilm", encoder=bank.encoder)  # loading the model twice costs seconds
    assert again.meta["encoder"] == {"kind": "sentence-transformers", "model": "minilm", "dim": 384}
