"""Extrinsic utility: macro-F1 on original vs anonymized texts over the same folds, and its change."""

from __future__ import annotations

import pytest

from anonymed.errors import ConfigError
from anonymed.evaluate.extrinsic import (
    ExtrinsicParams,
    compare,
    cross_validated_f1,
    evaluate_extrinsic,
    folds_of,
)

CARDIO = [f"heart chest pain murmur visit {i}" for i in range(6)]
ORTHO = [f"bone fracture femur cast visit {i}" for i in range(6)]
TEXTS = CARDIO + ORTHO
LABELS = ["cardio"] * 6 + ["ortho"] * 6
PARAMS = ExtrinsicParams(folds=3, min_df=1)


def test_change_is_in_points_and_relative_in_percent() -> None:
    scores = compare({"logreg": [0.8, 0.9]}, {"logreg": [0.7, 0.8]})["logreg"]
    assert scores.f1 == pytest.approx(0.75)
    assert scores.change == pytest.approx(-10.0)  # 75 - 85 points
    assert scores.relative == pytest.approx(-10 / 0.85)  # percent of the original F1
    assert scores.to_json()["change"] == -10.0


def test_separable_task_is_learnt_by_both_models() -> None:
    scores = cross_validated_f1(TEXTS, LABELS, PARAMS)
    assert set(scores) == {"logreg", "linear_svm"}
    assert all(len(v) == 3 and min(v) == 1.0 for v in scores.values())


def test_anonymized_texts_are_scored_against_the_original_on_the_same_folds() -> None:
    unchanged = list(TEXTS)
    scrambled = ["visit note"] * 12  # nothing left to learn from
    report = evaluate_extrinsic(TEXTS, LABELS, {"same": unchanged, "scrambled": scrambled}, PARAMS)
    assert report.original["logreg"].f1 == 1.0
    assert report.methods["same"]["logreg"].change == 0.0
    assert report.methods["scrambled"]["linear_svm"].change is not None
    assert report.methods["scrambled"]["linear_svm"].change <= -50.0  # at best chance on a balanced task
    data = report.to_json()
    assert (data["notes"], data["classes"]) == (12, 2)


def test_folds_are_stratified_and_reproducible() -> None:
    first, second = folds_of(LABELS, PARAMS), folds_of(LABELS, PARAMS)
    assert [t.tolist() for _, t in first] == [t.tolist() for _, t in second]
    for _, test in first:
        assert sorted(LABELS[i] for i in test) == ["cardio"] * 2 + ["ortho"] * 2


@pytest.mark.parametrize(
    "kwargs",
    [
        {"folds": 1},  # cross-validation needs two folds
        {"models": ("random_forest",)},  # not offered
        {"models": ()},
    ],
)
def test_bad_parameters_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        ExtrinsicParams(**kwargs)  # type: ignore[arg-type]


def test_class_smaller_than_the_folds_is_refused() -> None:
    with pytest.raises(ConfigError):
        folds_of(["a", "a", "a", "b"], PARAMS)
    with pytest.raises(ConfigError):
        cross_validated_f1(["x"], ["a", "b"], PARAMS)
