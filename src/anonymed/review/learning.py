"""Before and after: a tagger retrained on a review's annotations, scored on reviewed notes it never saw.

``anonymed review export --holdout 0.25`` keeps a random share of the finished notes out of
``annotations.jsonl``; ``anonymed train recognizer --extra`` retrains on the rest and writes the model's
``training-notes.json`` fingerprint. Here both models (before: the one the review was drawn with, or any
other; after: the retrained one) run on the finished notes that neither was trained on (read from their
fingerprints, so a second review round works too), with the reviewers' PHI as gold (confirmed spans and
missed marks): the tagger alone, and the review's configured detection with the tagger's model swapped.
Scores are token recall and precision, the code of ``anonymed evaluate detection``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from anonymed.config import PipelineConfig
from anonymed.document import Document, Span
from anonymed.errors import ConfigError
from anonymed.evaluate.detection import DetectionReport, evaluate_detection
from anonymed.pipeline import Pipeline
from anonymed.review.folder import ReviewFolder
from anonymed.review.outcome import NoteOutcome
from anonymed.train.fingerprint import note_digest, read_fingerprint

TAGGER = "tagger"


def gold_notes(folder: ReviewFolder, found: Sequence[NoteOutcome]) -> list[Document]:
    """The finished notes with the reviewers' PHI (confirmed spans and missed marks) as gold."""
    docs = []
    for outcome in found:
        note = folder.by_key[outcome.key]
        gold = tuple(
            Span.of(note.text, item.start, item.end, item.top)
            for item in sorted((*outcome.confirmed, *outcome.missed), key=lambda i: (i.start, i.end))
        )
        docs.append(Document(note.id, note.text, {"lang": note.lang}, gold=gold))
    return docs


def held_out(docs: Sequence[Document], models: Sequence[Path]) -> tuple[list[Document], int]:
    """The notes none of ``models`` was trained on, and how many were left out because one was."""
    trained: set[str] = set()
    for model in models:
        fingerprint = read_fingerprint(model)
        if fingerprint is None:
            raise ConfigError(
                f"model {str(model)!r} has no training-notes.json: cannot tell which reviewed notes it was "
                "trained on (`anonymed train fingerprint` writes one)"
            )
        trained |= fingerprint
    kept = [doc for doc in docs if note_digest(doc.text) not in trained]
    return kept, len(docs) - len(kept)


def _config(detection: dict[str, Any], model: Path, alone: bool) -> PipelineConfig:
    params = {k: dict(v) for k, v in detection.get("detector_params", {}).items()}
    params[TAGGER] = {**params.get(TAGGER, {}), "model": str(model)}
    detectors = tuple(detection["detectors"])
    if TAGGER not in detectors:
        detectors = (*detectors, TAGGER)
    return PipelineConfig(
        lang=detection["lang"],
        detectors=(TAGGER,) if alone else detectors,
        detector_params=params,
        high_recall=bool(detection.get("high_recall", False)),
    )


def detection_scores(report: DetectionReport) -> dict[str, Any]:
    """Token recall, precision and support, overall and per label with gold support."""
    rows = {"overall": report.overall, **{row.key: row for row in report.by_label}}
    return {
        key: {"recall": row.tokens.recall, "precision": row.tokens.precision, "support": row.tokens.support}
        for key, row in rows.items()
        if row.tokens.support or key == "overall"
    }


def _score(docs: Sequence[Document], config: PipelineConfig) -> dict[str, Any]:
    pipeline = Pipeline(config)
    return detection_scores(evaluate_detection((doc, pipeline.detect(doc).spans) for doc in docs))


def before_after(
    folder: ReviewFolder, found: Sequence[NoteOutcome], before: Path, after: Path
) -> dict[str, Any]:
    """Token recall / precision of the two models on the held-out finished notes (JSON-ready)."""
    docs, trained = held_out(gold_notes(folder, found), (before, after))
    result: dict[str, Any] = {
        "before_model": str(before),
        "after_model": str(after),
        "held_out_notes": len(docs),
        "left_out_trained_on": trained,
        "gold_tokens": None,
        "variants": {},
    }
    if not docs:
        result["reason"] = "every finished note was used to train a model: hold some out (export --holdout)"
        return result
    for variant, alone in ((TAGGER, True), ("detection", False)):
        figures = {
            phase: _score(docs, _config(folder.manifest["detection"], model, alone))
            for phase, model in (("before", before), ("after", after))
        }
        result["variants"][variant] = figures
        result["gold_tokens"] = figures["before"]["overall"]["support"]
    return result
