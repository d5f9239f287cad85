"""The CRF behind the PHI tagger: train on documents with gold spans, save, load, and give marginals."""

from __future__ import annotations

import gzip
import json
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

from anonymed.detect.tagger.clusters import WordClusters
from anonymed.detect.tagger.features import FeatureLexicons, Featurizer
from anonymed.detect.tokens import TaggerToken
from anonymed.detect.view import NoteView
from anonymed.document import Document, Span
from anonymed.errors import ResourceError

OUTSIDE: Final = "O"
#: above this P(O) a token is outside any PHI for every threshold allowed: its other labels are not computed
SURE_OUTSIDE: Final = 0.999
MODEL_FILE: Final = "model.crfsuite"
LEXICON_FILE: Final = "lexicons.json.gz"
META_FILE: Final = "meta.json"


#: detectors whose spans become features of the tagger (name, parameters), run before it on every note
DEFAULT_HINTS: Final[tuple[tuple[str, dict[str, Any]], ...]] = (
    ("patterns", {}),
    ("lexicons", {"high_recall": True}),
    ("contexts", {}),
)


class HintRunner:
    """Runs the hint detectors named in a model's metadata and returns their spans."""

    def __init__(self, specs: Sequence[Sequence[Any]]) -> None:
        from anonymed.detect.registry import build_detector

        self.specs = [(str(name), dict(params)) for name, params in specs]
        if any(name == "tagger" for name, _ in self.specs):
            raise ResourceError("the tagger cannot take its own spans as hints")
        self._detectors = [build_detector(name, params) for name, params in self.specs]

    def __call__(self, view: NoteView) -> list[Span]:
        """All hint spans of the view's document (from detectors that support its language), taken from
        the view when a detector with the same parameters already ran on it."""
        return [span for det in self._detectors if det.supports(view.lang) for span in view.spans_of(det)]


@dataclass(frozen=True)
class TrainingParams:
    """CRF training settings (L-BFGS with elastic-net regularisation)."""

    c1: float = 0.05
    c2: float = 0.01
    max_iterations: int = 100
    min_feature_frequency: float = 1.0


def token_labels(doc: Document, tokens: Sequence[TaggerToken]) -> list[str]:
    """The gold label of each token (``O`` outside gold spans), by overlap with ``doc.gold``."""
    labels = [OUTSIDE] * len(tokens)
    spans = sorted(doc.gold, key=lambda s: s.start)
    index = 0
    for position, token in enumerate(tokens):
        while index < len(spans) and spans[index].end <= token.start:
            index += 1
        for span in spans[index:]:
            if span.start >= token.end:
                break
            if span.end > token.start:
                labels[position] = span.label.value
                break
    return labels


class TaggerModel:
    """A trained CRF with the lexicons its features need; gives per-token label probabilities."""

    def __init__(
        self,
        model_path: Path,
        lexicons: FeatureLexicons,
        meta: dict[str, Any],
        clusters: WordClusters | None = None,
    ) -> None:
        import pycrfsuite

        self.path = model_path
        self.meta = meta
        self.hints = HintRunner(meta.get("hints", ()))
        self._tagger = pycrfsuite.Tagger()
        try:
            self._tagger.open(str(model_path))
        except OSError as exc:
            raise ResourceError(f"cannot open tagger model {model_path}: {exc}") from None
        self.labels: tuple[str, ...] = tuple(self._tagger.labels())
        known = frozenset(attribute for attribute, _ in self._tagger.info().state_features)
        self.featurizer = Featurizer(
            lexicons, clusters, triggers=bool(meta.get("triggers", False)), known=known
        )

    def marginals(self, note: Document | NoteView) -> tuple[list[TaggerToken], list[dict[str, float]]]:
        """The tokens of a document (or of a view of it) and, per token, the probability of each label."""
        view = note if isinstance(note, NoteView) else NoteView(note)
        tokens = view.tokens
        if not tokens:
            return tokens, []
        rows = self.featurizer.featurize(tokens, self.hints(view))
        tagger = self._tagger
        tagger.set(rows)
        marginal = tagger.marginal
        others = [label for label in self.labels if label != OUTSIDE]
        result: list[dict[str, float]] = []
        for t in range(len(tokens)):
            outside = marginal(OUTSIDE, t)
            row = {OUTSIDE: outside}
            if outside < SURE_OUTSIDE:  # the other labels matter only where a token may be tagged
                for label in others:
                    row[label] = marginal(label, t)
            result.append(row)
        return tokens, result

    @classmethod
    def load(cls, folder: Path) -> TaggerModel:
        """Load a model folder written by ``train_model``."""
        try:
            meta = json.loads((folder / META_FILE).read_text(encoding="utf-8"))
            with gzip.open(folder / LEXICON_FILE, "rt", encoding="utf-8") as handle:
                raw = json.load(handle)
        except (OSError, ValueError) as exc:
            raise ResourceError(f"cannot load tagger model from {folder}: {exc}") from None
        lexicons = FeatureLexicons({name: frozenset(words) for name, words in raw.items()})
        clusters = WordClusters.load(folder, meta["clusters"]) if meta.get("clusters") else None
        return cls(folder / MODEL_FILE, lexicons, meta, clusters)


def save_lexicons(folder: Path, lexicons: FeatureLexicons) -> None:
    """Write the lexicons as sorted word lists in a gzip-compressed JSON file (reproducible bytes)."""
    data = {name: sorted(words) for name, words in sorted(lexicons.sets.items())}
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    with (folder / LEXICON_FILE).open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as handle:
        handle.write(payload)


def train_model(
    docs: Iterable[Document],
    lexicons: FeatureLexicons,
    folder: Path,
    *,
    params: TrainingParams | None = None,
    hints: Sequence[tuple[str, dict[str, Any]]] = DEFAULT_HINTS,
    meta: dict[str, Any] | None = None,
    clusters: WordClusters | None = None,
    triggers: bool = False,
    on_document: Callable[[], None] | None = None,
    on_iteration: Callable[[int], None] | None = None,
) -> TaggerModel:
    """Train a CRF on ``docs`` (gold spans as labels) and write it with its lexicons into ``folder``.

    With ``clusters``, word-cluster ids are features too and the centroids are saved with the model; with
    ``triggers``, the classes of context words (titles, kin, communication, places) near each token.
    """
    import pycrfsuite

    settings = params or TrainingParams()
    folder.mkdir(parents=True, exist_ok=True)
    featurizer = Featurizer(lexicons, clusters, triggers=triggers)
    hint_runner = HintRunner(hints)
    trainer = _make_trainer(on_iteration)
    count = 0
    for doc in docs:
        view = NoteView(doc)
        tokens = view.tokens
        if tokens:
            rows = featurizer.featurize(tokens, hint_runner(view))
            trainer.append(pycrfsuite.ItemSequence(rows), token_labels(doc, tokens))
            count += 1
        if on_document is not None:
            on_document()
    trainer.set_params(
        {
            "c1": settings.c1,
            "c2": settings.c2,
            "max_iterations": settings.max_iterations,
            "feature.minfreq": settings.min_feature_frequency,
            "feature.possible_transitions": True,
        }
    )
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp) / MODEL_FILE
        trainer.train(str(scratch))
        (folder / MODEL_FILE).write_bytes(scratch.read_bytes())
    save_lexicons(folder, lexicons)
    info = {"training": asdict(settings), "sequences": count, "hints": hint_runner.specs, **(meta or {})}
    if triggers:
        info["triggers"] = True
    if clusters is not None:
        clusters.save(folder)
        info["clusters"] = clusters.describe()
    (folder / META_FILE).write_text(json.dumps(info, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return TaggerModel.load(folder)


def _make_trainer(on_iteration: Callable[[int], None] | None) -> Any:
    """A CRFsuite trainer that reports each L-BFGS iteration number to ``on_iteration``."""
    import pycrfsuite

    class _ProgressTrainer(pycrfsuite.Trainer):  # type: ignore[misc]
        def on_iteration(self, log: str, info: dict[str, Any]) -> None:
            if on_iteration is not None:
                on_iteration(int(info.get("num", 0)))

    return _ProgressTrainer(verbose=False)
