"""anonymed's clinical classifier: TF-IDF + multinomial logistic regression over MTSamples specialties.

It stands in for the BioBERT ICD-10 model of Pissarra et al. in the information-retention metrics (JSC,
NSDCG), which need class probabilities for an original note and its anonymized version. Training uses
scikit-learn; the model is stored as plain arrays (vocabulary, idf, weights) and applied with numpy and
scipy, so predictions do not depend on pickles or on the installed scikit-learn version.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from anonymed.errors import ConfigError, OutputError, ResourceError
from anonymed.evaluate.mtsamples import TaskParams, labelled, load_task
from anonymed.evaluate.scores import rounded

DEFAULT_CLASSIFIER = Path(__file__).resolve().parents[1] / "resources" / "classifier"
#: words of two letters or more (numbers and punctuation are not features)
TOKEN_PATTERN = r"(?u)\b[^\W\d_][^\W\d_]+\b"
_TOKEN_RE = re.compile(TOKEN_PATTERN)
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class ClassifierParams:
    """TF-IDF and logistic-regression settings."""

    max_features: int = 10_000
    min_df: int = 2
    sublinear_tf: bool = True
    c: float = 10.0
    max_iter: int = 2000

    def __post_init__(self) -> None:
        if self.max_features < 1 or self.min_df < 1 or not self.c > 0:
            raise ConfigError(f"invalid classifier parameters {asdict(self)}")


def vectorizer(params: ClassifierParams) -> Any:
    """The scikit-learn TF-IDF vectorizer these parameters describe."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    return TfidfVectorizer(
        lowercase=True,
        token_pattern=TOKEN_PATTERN,
        max_features=params.max_features,
        min_df=params.min_df,
        sublinear_tf=params.sublinear_tf,
        dtype=np.float64,
    )


@dataclass(frozen=True, eq=False)
class SpecialtyClassifier:
    """A trained classifier: vocabulary, idf weights, one weight row and intercept per class."""

    classes: tuple[str, ...]
    vocabulary: tuple[str, ...]
    idf: FloatArray
    coef: FloatArray
    intercept: FloatArray
    sublinear_tf: bool = True
    meta: dict[str, Any] | None = None

    def features(self, texts: Sequence[str]) -> Any:
        """L2-normalised TF-IDF rows (a scipy CSR matrix), as scikit-learn computes them."""
        from scipy.sparse import csr_matrix

        index = {word: i for i, word in enumerate(self.vocabulary)}
        rows, cols, values = [], [], []
        for row, text in enumerate(texts):
            counts = Counter(i for w in _TOKEN_RE.findall(text.lower()) if (i := index.get(w)) is not None)
            if not counts:
                continue
            ids = np.fromiter(counts.keys(), dtype=np.int64)
            tf = np.fromiter(counts.values(), dtype=np.float64)
            weights = (1.0 + np.log(tf) if self.sublinear_tf else tf) * self.idf[ids]
            rows.extend([row] * len(ids))
            cols.extend(ids.tolist())
            values.extend((weights / np.linalg.norm(weights)).tolist())
        return csr_matrix((values, (rows, cols)), shape=(len(texts), len(self.vocabulary)))

    def decision(self, texts: Sequence[str]) -> FloatArray:
        """Class scores before the softmax."""
        scores: FloatArray = np.asarray(self.features(texts) @ self.coef.T) + self.intercept
        return scores

    def predict_proba(self, texts: Sequence[str]) -> FloatArray:
        """Softmax probabilities, one row per text, columns in ``classes`` order."""
        scores = self.decision(texts)
        scores -= scores.max(axis=1, keepdims=True)
        exp = np.exp(scores)
        probabilities: FloatArray = exp / exp.sum(axis=1, keepdims=True)
        return probabilities

    def predict(self, texts: Sequence[str]) -> list[str]:
        """The most probable class of each text."""
        return [self.classes[i] for i in self.decision(texts).argmax(axis=1).tolist()]

    def save(self, folder: Path) -> Path:
        """Write ``model.npz`` (float32 weights) and ``meta.json`` into ``folder``."""
        folder = Path(folder)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            np.savez_compressed(
                folder / "model.npz",
                vocabulary=np.asarray(self.vocabulary, dtype=str),
                idf=self.idf.astype(np.float32),
                coef=self.coef.astype(np.float32),
                intercept=self.intercept.astype(np.float32),
            )
            digest = hashlib.sha256((folder / "model.npz").read_bytes()).hexdigest()
            meta = {**(self.meta or {}), "classes": list(self.classes), "sublinear_tf": self.sublinear_tf}
            meta["model_sha256"] = digest
            (folder / "meta.json").write_text(json.dumps(meta, indent=2), encoding="utf-8")
        except OSError as exc:
            raise OutputError(f"cannot write the classifier to {str(folder)!r}: {exc.strerror}") from None
        return folder


def load_classifier(folder: Path | str | None = None) -> SpecialtyClassifier:
    """Load a classifier folder (default: the one shipped with anonymed), checking its SHA-256."""
    folder = Path(folder) if folder is not None else DEFAULT_CLASSIFIER
    try:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        if hashlib.sha256((folder / "model.npz").read_bytes()).hexdigest() != meta.get("model_sha256"):
            raise ResourceError(f"classifier file {str(folder / 'model.npz')!r} does not match its SHA-256")
        with np.load(folder / "model.npz", allow_pickle=False) as data:
            arrays = {name: data[name] for name in ("vocabulary", "idf", "coef", "intercept")}
    except (OSError, ValueError, KeyError) as exc:
        raise ResourceError(
            f"cannot load the classifier from {str(folder)!r}: {type(exc).__name__}"
        ) from None
    return SpecialtyClassifier(
        tuple(meta["classes"]),
        tuple(arrays["vocabulary"].tolist()),
        arrays["idf"].astype(np.float64),
        arrays["coef"].astype(np.float64),
        arrays["intercept"].astype(np.float64),
        bool(meta.get("sublinear_tf", True)),
        meta,
    )


def train_classifier(
    texts: Sequence[str], labels: Sequence[str], params: ClassifierParams | None = None
) -> SpecialtyClassifier:
    """Fit TF-IDF + multinomial logistic regression (scikit-learn) and keep its arrays."""
    from sklearn.linear_model import LogisticRegression

    params = params or ClassifierParams()
    if len(set(labels)) < 2:
        raise ConfigError(f"need at least two classes to train, got {sorted(set(labels))}")
    tfidf = vectorizer(params)
    features = tfidf.fit_transform(texts)
    model = LogisticRegression(C=params.c, max_iter=params.max_iter)
    model.fit(features, list(labels))
    vocabulary = sorted(tfidf.vocabulary_, key=tfidf.vocabulary_.__getitem__)
    coef = np.asarray(model.coef_, dtype=np.float64)
    intercept = np.asarray(model.intercept_, dtype=np.float64)
    if coef.shape[0] == 1:  # binary: scikit-learn keeps one row; make the softmax explicit
        coef, intercept = np.vstack([-coef / 2, coef / 2]), np.asarray([-intercept[0] / 2, intercept[0] / 2])
    return SpecialtyClassifier(
        tuple(str(c) for c in model.classes_),
        tuple(vocabulary),
        np.asarray(tfidf.idf_, dtype=np.float64),
        coef,
        intercept,
        params.sublinear_tf,
        {"params": asdict(params), "train_size": len(texts)},
    )


def macro_f1(truth: Sequence[str], predicted: Sequence[str]) -> float:
    """Macro-averaged F1 over the classes present in ``truth`` or ``predicted``."""
    from sklearn.metrics import f1_score

    return float(f1_score(list(truth), list(predicted), average="macro", zero_division=0))


def train_on_mtsamples(
    corpus: Path | None = None,
    task: TaskParams | None = None,
    params: ClassifierParams | None = None,
) -> SpecialtyClassifier:
    """Train on the labelled train split of the MTSamples task; held-out scores go into ``meta``."""
    task = task or TaskParams()
    notes = load_task(corpus, task)
    train, test = labelled(notes, "train"), labelled(notes, "test")
    classifier = train_classifier([n.text for n in train], [n.metadata["label"] for n in train], params)
    predicted = classifier.predict([n.text for n in test])
    truth = [str(n.metadata["label"]) for n in test]
    accuracy = float(np.mean([a == b for a, b in zip(truth, predicted, strict=True)])) if test else None
    meta = {
        **(classifier.meta or {}),
        "task": asdict(task),
        "corpus": "shipped MTSamples" if corpus is None else Path(corpus).name,
        "test_size": len(test),
        "test_macro_f1": round(macro_f1(truth, predicted), 4) if test else None,
        "test_accuracy": rounded(accuracy),
        "sklearn": _sklearn_version(),
    }
    return SpecialtyClassifier(
        classifier.classes,
        classifier.vocabulary,
        classifier.idf,
        classifier.coef,
        classifier.intercept,
        classifier.sublinear_tf,
        meta,
    )


def _sklearn_version() -> str:
    import sklearn

    return str(sklearn.__version__)
