"""The review folder: the sampled notes with their detected spans, the design weights and a manifest.

``notes.jsonl`` holds one sampled note per line in review order (``key`` = its position in the input, id,
language, text, detected spans); ``sample.csv`` the design (stratum, flag, tokens, inclusion probability,
weight); ``manifest.json`` the input's fingerprint, the detection configuration, the strata and the command;
``decisions.jsonl`` the reviewers' decisions (appended by ``anonymed review serve``). The folder holds note
text and PHI: it is created owner-only (0700).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from anonymed.document import Span
from anonymed.errors import ConfigError, InputError, SpanError
from anonymed.io.atomic import AtomicFile

FORMAT = "anonymed-review"
VERSION = 1
MANIFEST, NOTES, SAMPLE, DECISIONS = "manifest.json", "notes.jsonl", "sample.csv", "decisions.jsonl"
SAMPLE_COLUMNS = ("key", "stratum", "flagged", "tokens", "inclusion_probability", "weight")


def fingerprint(path: Path) -> str:
    """``sha256:`` of a file's bytes, or of a folder's sorted relative paths and file digests."""
    path = Path(path)
    try:
        if path.is_file():
            return "sha256:" + _file_digest(path)
        if not path.is_dir():
            raise ConfigError(f"cannot fingerprint {str(path)!r}: no such file or folder")
        digest = hashlib.sha256()
        for item in sorted(p for p in path.rglob("*") if p.is_file()):
            digest.update(item.relative_to(path).as_posix().encode() + b"\0")
            digest.update(_file_digest(item).encode() + b"\n")
        return "sha256:" + digest.hexdigest()
    except OSError as exc:
        raise ConfigError(f"cannot read {str(path)!r} to fingerprint it: {exc.strerror}") from None


def write_text(path: Path, text: str) -> None:
    """Write a text file atomically (temporary sibling, fsync, rename), owner-only."""
    target = AtomicFile(Path(path))
    try:
        target.stream.write(text)
        target.commit()
    except BaseException:
        target.abort()
        raise


def _file_digest(path: Path) -> str:
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


@dataclass(frozen=True)
class ReviewNote:
    """One sampled note: its key (input position), id, language, text, detected spans and design row."""

    key: str
    id: str
    lang: str
    text: str
    spans: tuple[Span, ...]
    stratum: str
    tokens: int
    weight: float

    def span_at(self, start: int, end: int) -> Span | None:
        """The detected span with exactly these offsets, if any."""
        return next((s for s in self.spans if s.start == start and s.end == end), None)


def note_line(key: str, doc_id: str, lang: str, text: str, spans: tuple[Span, ...]) -> str:
    """One line of ``notes.jsonl``."""
    body = {"key": key, "id": doc_id, "lang": lang, "text": text, "spans": [s.to_json() for s in spans]}
    return json.dumps(body, ensure_ascii=False) + "\n"


def sample_csv(rows: list[dict[str, Any]]) -> str:
    """``sample.csv`` as text: one row per sampled note, in review order."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=SAMPLE_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


class ReviewFolder:
    """A review folder on disk, read lazily: the manifest, the notes in review order and their design rows."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        if not (self.path / MANIFEST).is_file():
            raise ConfigError(f"{str(self.path)!r} is not a review folder (no {MANIFEST})")

    @cached_property
    def manifest(self) -> Mapping[str, Any]:
        """The manifest (input fingerprint, configuration, design, command)."""
        data = json.loads((self.path / MANIFEST).read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ConfigError(f"{str(self.path / MANIFEST)!r} is not an anonymed review manifest")
        if data.get("version") != VERSION:
            raise ConfigError(f"review folder version {data.get('version')!r} is not supported ({VERSION})")
        return data

    @property
    def population(self) -> dict[str, int]:
        """Notes in the input per stratum."""
        return {h: int(s["population"]) for h, s in self.manifest["design"]["strata"].items()}

    @property
    def decisions_path(self) -> Path:
        """Where the reviewers' decisions are appended."""
        return self.path / DECISIONS

    @cached_property
    def notes(self) -> tuple[ReviewNote, ...]:
        """The sampled notes in review order, with their design rows."""
        design = {row["key"]: row for row in self._sample_rows()}
        notes = []
        for number, obj in enumerate(self._note_objects(), start=1):
            key = str(obj["key"])
            if key not in design:
                raise InputError(f"{NOTES} line {number}", f"note {key!r} has no row in {SAMPLE}")
            row, text = design[key], str(obj["text"])
            try:
                spans = tuple(
                    Span.of(
                        text,
                        int(s["start"]),
                        int(s["end"]),
                        s["label"],
                        source=str(s.get("source", "")),
                        score=float(s.get("score", 1.0)),
                        subtype=s.get("subtype"),
                    )
                    for s in obj["spans"]
                )
            except (SpanError, KeyError, TypeError, ValueError):
                raise InputError(f"{NOTES} line {number}", "malformed detected span") from None
            notes.append(
                ReviewNote(
                    key,
                    str(obj["id"]),
                    str(obj.get("lang", "en")),
                    text,
                    spans,
                    row["stratum"],
                    int(row["tokens"]),
                    float(row["weight"]),
                )
            )
        return tuple(notes)

    @cached_property
    def by_key(self) -> dict[str, ReviewNote]:
        """The notes by key."""
        return {note.key: note for note in self.notes}

    def _note_objects(self) -> Iterator[dict[str, Any]]:
        with (self.path / NOTES).open(encoding="utf-8") as lines:
            for number, line in enumerate(lines, start=1):
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError:
                    raise InputError(f"{NOTES} line {number}", "not JSON") from None
                if not isinstance(obj, dict) or not {"key", "id", "text", "spans"} <= obj.keys():
                    raise InputError(f"{NOTES} line {number}", "not a review note")
                yield obj

    def _sample_rows(self) -> list[dict[str, str]]:
        with (self.path / SAMPLE).open(encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle))
        if rows and set(SAMPLE_COLUMNS) - rows[0].keys():
            raise ConfigError(f"{SAMPLE} lacks the columns {sorted(set(SAMPLE_COLUMNS) - rows[0].keys())}")
        return rows
