"""Extrinsic utility: does a classifier trained and tested on anonymized notes still work?

As in Figure 2 of Abdalla et al.: the same task (MTSamples medical specialty) is learnt and scored on the
original notes and on each anonymized version, and the change of macro-F1 is reported. Features are TF-IDF
(words of two letters or more); models are logistic regression and a linear SVM (scikit-learn). Scores are
the mean over stratified K folds; the folds are the same for every version (aligned notes), so the changes
are paired. ``change`` is the absolute difference of macro-F1 in points (``100 * (F1_anon - F1_orig)``) and
``relative`` the change as a percentage of the original F1.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from anonymed.errors import ConfigError
from anonymed.evaluate.classifier import ClassifierParams, vectorizer

MODELS = ("logreg", "linear_svm")
Tick = Callable[[int], None]


@dataclass(frozen=True)
class ExtrinsicParams:
    """Folds, models and their regularisation; the TF-IDF settings of the retention classifier."""

    folds: int = 5
    models: tuple[str, ...] = MODELS
    seed: int = 0
    c_logreg: float = 10.0
    c_svm: float = 1.0
    max_features: int = 20_000
    min_df: int = 2

    def __post_init__(self) -> None:
        if self.folds < 2:
            raise ConfigError(f"folds must be >= 2, got {self.folds!r}")
        unknown = set(self.models) - set(MODELS)
        if unknown or not self.models:
            raise ConfigError(f"unknown models {sorted(unknown)}; known: {list(MODELS)}")


def _model(name: str, params: ExtrinsicParams) -> Any:
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.svm import LinearSVC

    features = vectorizer(ClassifierParams(max_features=params.max_features, min_df=params.min_df))
    if name == "logreg":
        return make_pipeline(features, LogisticRegression(C=params.c_logreg, max_iter=2000))
    return make_pipeline(features, LinearSVC(C=params.c_svm))


def folds_of(labels: Sequence[str], params: ExtrinsicParams) -> list[tuple[np.ndarray, np.ndarray]]:
    """Stratified (train, test) index pairs, fixed by ``params.seed``."""
    from sklearn.model_selection import StratifiedKFold

    smallest = min(np.unique(np.asarray(labels), return_counts=True)[1], default=0)
    if smallest < params.folds:
        raise ConfigError(f"a class has {smallest} notes: fewer than folds={params.folds}")
    splitter = StratifiedKFold(n_splits=params.folds, shuffle=True, random_state=params.seed)
    return list(splitter.split(np.zeros(len(labels)), labels))


def cross_validated_f1(
    texts: Sequence[str],
    labels: Sequence[str],
    params: ExtrinsicParams | None = None,
    folds: list[tuple[np.ndarray, np.ndarray]] | None = None,
    tick: Tick | None = None,
) -> dict[str, list[float]]:
    """Macro-F1 of each model on each fold."""
    from sklearn.metrics import f1_score

    params = params or ExtrinsicParams()
    if len(texts) != len(labels):
        raise ConfigError(f"{len(texts)} texts but {len(labels)} labels")
    folds = folds if folds is not None else folds_of(labels, params)
    x, y = np.asarray(texts, dtype=object), np.asarray(labels, dtype=object)
    scores: dict[str, list[float]] = {name: [] for name in params.models}
    for train, test in folds:
        for name in params.models:
            model = _model(name, params).fit(list(x[train]), list(y[train]))
            predicted = model.predict(list(x[test]))
            scores[name].append(
                float(f1_score(list(y[test]), list(predicted), average="macro", zero_division=0))
            )
            if tick is not None:
                tick(1)
    return scores


@dataclass(frozen=True)
class ModelScore:
    """Mean macro-F1 over folds; its change from the original in points and in percent."""

    f1: float
    folds: tuple[float, ...]
    change: float | None = None
    relative: float | None = None

    def to_json(self) -> dict[str, Any]:
        """Rounded values."""
        data = {"f1": round(self.f1, 4), "folds": [round(v, 4) for v in self.folds]}
        if self.change is not None and self.relative is not None:
            data.update(change=round(self.change, 2), relative=round(self.relative, 2))
        return data


@dataclass(frozen=True)
class ExtrinsicReport:
    """Scores of the original and of every anonymized version, per model."""

    original: dict[str, ModelScore]
    methods: dict[str, dict[str, ModelScore]]
    notes: int
    classes: int
    params: ExtrinsicParams

    def to_json(self) -> dict[str, Any]:
        """The report as JSON."""
        return {
            "original": {m: s.to_json() for m, s in self.original.items()},
            "methods": {k: {m: s.to_json() for m, s in v.items()} for k, v in self.methods.items()},
            "notes": self.notes,
            "classes": self.classes,
            "params": {**asdict(self.params), "models": list(self.params.models)},
        }


def compare(
    original: Mapping[str, list[float]], anonymized: Mapping[str, list[float]]
) -> dict[str, ModelScore]:
    """Per model: the anonymized mean F1 and its change from the original mean F1."""
    result = {}
    for name, values in anonymized.items():
        base, mean = float(np.mean(original[name])), float(np.mean(values))
        change = 100.0 * (mean - base)
        relative = 100.0 * (mean - base) / base if base > 0 else 0.0
        result[name] = ModelScore(mean, tuple(values), change, relative)
    return result


def evaluate_extrinsic(
    original: Sequence[str],
    labels: Sequence[str],
    anonymized: Mapping[str, Sequence[str]],
    params: ExtrinsicParams | None = None,
    tick: Tick | None = None,
) -> ExtrinsicReport:
    """Cross-validated macro-F1 on the original texts and on each aligned anonymized version."""
    params = params or ExtrinsicParams()
    folds = folds_of(labels, params)
    base = cross_validated_f1(original, labels, params, folds, tick)
    methods = {
        name: compare(base, cross_validated_f1(texts, labels, params, folds, tick))
        for name, texts in anonymized.items()
    }
    return ExtrinsicReport(
        original={name: ModelScore(float(np.mean(v)), tuple(v)) for name, v in base.items()},
        methods=methods,
        notes=len(labels),
        classes=len(set(labels)),
        params=params,
    )
