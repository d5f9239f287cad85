"""Spaces on disk: documented files, memory-mapped reload, integrity check, in-memory widening."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from anonymed.embeddings import Space, load_space
from anonymed.errors import ResourceError
from anonymed.words import WordObfuscator

TEXT = "Mr Qwertyson, 54, denies CHEST pain.\nSeen today in clinic: BP normal; hypertensoin."


def test_saved_space_has_the_documented_files(fasttext_space: Space, tmp_path: Path) -> None:
    folder = fasttext_space.save(tmp_path / "space")
    names = {p.name for p in folder.iterdir()}
    assert names == {
        "meta.json",
        "vocab.json",
        "candidates.npy",
        "vectors.npy",
        "neighbours.npy",
        "subword_ngrams.npy",
        "subword_vectors.npy",
    }
    meta = json.loads((folder / "meta.json").read_text())
    assert meta["format"] == "anonymed-space" and meta["hygiene"] == {
        "min_count": 5,
        "min_docs": 3,
        "by": "document",
    }
    assert set(meta["files"]) == names - {"meta.json"}


def test_reload_memory_maps_the_table_and_gives_the_same_output(
    fasttext_space: Space, tmp_path: Path
) -> None:
    loaded = load_space(fasttext_space.save(tmp_path / "space"))
    assert isinstance(loaded.neighbours, np.memmap)
    assert np.array_equal(loaded.neighbours, fasttext_space.neighbours)
    assert loaded.tokens == fasttext_space.tokens
    before = WordObfuscator(fasttext_space, n=3, random_state=7).transform([TEXT])
    after = WordObfuscator(loaded, n=3, random_state=7).transform([TEXT])
    assert before == after


def test_word2vec_space_reloads_without_subwords(word2vec_space: Space, tmp_path: Path) -> None:
    loaded = load_space(word2vec_space.save(tmp_path / "w2v"))
    assert loaded.subwords is None
    assert not (tmp_path / "w2v" / "subword_ngrams.npy").exists()


def test_a_tampered_file_is_refused(fasttext_space: Space, tmp_path: Path) -> None:
    folder = fasttext_space.save(tmp_path / "space")
    table = np.load(folder / "neighbours.npy")
    np.save(folder / "neighbours.npy", table[:, ::-1].copy())
    with pytest.raises(ResourceError, match="SHA-256"):
        load_space(folder)


def test_a_missing_space_is_a_resource_error(tmp_path: Path) -> None:
    with pytest.raises(ResourceError):
        load_space(tmp_path / "nowhere")


def test_saving_over_an_existing_space_replaces_it(
    fasttext_space: Space, word2vec_space: Space, tmp_path: Path
) -> None:
    fasttext_space.save(tmp_path / "space")
    word2vec_space.save(tmp_path / "space")
    assert load_space(tmp_path / "space").subwords is None
    assert [p.name for p in tmp_path.iterdir()] == ["space"]  # no temporary folder left behind


def test_retable_widens_the_table_in_memory(fasttext_space: Space) -> None:
    wider = fasttext_space.retable(n_max=9)
    assert wider.neighbours.shape[1] == 9
    assert np.array_equal(wider.neighbours[:, :6], fasttext_space.neighbours)
