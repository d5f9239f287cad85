"""Loading the model under audit: gensim files, word2vec formats, anonymed space folders; clear errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from anonymed.audit.embedding import Embedding, load_embedding
from anonymed.errors import ConfigError, ResourceError

WORDS = ["alpha", "beta", "gamma"]


def _keyed_vectors():  # type: ignore[no-untyped-def]
    from gensim.models import KeyedVectors

    wv = KeyedVectors(vector_size=4)
    wv.add_vectors(WORDS, np.arange(12, dtype=np.float32).reshape(3, 4))
    return wv


@pytest.mark.parametrize(
    "filename",
    [
        "model.kv",  # gensim KeyedVectors.save
        "model.txt",  # word2vec text format
        "model.bin",  # word2vec binary format
    ],
)
def test_gensim_files_load_with_their_words_and_vectors(tmp_path: Path, filename: str) -> None:
    wv = _keyed_vectors()
    path = tmp_path / filename
    if filename.endswith(".kv"):
        wv.save(str(path))
    else:
        wv.save_word2vec_format(str(path), binary=filename.endswith(".bin"))
    embedding = load_embedding(path)
    assert list(embedding.words) == WORDS
    np.testing.assert_allclose(embedding.vectors[1], [4, 5, 6, 7])


def test_a_full_word2vec_model_loads_through_its_vectors(tmp_path: Path) -> None:
    from gensim.models import Word2Vec

    model = Word2Vec([["alpha", "beta", "gamma"]] * 5, vector_size=4, min_count=1, workers=1, seed=1)
    model.save(str(tmp_path / "w2v.model"))
    assert set(load_embedding(tmp_path / "w2v.model").words) == set(WORDS)


def test_an_anonymed_space_folder_loads(tmp_path: Path) -> None:
    from anonymed.embeddings.spaces import DEFAULT_SPACE

    embedding = load_embedding(DEFAULT_SPACE)
    assert len(embedding.words) > 10_000 and embedding.vectors.shape[0] == len(embedding.words)


@pytest.mark.parametrize(
    "make",
    [
        lambda tmp: tmp / "missing.kv",  # no such file
        lambda tmp: (tmp / "folder").mkdir() or tmp / "folder",  # a folder that is not a space
        lambda tmp: (tmp / "junk.kv").write_bytes(b"not a model") and tmp / "junk.kv",  # unreadable file
    ],
)
def test_unloadable_models_raise_a_resource_error_naming_the_path(tmp_path: Path, make) -> None:  # type: ignore[no-untyped-def]
    path = make(tmp_path)
    with pytest.raises(ResourceError, match=str(path.name)):
        load_embedding(path)


def test_vectors_must_match_the_words() -> None:
    with pytest.raises(ConfigError):
        Embedding(("a", "b"), np.zeros((3, 2)))


def test_mean_vector_ignores_unknown_tokens() -> None:
    embedding = Embedding(("a", "b"), np.asarray([[0.0, 2.0], [2.0, 0.0]]))
    np.testing.assert_allclose(embedding.mean_vector(["a", "zzz", "b"]), [1.0, 1.0])
    assert embedding.mean_vector(["zzz"]) is None
