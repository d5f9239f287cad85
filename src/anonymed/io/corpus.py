"""Training corpora: any anonymed input format, also compressed (.xz, .gz, .bz2); the shipped MTSamples.

``mtsamples_notes`` is the one MTSamples loader: the evaluation's specialty task (``evaluate/mtsamples.py``)
and the audit's source notes (``audit/mtsamples.py``) both read the corpus through it.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from anonymed.document import Document
from anonymed.errors import InputFileError
from anonymed.io.base import Reader, ReadFailure, Record
from anonymed.io.registry import open_reader

RESOURCES = Path(__file__).resolve().parents[1] / "resources"
MTSAMPLES = RESOURCES / "mtsamples" / "mtsamples.csv.xz"
MTSAMPLES_OPTIONS = {"text_field": "transcription", "id_field": "note_id"}
#: MTSamples "specialties" that name a kind of note rather than a clinical domain
NOTE_TYPES = frozenset(
    {
        "Surgery",
        "Consult - History and Phy.",
        "SOAP / Chart / Progress Notes",
        "Discharge Summary",
        "Office Notes",
        "Letters",
        "Emergency Room Reports",
        "IME-QME-Work Comp etc.",
    }
)
_OPENERS: dict[str, Callable[..., IO[bytes]]] = {".xz": lzma.open, ".gz": gzip.open, ".bz2": bz2.open}  # type: ignore[dict-item]


@contextmanager
def open_corpus(path: Path, fmt: str | None = None, **options: Any) -> Iterator[Reader]:
    """A reader for ``path``; a compressed file is first expanded into a temporary folder (removed after)."""
    path = Path(path)
    opener = _OPENERS.get(path.suffix.lower())
    if opener is None:
        yield open_reader(path, fmt, **options)
        return
    with tempfile.TemporaryDirectory(prefix="anonymed-corpus-") as tmp:
        target = Path(tmp) / path.stem
        try:
            with opener(path, "rb") as source, target.open("wb") as sink:
                shutil.copyfileobj(source, sink, 1 << 20)
        except (OSError, EOFError, lzma.LZMAError) as exc:
            raise InputFileError(path.name, f"cannot decompress: {type(exc).__name__}") from None
        yield open_reader(target, fmt, **options)


def documents(records: Iterable[Record], failures: list[ReadFailure]) -> Iterator[Document]:
    """The good records; failures are appended to ``failures`` (ids and reasons only)."""
    for record in records:
        if isinstance(record, Document):
            yield record
        else:
            failures.append(record)


def mtsamples_notes(path: Path | None = None) -> list[Document]:
    """The records of the shipped MTSamples (or a CSV with its columns), in file order; bad rows skipped.

    A document's ``metadata["record"]`` holds the row's other columns (``medical_specialty``, ``keywords``).
    """
    failures: list[ReadFailure] = []
    with open_corpus(Path(path) if path else MTSAMPLES, "csv", **MTSAMPLES_OPTIONS) as reader:
        return list(documents(reader, failures))
