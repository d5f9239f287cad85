"""Gold notes a model was trained on: an evaluation on them measures memory, not detection."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from anonymed.detect.tagger.detector import SHIPPED_MODELS, shipped_model_path
from anonymed.document import Document
from anonymed.train.fingerprint import overlap, read_fingerprint


@dataclass(frozen=True)
class TrainingOverlap:
    """How many of the gold documents (``ids``) were among a model folder's training notes."""

    model: Path
    ids: tuple[str, ...]
    gold: int

    @property
    def share(self) -> float:
        """The share of the gold documents the model was trained on."""
        return len(self.ids) / self.gold if self.gold else 0.0


def shipped_models() -> list[Path]:
    """The folders of the models shipped with anonymed."""
    return [shipped_model_path(lang) for lang in SHIPPED_MODELS]


def training_overlaps(documents: Sequence[Document], models: Iterable[Path] = ()) -> list[TrainingOverlap]:
    """The models (the shipped ones and ``models``) trained on some of ``documents``, with those ids.

    A model folder without a fingerprint (``training-notes.json``) cannot be checked and is skipped.
    """
    found = []
    for folder in [*shipped_models(), *models]:
        fingerprint = read_fingerprint(folder)
        if fingerprint is None:
            continue
        ids = overlap(documents, fingerprint)
        if ids:
            found.append(TrainingOverlap(folder, tuple(ids), len(documents)))
    return found
