"""The MTSamples task and the specialty classifier: same probabilities as scikit-learn, saved safely."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from anonymed.document import Document
from anonymed.errors import ConfigError, ResourceError
from anonymed.evaluate.classifier import (
    ClassifierParams,
    load_classifier,
    train_classifier,
    vectorizer,
)
from anonymed.evaluate.mtsamples import TaskParams, build_task, labelled, split_of

CARDIO = ["heart failure with chest pain", "chest pain and palpitations", "atrial fibrillation of the heart"]
ORTHO = ["fracture of the left femur", "knee pain after a fall fracture", "shoulder dislocation and fracture"]
EYE = ["cataract of the left eye", "glaucoma with eye pain", "retina detachment in the eye"]
TEXTS = CARDIO + ORTHO + EYE
LABELS = ["cardio"] * 3 + ["ortho"] * 3 + ["eye"] * 3
SMALL = ClassifierParams(min_df=1, c=5.0)


def test_probabilities_match_scikit_learn() -> None:
    from sklearn.linear_model import LogisticRegression

    model = train_classifier(TEXTS, LABELS, SMALL)
    features = vectorizer(SMALL).fit(TEXTS)
    reference = LogisticRegression(C=5.0, max_iter=2000).fit(features.transform(TEXTS), LABELS)
    probe = ["pain in the heart", "eye fracture", ""]
    expected = reference.predict_proba(features.transform(probe))
    assert model.predict_proba(probe) == pytest.approx(expected, abs=1e-6)
    assert model.predict(["chest pain of the heart"]) == ["cardio"]


def test_binary_models_get_a_two_column_softmax() -> None:
    model = train_classifier(CARDIO + ORTHO, LABELS[:6], SMALL)
    proba = model.predict_proba(["heart", "fracture"])
    assert proba.shape == (2, 2)
    assert proba.sum(axis=1) == pytest.approx([1.0, 1.0])
    assert model.predict(["heart", "fracture"]) == ["cardio", "ortho"]


def test_saved_classifier_loads_back_and_is_checked(tmp_path: Path) -> None:
    model = train_classifier(TEXTS, LABELS, SMALL)
    folder = model.save(tmp_path / "clf")
    loaded = load_classifier(folder)
    assert loaded.classes == model.classes
    assert loaded.predict_proba(["eye pain"]) == pytest.approx(model.predict_proba(["eye pain"]), abs=1e-5)
    (folder / "model.npz").write_bytes(b"tampered")
    with pytest.raises(ResourceError):
        load_classifier(folder)


def test_shipped_classifier_loads_with_its_held_out_score() -> None:
    model = load_classifier()
    assert len(model.classes) >= 10
    assert (model.meta or {})["test_macro_f1"] > 0.7
    proba = model.predict_proba(["Cataract extraction of the right eye with lens implant."])
    assert model.classes[int(np.argmax(proba))] == "Ophthalmology"


def test_one_class_cannot_be_trained() -> None:
    with pytest.raises(ConfigError):
        train_classifier(CARDIO, ["cardio"] * 3, SMALL)


def record(doc_id: str, text: str, specialty: str) -> Document:
    """An MTSamples-like CSV record."""
    return Document(doc_id, text, {"record": {"medical_specialty": specialty}})


def test_task_keeps_one_specialty_per_distinct_text() -> None:
    docs = [
        record("1", "Knee arthroscopy.", "Surgery"),  # note type: dropped from the labels
        record("2", "Knee arthroscopy.", "Orthopedic"),  # same text: one note, labelled Orthopedic
        record("3", "Mixed note.", "Neurology"),
        record("4", "Mixed note.", "Orthopedic"),  # two specialties: no label
        record("5", "Op note.", "Surgery"),  # only a note type: no label
        record("6", "   ", "Neurology"),  # empty: left out
    ]
    notes = build_task(docs, TaskParams(min_class_size=1))
    labels = {n.text: n.metadata["label"] for n in notes}
    assert labels == {"Knee arthroscopy.": "Orthopedic", "Mixed note.": None, "Op note.": None}
    assert [n.id for n in notes] == ["1", "3", "5"]


def test_small_classes_are_dropped_and_limit_comes_first() -> None:
    docs = [record(str(i), f"note {i}", "Urology" if i < 3 else "Neurology") for i in range(6)]
    notes = build_task(docs, TaskParams(min_class_size=3))
    assert {n.metadata["label"] for n in notes} == {"Urology", "Neurology"}
    limited = build_task(docs, TaskParams(min_class_size=3, limit=4))  # 3 Urology + 1 Neurology
    assert [n.metadata["label"] for n in labelled(limited)] == ["Urology"] * 3


def test_split_depends_on_the_text_only() -> None:
    assert split_of("same text", 0.2) == split_of("same text", 0.2)
    shares = [split_of(f"note {i}", 0.2) == "test" for i in range(2000)]
    assert 0.15 < sum(shares) / len(shares) < 0.25
    with pytest.raises(ConfigError):
        TaskParams(test_share=1.0)
