"""How a shipped tagger model is made: which corpora, how many synthetic notes, which settings."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Final

from anonymed.detect.tagger.clusters import WordClusters
from anonymed.detect.tagger.family import Tagger
from anonymed.detect.tagger.features import FeatureLexicons
from anonymed.detect.tagger.model import DEFAULT_HINTS, TaggerModel, TrainingParams, train_model
from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.labels import Label
from anonymed.train.annotations import file_digest, notes_of_language, read_annotations
from anonymed.train.corpora import read_gold_documents, read_wikiann
from anonymed.train.feature_lexicons import build_lexicons
from anonymed.train.fingerprint import write_fingerprint
from anonymed.train.synthetic import lower_cased, synthetic_notes

#: per language: the annotated development corpus (path under the training root, reader format)
DEV_CORPORA: Final = {
    "en": ("physionet_deid/id.text", "physionet-deid"),
    "fr": ("eds_pseudo/dev.jsonl", "eds-pseudo"),
}
#: per language: the WikiANN subset (path under the training root)
WIKIANN: Final = {"en": "wikiann/en.conll", "fr": "wikiann/fr.conll"}
#: per language: the word-cluster granularities of the tagger's features (k-means over the shipped English
#: fastText space, e.g. ``(64, 256, 1024)``); none by default: no recall gain in cross-validation
CLUSTER_SIZES: Final[dict[str, tuple[int, ...]]] = {}
#: per language: whether the tagger sees the context-word classes of ``tagger.triggers`` (English words);
#: off by default: no recall gain in cross-validation
TRIGGERS: Final[dict[str, bool]] = {}


def training_root() -> Path:
    """The folder of the training data shipped in the package (``anonymed/resources/training``)."""
    return Path(str(resources.files("anonymed").joinpath("resources", "training")))


@dataclass(frozen=True)
class RecognizerRecipe:
    """Everything that decides a trained tagger model (same recipe, same data: same model)."""

    lang: str
    data: Path | None = None
    synthetic_copies: int = 2
    lowercase_copies: int = 0  # surrogate-filled copies written all in lower case (case augmentation)
    wikiann_sentences: int = 0
    seed: int = 0
    training: TrainingParams = field(default_factory=TrainingParams)
    hints: tuple[tuple[str, dict[str, Any]], ...] = DEFAULT_HINTS
    clusters: tuple[int, ...] | None = None  # None: the language's CLUSTER_SIZES; () for none
    triggers: bool | None = None  # None: the language's default (TRIGGERS)
    extra: tuple[Path, ...] = ()  # annotation files (``anonymed.train.annotations``) added to the dev notes

    def __post_init__(self) -> None:
        if self.lang not in DEV_CORPORA:
            raise ConfigError(f"no training recipe for language {self.lang!r}; known: {sorted(DEV_CORPORA)}")
        if min(self.synthetic_copies, self.lowercase_copies, self.wikiann_sentences) < 0:
            raise ConfigError("synthetic_copies, lowercase_copies and wikiann_sentences must be >= 0")

    @property
    def cluster_sizes(self) -> tuple[int, ...]:
        """The word-cluster granularities in force."""
        return CLUSTER_SIZES.get(self.lang, ()) if self.clusters is None else self.clusters

    @property
    def uses_triggers(self) -> bool:
        """Whether the context-word class features are in force."""
        return TRIGGERS.get(self.lang, False) if self.triggers is None else self.triggers

    @property
    def root(self) -> Path:
        """The training data folder in use."""
        return self.data if self.data is not None else training_root()

    def describe(self) -> dict[str, Any]:
        """The recipe as JSON-friendly metadata (stored with the model; no paths)."""
        info = asdict(self)
        info.pop("data")
        del info["extra"]
        if self.extra:  # named by digest and size, never by path; absent otherwise (as in the shipped models)
            info["extra"] = [_extra_info(path, self.lang) for path in self.extra]
        if not self.lowercase_copies:  # only when in force, as for clusters
            del info["lowercase_copies"]
        info["hints"] = [list(pair) for pair in self.hints]
        del info["clusters"], info["triggers"]
        if self.cluster_sizes:  # only when in force: the shipped models' metadata stays as it was
            info["clusters"] = list(self.cluster_sizes)
        if self.uses_triggers:
            info["triggers"] = True
        return info


def _extra_info(path: Path, lang: str) -> dict[str, Any]:
    return {"sha256": file_digest(path), "notes": len(extra_notes(path, lang))}


def dev_documents(recipe: RecognizerRecipe) -> list[Document]:
    """The annotated development notes of the recipe's language."""
    relative, fmt = DEV_CORPORA[recipe.lang]
    return read_gold_documents(recipe.root / relative, fmt, recipe.lang)


def extra_notes(path: Path, lang: str) -> list[Document]:
    """The annotated notes of one ``--extra`` file in language ``lang``."""
    return notes_of_language(read_annotations(path), lang, path.name)


def extra_documents(recipe: RecognizerRecipe) -> list[Document]:
    """The annotated notes of the recipe's extra files in its language (reviewed notes, for retraining)."""
    return [doc for path in recipe.extra for doc in extra_notes(path, recipe.lang)]


def wikiann_documents(recipe: RecognizerRecipe) -> list[Document]:
    """All WikiANN sentences shipped for the recipe's language."""
    return read_wikiann(recipe.root / WIKIANN[recipe.lang], recipe.lang)


def group_of(doc: Document) -> str:
    """The cross-validation group of a note: its patient, else the note itself."""
    return doc.patient_id or doc.id


def folds(docs: Sequence[Document], k: int, seed: int = 0) -> list[int]:
    """A fold number in ``range(k)`` per document; all notes of one patient share a fold."""
    groups = sorted({group_of(doc) for doc in docs})
    random.Random(seed).shuffle(groups)  # fixed split of the evaluation, not a privacy-relevant draw
    fold_of = {group: index % k for index, group in enumerate(groups)}
    return [fold_of[group_of(doc)] for doc in docs]


def training_documents(
    recipe: RecognizerRecipe, dev: Sequence[Document], wiki: Sequence[Document], *, seed: int | None = None
) -> list[Document]:
    """Dev notes, their surrogate-filled copies (some lower-cased), and WikiANN sentences without
    organisations."""
    draw = recipe.seed if seed is None else seed
    copies = synthetic_notes(dev, recipe.lang, copies=recipe.synthetic_copies, seed=draw)
    lowered = synthetic_notes(dev, recipe.lang, copies=recipe.lowercase_copies, seed=draw, suffix="lc")
    return [*dev, *copies, *(lower_cased(doc) for doc in lowered), *_general(recipe, wiki)]


def _general(recipe: RecognizerRecipe, wiki: Sequence[Document]) -> list[Document]:
    """The WikiANN sentences the recipe trains on: without organisations, the first ``wikiann_sentences``."""
    general = [doc for doc in wiki if all(s.label is not Label.ORGANIZATION for s in doc.gold)]
    return general[: recipe.wikiann_sentences]


def real_documents(recipe: RecognizerRecipe) -> list[Document]:
    """The real notes a recipe trains on (dev notes, extra notes and WikiANN sentences; not the synthetic
    copies)."""
    return [*dev_documents(recipe), *extra_documents(recipe), *_general(recipe, wikiann_documents(recipe))]


def recipe_lexicons(recipe: RecognizerRecipe, wiki: Sequence[Document]) -> FeatureLexicons:
    """The feature lexicons of the recipe's language."""
    return build_lexicons(recipe.lang, wiki)


def recipe_clusters(recipe: RecognizerRecipe) -> WordClusters | None:
    """The word clusters of the recipe (None when it has no cluster sizes)."""
    from anonymed.train.word_clusters import build_clusters

    return build_clusters(recipe.cluster_sizes) if recipe.cluster_sizes else None


def split_fold(
    docs: Sequence[Document], fold_of: Sequence[int], k: int
) -> tuple[list[Document], list[Document]]:
    """The notes outside fold ``k`` (the training side) and those in it (the test side)."""
    train = [doc for doc, fold in zip(docs, fold_of, strict=True) if fold != k]
    test = [doc for doc, fold in zip(docs, fold_of, strict=True) if fold == k]
    return train, test


def train_with_recipe(
    recipe: RecognizerRecipe,
    docs: Sequence[Document],
    lexicons: FeatureLexicons,
    folder: Path,
    *,
    clusters: WordClusters | None,
    meta: dict[str, Any] | None = None,
    on_document: Callable[[], None] | None = None,
    on_iteration: Callable[[int], None] | None = None,
) -> TaggerModel:
    """A CRF trained on ``docs`` with the recipe's settings (shipped model or one fold), in ``folder``."""
    return train_model(
        docs,
        lexicons,
        folder,
        params=recipe.training,
        hints=recipe.hints,
        meta=meta,
        clusters=clusters,
        triggers=recipe.uses_triggers,
        on_document=on_document,
        on_iteration=on_iteration,
    )


#: model families ``anonymed train recognizer`` can train (the shipped models are CRFs: see docs/detection.md)
FAMILIES: Final = ("crf", "cnn", "ensemble")


def train_recognizer(
    recipe: RecognizerRecipe,
    out: Path,
    *,
    family: str = "crf",
    cnn_weight: float = 0.3,
    cnn_epochs: int = 8,
    on_document: Callable[[], None] | None = None,
    on_iteration: Callable[[int], None] | None = None,
) -> Tagger:
    """Train the tagger of ``recipe`` on all its data and write the model folder ``out``: a CRF, the CNN of
    ``anonymed.train.neural`` (needs torch), or an ensemble of both in ``out/crf`` and ``out/cnn``
    averaged with the CNN at ``cnn_weight``."""
    if family not in FAMILIES:
        raise ConfigError(f"unknown recognizer family {family!r}; known: {', '.join(FAMILIES)}")
    dev = [*dev_documents(recipe), *extra_documents(recipe)]
    wiki = wikiann_documents(recipe)
    docs = training_documents(recipe, dev, wiki)
    lexicons = recipe_lexicons(recipe, wiki)
    meta = {"lang": recipe.lang, "recipe": recipe.describe(), "documents": len(docs)}
    write_fingerprint(out, [*dev, *_general(recipe, wiki)])
    if family == "crf":
        return train_with_recipe(
            recipe,
            docs,
            lexicons,
            out,
            clusters=recipe_clusters(recipe),
            meta=meta,
            on_document=on_document,
            on_iteration=on_iteration,
        )
    from anonymed.detect.tagger.family import load_tagger, write_ensemble
    from anonymed.train.neural import NeuralParams, train_neural

    cnn_folder = out if family == "cnn" else out / "cnn"
    params = NeuralParams(epochs=cnn_epochs, seed=recipe.seed)
    train_neural(docs, lexicons, cnn_folder, params=params, hints=recipe.hints, meta=meta)
    if family == "ensemble":
        clusters = recipe_clusters(recipe)
        train_with_recipe(recipe, docs, lexicons, out / "crf", clusters=clusters, meta=meta)
        write_ensemble(out, {"crf": 1.0 - cnn_weight, "cnn": cnn_weight}, meta)
    return load_tagger(out)


def document_count(recipe: RecognizerRecipe) -> int:
    """How many training documents the recipe yields (for a progress bar)."""
    dev = [*dev_documents(recipe), *extra_documents(recipe)]
    wiki = wikiann_documents(recipe)
    with_gold = sum(1 for doc in dev if doc.gold)
    general = sum(1 for doc in wiki if all(s.label is not Label.ORGANIZATION for s in doc.gold))
    return len(dev) + with_gold * recipe.synthetic_copies + min(general, recipe.wikiann_sentences)
