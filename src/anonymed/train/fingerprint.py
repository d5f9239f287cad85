"""The fingerprint of a model's training notes: one digest per note, stored in the model folder.

An evaluation on notes the model was trained on measures memory, not detection (the shipped English
model reaches recall 1.000 on the PhysioNet development notes it learnt from). Each model folder holds
``training-notes.json``: the BLAKE2b-128 digest of every real note it was trained on (the annotated
notes and the WikiANN sentences used; not the synthetic copies, which are derived from them), computed on
the note's words joined by single spaces so that line ends and spacing do not matter. ``anonymed
evaluate detection`` compares its gold notes against the fingerprints of the shipped models and warns
on overlap; ``anonymed train fingerprint`` regenerates a fingerprint without retraining, and ``anonymed
train recognizer`` writes one with every model. Digests of long notes cannot be turned back into text.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from anonymed.document import Document
from anonymed.errors import ResourceError

#: the fingerprint file in a model folder
FINGERPRINT_FILE: Final = "training-notes.json"
FORMAT: Final = "anonymed-training-notes"
VERSION: Final = 1


def note_digest(text: str) -> str:
    """The digest of a note: BLAKE2b-128 of its words joined by single spaces (hex)."""
    words = " ".join(text.split())
    return hashlib.blake2b(words.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def write_fingerprint(folder: Path, documents: Iterable[Document]) -> Path:
    """Write the fingerprint of ``documents`` (sorted digests, reproducible bytes) into ``folder``."""
    digests = sorted({note_digest(doc.text) for doc in documents})
    data = {
        "format": FORMAT,
        "version": VERSION,
        "digest": "blake2b-128 of the note's words joined by single spaces",
        "notes": digests,
    }
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / FINGERPRINT_FILE
    path.write_text(json.dumps(data, indent=0) + "\n", encoding="utf-8")
    return path


def read_fingerprint(folder: Path) -> frozenset[str] | None:
    """The digests of a model folder's training notes; None when the folder has no fingerprint."""
    path = folder / FINGERPRINT_FILE
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ResourceError(f"cannot read the training fingerprint {str(path)!r}: {exc}") from None
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise ResourceError(f"{str(path)!r} is not an {FORMAT} version {VERSION} file")
    return frozenset(str(digest) for digest in data["notes"])


def overlap(documents: Iterable[Document], fingerprint: frozenset[str]) -> list[str]:
    """The ids of the documents whose text is one of the fingerprint's training notes."""
    return [doc.id for doc in documents if note_digest(doc.text) in fingerprint]
