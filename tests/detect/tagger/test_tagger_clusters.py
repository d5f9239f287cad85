"""Word clusters and context-word classes of the tagger: deterministic ids, save/load, features, decoding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tagger_corpus import tiny_corpus, tiny_lexicons

from anonymed.detect.tagger.clusters import WordClusters
from anonymed.detect.tagger.detector import TaggerDetector, TaggerParams
from anonymed.detect.tagger.features import FeatureLexicons, Featurizer
from anonymed.detect.tagger.model import TaggerModel, TrainingParams, train_model
from anonymed.detect.tagger.triggers import context_features, trigger_classes
from anonymed.detect.tokens import alnum_tokens
from anonymed.errors import ResourceError
from anonymed.train.word_clusters import build_clusters, spherical_kmeans

SIZES = (4, 16)


@pytest.fixture(scope="module")
def clusters() -> WordClusters:
    return build_clusters(SIZES)


def test_every_word_gets_one_id_per_size_even_unseen_ones(clusters: WordClusters) -> None:
    for word in ("hospital", "Hospital", "Zbigniewska", "x"):
        ids = clusters.ids(word)
        assert len(ids) == len(SIZES) and all(0 <= i < k for i, k in zip(ids, SIZES, strict=True))
    assert clusters.ids("Hospital") == clusters.ids("hospital")  # the space is lower-cased
    assert clusters.features("lasix") == [
        f"cl{k}={i}" for k, i in zip(SIZES, clusters.ids("lasix"), strict=True)
    ]


def test_building_twice_gives_the_same_centroids(clusters: WordClusters) -> None:
    assert (build_clusters(SIZES).centroids == clusters.centroids).all()


def test_kmeans_separates_two_obvious_groups() -> None:
    import numpy as np

    points = np.asarray([[1, 0], [0.99, 0.14], [0, 1], [0.14, 0.99]], dtype=np.float32)
    points /= np.linalg.norm(points, axis=1, keepdims=True)
    centroids = spherical_kmeans(points, 2)
    assign = np.argmax(points @ centroids.T, axis=1)
    assert assign[0] == assign[1] != assign[2] == assign[3]


def test_a_model_with_clusters_and_triggers_reloads_with_the_same_probabilities(
    tmp_path: Path, clusters: WordClusters
) -> None:
    params = TrainingParams(max_iterations=20)
    model = train_model(
        tiny_corpus(), tiny_lexicons(), tmp_path, params=params, hints=(), clusters=clusters, triggers=True
    )
    assert (tmp_path / "clusters.npy").exists() and model.meta["clusters"]["sizes"] == list(SIZES)
    again = TaggerModel.load(tmp_path)
    doc = tiny_corpus()[0]
    assert again.marginals(doc)[1] == model.marginals(doc)[1]
    assert TaggerDetector(TaggerParams(model=str(tmp_path))).detect(doc)


def test_a_model_built_on_another_space_version_is_refused(tmp_path: Path, clusters: WordClusters) -> None:
    train_model(tiny_corpus()[:4], tiny_lexicons(), tmp_path, hints=(), clusters=clusters)
    meta = json.loads((tmp_path / "meta.json").read_text())
    meta["clusters"]["fingerprint"] = "0" * 64
    (tmp_path / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(ResourceError, match="another version"):
        TaggerModel.load(tmp_path)


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("Wife", ("kin",)),  # case does not matter
        ("Dr", ("title",)),  # a clinician's title
        ("called", ("speech",)),  # communication verb
        ("Hospital", ("place",)),  # head word of an institution
        ("lasix", ()),  # an ordinary word has no class
    ],
)
def test_trigger_classes_of_words(word: str, expected: tuple[str, ...]) -> None:
    assert trigger_classes(word) == expected


def test_trigger_features_reach_three_tokens_each_way() -> None:
    classes = [("kin",), (), (), (), (), (), ("place",)]
    assert context_features(classes, 3, "case=title") == [
        "trig<kin",
        "trig<kin|case=title",
        "trig>place",
        "trig>place|case=title",
    ]
    assert context_features(classes, 4, "case=lower") == ["trig>place", "trig>place|case=lower"]
    assert context_features(classes, 0, "case=lower") == []  # its own class is not context


def test_featurizer_adds_cluster_and_trigger_features_only_when_asked(clusters: WordClusters) -> None:
    lexicons = FeatureLexicons({})
    tokens = alnum_tokens("spoke with wife jane")
    plain = Featurizer(lexicons).featurize(tokens)[3]
    rich = Featurizer(lexicons, clusters, triggers=True).featurize(tokens)[3]
    assert not any(f.startswith(("cl", "trig")) for f in plain)
    assert "trig<kin|case=lower" in rich and "trig<speech" in rich
    assert any(f.startswith("cl4=") for f in rich) and any(f.startswith("-1:cl16=") for f in rich)
