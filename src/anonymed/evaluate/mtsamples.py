"""The MTSamples specialty task: distinct notes, one clean specialty label each, a fixed train/test split.

MTSamples lists many notes under several categories, some of which are note types rather than specialties
("Surgery", "Consult - History and Phy.", "Discharge Summary"...). A note's label is its one remaining
specialty once the note types are removed; notes with none or several keep no label (they still take part
in the corpus-level evaluations: embeddings and information retention). Specialties with fewer than
``min_class_size`` labelled notes are dropped. Each distinct text goes to ``test`` when a hash of it falls
under ``test_share``, so duplicates never straddle the split and the split does not depend on file order.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.io.corpus import NOTE_TYPES, mtsamples_notes


@dataclass(frozen=True)
class TaskParams:
    """How labels are cleaned and the corpus split."""

    min_class_size: int = 40
    test_share: float = 0.2
    limit: int | None = None

    def __post_init__(self) -> None:
        if not 0.0 < self.test_share < 1.0:
            raise ConfigError(f"test_share must be in (0, 1), got {self.test_share!r}")
        if self.min_class_size < 1:
            raise ConfigError(f"min_class_size must be >= 1, got {self.min_class_size!r}")


def split_of(text: str, test_share: float) -> str:
    """``test`` or ``train``, from a hash of the text."""
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return "test" if int.from_bytes(digest, "big") / 2**64 < test_share else "train"


def specialty_of(doc: Document, field: str = "medical_specialty") -> str:
    """The specialty column of an MTSamples record (empty if absent)."""
    record = doc.metadata.get("record", {})
    return str(record.get(field, "")).strip()


def build_task(docs: Iterable[Document], params: TaskParams | None = None) -> list[Document]:
    """Distinct non-empty notes with ``metadata['label']`` (or None) and ``metadata['split']``."""
    params = params or TaskParams()
    first: dict[str, Document] = {}
    labels: dict[str, set[str]] = {}
    for doc in docs:
        text = doc.text
        if not text.strip():
            continue
        first.setdefault(text, doc)
        labels.setdefault(text, set()).add(specialty_of(doc))
    if params.limit is not None:
        first = dict(list(first.items())[: params.limit])
    clean = {text: _clean(labels[text]) for text in first}
    sizes = Counter(label for label in clean.values() if label is not None)
    notes = [
        Document(
            doc.id,
            text,
            {
                "lang": doc.lang,
                "label": clean[text] if sizes[clean[text] or ""] >= params.min_class_size else None,
                "split": split_of(text, params.test_share),
            },
        )
        for text, doc in first.items()
    ]
    return notes


def _clean(found: set[str]) -> str | None:
    remaining = {label for label in found if label and label not in NOTE_TYPES}
    return next(iter(remaining)) if len(remaining) == 1 else None


def load_task(path: Path | None = None, params: TaskParams | None = None) -> list[Document]:
    """The task over the shipped MTSamples (or a CSV with the same columns)."""
    return build_task(mtsamples_notes(path), params)


def labelled(notes: Iterable[Document], split: str | None = None) -> list[Document]:
    """The notes that carry a label, optionally of one split only."""
    return [n for n in notes if n.metadata["label"] is not None and split in (None, n.metadata["split"])]
