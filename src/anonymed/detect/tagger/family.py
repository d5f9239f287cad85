"""Which model a tagger folder holds, by the ``family`` of its metadata: ``crf`` (the default), ``cnn``,
or ``ensemble`` (member folders whose label probabilities are averaged with weights)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final, Protocol

from anonymed.detect.tagger.model import META_FILE, HintRunner, TaggerModel
from anonymed.detect.tokens import TaggerToken
from anonymed.detect.view import NoteView
from anonymed.document import Document
from anonymed.errors import ResourceError

ENSEMBLE: Final = "ensemble"


class Tagger(Protocol):
    """What the tagger detector needs of a model: its hint detectors and per-token label probabilities."""

    hints: HintRunner

    def marginals(self, note: Document | NoteView) -> tuple[list[TaggerToken], list[dict[str, float]]]:
        """The tokens of a note and, per token, the probability of each label."""
        ...


class EnsembleTagger:
    """Member models whose probabilities are averaged (weights from the metadata, normalised)."""

    def __init__(self, members: list[Tagger], weights: list[float], meta: dict[str, Any]) -> None:
        if not members or len(members) != len(weights) or sum(weights) <= 0:
            raise ResourceError("an ensemble tagger needs members with positive weights")
        self.members = members
        self.weights = [w / sum(weights) for w in weights]
        self.meta = meta
        self.hints = members[0].hints

    def marginals(self, note: Document | NoteView) -> tuple[list[TaggerToken], list[dict[str, float]]]:
        """Weighted average of the members' label probabilities (they share the view's tokens)."""
        view = note if isinstance(note, NoteView) else NoteView(note)
        tokens: list[TaggerToken] = []
        total: list[dict[str, float]] = []
        for member, weight in zip(self.members, self.weights, strict=True):
            tokens, rows = member.marginals(view)
            if not total:
                total = [{label: p * weight for label, p in row.items()} for row in rows]
                continue
            for summed, row in zip(total, rows, strict=True):
                for label, p in row.items():
                    summed[label] = summed.get(label, 0.0) + p * weight
        return tokens, total


def load_tagger(folder: Path) -> Tagger:
    """The model in ``folder``, of whichever family its metadata names."""
    try:
        meta = json.loads((folder / META_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ResourceError(f"cannot read tagger metadata in {folder}: {type(exc).__name__}") from None
    family = meta.get("family", "crf")
    if family == "crf":
        return TaggerModel.load(folder)
    if family == "cnn":
        from anonymed.detect.tagger.neural import NeuralTagger, load_lexicons

        return NeuralTagger(folder, meta, load_lexicons(folder))
    if family == ENSEMBLE:
        members = [load_tagger(folder / str(name)) for name in meta["members"]]
        return EnsembleTagger(members, [float(w) for w in meta["weights"]], meta)
    raise ResourceError(f"unknown tagger family {family!r} in {folder}")


def write_ensemble(folder: Path, members: dict[str, float], meta: dict[str, Any] | None = None) -> None:
    """Write the metadata of an ensemble of the member folders ``members`` (name -> weight) in ``folder``."""
    info = {"family": ENSEMBLE, "members": list(members), "weights": list(members.values()), **(meta or {})}
    folder.mkdir(parents=True, exist_ok=True)
    (folder / META_FILE).write_text(json.dumps(info, indent=2, sort_keys=True) + "\n", encoding="utf-8")
