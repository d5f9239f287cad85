"""PhysioNet deid: ``id.text`` records with gold PHI from the sibling ``id-phi.phrase`` file.

A record is ``START_OF_RECORD=<PID>||||<NOTE>||||\\n<body>||||END_OF_RECORD``; gold offsets are 0-based,
end-exclusive character offsets into the body; phrase lines are
``<PID> <NOTE> <start> <end> <Category> <text>``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from anonymed.document import Document, Span
from anonymed.errors import InputError, OutputError, SpanError
from anonymed.io.atomic import FileWriter
from anonymed.io.base import ReadFailure, Record
from anonymed.io.common import LineFileReader, RecordProblem, decode_utf8, failure, open_input
from anonymed.io.shards import Shard, byte_shard, numbered
from anonymed.labels import PHYSIONET_LABELS

START = b"START_OF_RECORD="
END = b"||||END_OF_RECORD"
SEP = "||||"

#: (PID, NOTE) -> gold phrases (start, end, category, text)
Phrases = dict[tuple[str, str], list[tuple[int, int, str, str]]]


def load_phrases(path: Path) -> Phrases:
    """The gold phrase file as a dict (it is small); a malformed line is an ``InputError`` naming it."""
    phrases: Phrases = defaultdict(list)
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            parts = line.rstrip("\r\n").split(" ", 5)
            if len(parts) != 6 or not (parts[2].isdigit() and parts[3].isdigit()):
                raise InputError(f"{path.name} line {number}", "malformed gold phrase line")
            pid, note, start, end, category, text = parts
            phrases[(pid, note)].append((int(start), int(end), category, text))
    return phrases


@dataclass
class _Raw:
    line: int
    pid: str | None = None
    note: str | None = None
    chunks: list[bytes] = field(default_factory=list)
    problem: str | None = None

    @property
    def id(self) -> str:
        return f"{self.pid}-{self.note}" if self.pid else f"line {self.line}"


def _header(line: bytes, number: int) -> _Raw:
    parts = line[len(START) :].rstrip(b"\r\n").split(SEP.encode())
    if len(parts) != 3 or not parts[0].strip() or not parts[1].strip() or parts[2].strip():
        return _Raw(number, problem="malformed START_OF_RECORD header")
    try:
        return _Raw(number, parts[0].decode("ascii").strip(), parts[1].decode("ascii").strip())
    except UnicodeDecodeError:
        return _Raw(number, problem="malformed START_OF_RECORD header")


def _raw_records(lines: Iterable[bytes]) -> Iterator[_Raw]:
    current: _Raw | None = None
    for number, line in enumerate(lines, start=1):
        if line.startswith(START):
            if current is not None:
                current.problem = current.problem or "no END_OF_RECORD before the next record"
                yield current
            current = _header(line, number)
        elif current is None:
            if line.strip():
                yield _Raw(number, problem="text outside a record")
        elif (cut := line.find(END)) >= 0:
            current.chunks.append(line[:cut])
            yield current
            current = None
        else:
            current.chunks.append(line)
    if current is not None:
        current.problem = current.problem or "the file ends inside the record"
        yield current


class PhysionetReader(LineFileReader):
    """Streams ``id.text`` (given itself or as its folder) with gold spans via ``PHYSIONET_LABELS``.

    The id is ``<PID>-<NOTE>``; metadata holds ``patient_id`` (PID) and ``note`` (NOTE). Gold comes from
    ``<stem>-phi.phrase`` next to the text file when it exists; a phrase that does not slice to its
    stated text fails that record.
    """

    format = "physionet-deid"
    range_kind = "physionet"

    def __init__(self, path: Path, *, lang: str = "en") -> None:
        super().__init__(Path(path), lang=lang)
        self.text_path = self.path / "id.text" if self.path.is_dir() else self.path
        self.phrase_path = self.text_path.with_name(f"{self.text_path.stem}-phi.phrase")

    @property
    def source(self) -> Path:
        """The ``id.text`` file."""
        return self.text_path

    def read_lines(
        self, lines: Iterable[bytes], first_line: int = 1, first_index: int = 0
    ) -> Iterator[Record]:
        """The records of ``id.text`` lines, the first being line ``first_line``, record ``first_index``."""
        phrases = load_phrases(self.phrase_path) if self.phrase_path.is_file() else {}
        for index, raw in enumerate(_raw_records(lines), start=first_index):
            raw.line += first_line - 1  # line numbers of the whole file (ids of headerless records)
            try:
                record: Record = self._document(raw, phrases)
            except (RecordProblem, SpanError) as problem:
                record = failure(index, raw.id, problem)
            yield record

    def plan_shards(self, size: int) -> Iterator[Shard]:
        """Byte ranges cut before a record header once ``size`` records are in, where none is open."""
        return numbered(_plan_records(self.text_path, size))

    def _document(self, raw: _Raw, phrases: Phrases) -> Document:
        if raw.problem is not None or raw.pid is None or raw.note is None:
            raise RecordProblem(raw.problem or "malformed record")
        body = decode_utf8(b"".join(raw.chunks))
        gold = tuple(_gold_span(body, *phrase) for phrase in phrases.get((raw.pid, raw.note), ()))
        metadata = {"patient_id": raw.pid, "note": raw.note, "lang": self.lang}
        return Document(raw.id, body, metadata, gold=gold)


def _plan_records(path: Path, size: int) -> Iterator[dict[str, Any]]:
    """Byte ranges of about ``size`` records of ``id.text``, cut only where no record is open."""
    start = offset = index = count = first_index = 0
    first_line = 1
    open_record = False
    with open_input(path) as lines:
        for number, line in enumerate(lines, start=1):
            if line.startswith(START):
                if open_record:  # the previous record had no end: it ends here
                    index, count = index + 1, count + 1
                elif count >= size:
                    yield byte_shard("physionet", start, offset, first_index, first_line, count)
                    start, first_line, first_index, count = offset, number, index, 0
                open_record = True
            elif (not open_record and line.strip()) or (open_record and END in line):
                index, count = index + 1, count + 1
                open_record = False
            offset += len(line)
    if open_record:  # the file ends inside a record: still one record
        count += 1
    if count:
        yield byte_shard("physionet", start, offset, first_index, first_line, count)


def _gold_span(body: str, start: int, end: int, category: str, text: str) -> Span:
    if category not in PHYSIONET_LABELS:
        raise RecordProblem(f"unknown gold category {category!r} at offsets {start}-{end}")
    if body[start:end] != text:
        raise RecordProblem(f"gold span {start}-{end} ({category}) does not match the body")
    label, subtype = PHYSIONET_LABELS[category]
    return Span.of(body, start, end, label, subtype=subtype)


class PhysionetWriter(FileWriter):
    """Writes ``id.text``-style records with anonymized bodies (``<path>/id.text`` for a folder).

    A path without extension is taken as a folder. PID and NOTE come from the metadata (else the id
    ``PID-NOTE``, else the id and the record's position).
    A failed record keeps its header and gets the body ``anonymed_error: <reason>``.
    """

    format = "physionet-deid"

    def __init__(self, path: Path) -> None:
        path = Path(path)
        super().__init__(path / "id.text" if path.is_dir() or not path.suffix else path)

    def format_document(self, doc: Document) -> str:
        """One record with the anonymized body."""
        pid, note = doc.metadata.get("patient_id"), doc.metadata.get("note")
        if pid is None or note is None:
            pid, note = self._split(doc.id)
        return self._record(doc.id, str(pid), str(note), doc.result)

    def format_failure(self, failure: ReadFailure) -> str:
        """One record whose body names the failure."""
        pid, note = self._split(failure.record_id)
        return self._record(failure.record_id, pid, note, f"anonymed_error: {failure.reason}\n")

    def _split(self, rid: str) -> tuple[str, str]:
        pid, sep, note = rid.partition("-")
        return (pid, note) if sep and pid and note else (rid, str(self.count + 1))

    @staticmethod
    def _record(rid: str, pid: str, note: str, body: str) -> str:
        if SEP in pid or SEP in note or "\n" in pid + note:
            raise OutputError(f"record {rid!r}: patient or note id cannot hold '||||' or a line break")
        if END.decode() in body or f"\n{START.decode()}" in f"\n{body}":
            raise OutputError(f"record {rid!r}: the body holds a record marker")
        return f"{START.decode()}{pid}{SEP}{note}{SEP}\n{body}{END.decode()}\n\n"
