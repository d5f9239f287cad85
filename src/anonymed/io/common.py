"""Helpers shared by the readers: opening inputs, per-record decoding, metadata pick-up, failures."""

from __future__ import annotations

import codecs
import json
import re
from abc import abstractmethod
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO, ClassVar

from anonymed.document import LONE_SURROGATE
from anonymed.errors import ConfigError, InputFileError
from anonymed.io.base import Reader, ReadFailure, Record
from anonymed.io.shards import Shard, byte_range
from anonymed.labels import LabelPair

#: record fields copied into ``Document.metadata`` when present (and not empty)
METADATA_FIELDS = ("patient_id", "lang", "reference_date")

#: the key of the placeholder that writers put in place of a failed record
ERROR_KEY = "anonymed_error"

#: a JSON ``\\uD800``-``\\uDFFF`` escape: the only way a lone surrogate (not Unicode, not writable as UTF-8)
#: gets into a parsed string
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class RecordProblem(Exception):
    """Why one record cannot be read; readers turn it into a ``ReadFailure`` and go on."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def open_input(path: Path) -> BinaryIO:
    """Open an input file for binary reading; an unreadable input is an ``InputError`` naming it."""
    try:
        return path.open("rb")
    except OSError as exc:
        raise InputFileError(path.name, f"cannot open input: {exc.strerror or type(exc).__name__}") from None


#: the encoding of every input unless ``--encoding`` says otherwise (strict: a bad byte fails its record)
UTF8 = "utf-8"


def text_encoding(name: str) -> str:
    """The codec name of ``name``; ``ConfigError`` for an unknown one or one that is not ASCII-compatible
    (records are split on ASCII newlines, quotes and commas before they are decoded)."""
    try:
        codec = codecs.lookup(name).name
    except LookupError:
        raise ConfigError(f"unknown encoding {name!r} (e.g. utf-8, latin-1, cp1252)") from None
    probe = '\n\r",{}:abcAZ09'
    if probe.encode(codec, errors="replace") != probe.encode("ascii"):
        raise ConfigError(f"encoding {name!r} is not ASCII-compatible: convert the input to UTF-8 first")
    return codec


def decode_utf8(data: bytes, *, first: bool = False, encoding: str = UTF8) -> str:
    """Decode one record's bytes (dropping a byte-order mark at the start of a file when ``first``)."""
    if encoding != UTF8:
        try:
            return data.decode(encoding)
        except UnicodeDecodeError as exc:
            raise RecordProblem(f"not valid {encoding} (byte offset {exc.start})") from None
    if first and data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordProblem(f"not valid UTF-8 (byte offset {exc.start})") from None


def json_type(value: Any) -> str:
    """The JSON name of a parsed value's type (for reasons: never the value itself)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def gold_entity(
    item: Any, what: str, keys: tuple[str, str, str], labels: Mapping[str, LabelPair]
) -> tuple[int, int, str, LabelPair]:
    """Start, end, name and mapped label of one gold entity ``item`` (a JSON object with ``keys``).

    ``what`` names the item in reasons ("entity", "span"); reasons give types, keys and offsets, never text.
    """
    if not isinstance(item, dict):
        raise RecordProblem(f"{what} is a JSON {json_type(item)}, not an object")
    start, end, name = (item.get(key) for key in keys)
    if not (isinstance(start, int) and isinstance(end, int) and isinstance(name, str)):
        raise RecordProblem(f"{what} needs integer {keys[0]} and {keys[1]} and a string {keys[2]}")
    if name not in labels:
        raise RecordProblem(f"unknown gold {keys[2].replace('_', ' ')} {name!r} at offsets {start}-{end}")
    return start, end, name, labels[name]


def parse_json(line: str) -> Any:
    """Parse one JSON value; a syntax error becomes a ``RecordProblem`` with its position only."""
    try:
        value = json.loads(line)
    except json.JSONDecodeError as exc:
        reason = exc.msg.removesuffix(" starting at").removesuffix(" at")  # "Unterminated string starting at"
        raise RecordProblem(f"malformed JSON ({reason} at column {exc.colno})") from None
    except RecursionError:
        raise RecordProblem("malformed JSON (nested too deeply)") from None
    if _SURROGATE_ESCAPE.search(line):
        check_unicode(value)
    return value


def _strings(value: Any) -> list[str]:
    """Every string (keys included) in a parsed JSON value, without recursion."""
    found: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            found.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def check_unicode(value: Any) -> None:
    """Refuse a parsed JSON value holding a lone surrogate (a ``\\uD800`` escape without its pair).

    Such a string is not Unicode text: no writer could encode it as UTF-8, so the record fails here.
    """
    for text in _strings(value):
        found = LONE_SURROGATE.search(text)
        if found is not None:
            raise RecordProblem(f"lone surrogate escape in a JSON string (character {found.start()})")


def record_id(value: Any, field: str, default: str) -> str:
    """A record id from a string or integer field; ``default`` (its number) when the field is absent."""
    if value is None or value == "":
        return default
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise RecordProblem(f"id field {field!r} is a JSON {json_type(value)}, not a string or integer")


def pick_metadata(fields: Mapping[str, Any], lang: str, patient_field: str = "patient_id") -> dict[str, Any]:
    """``lang`` (the record's, else the reader's), ``patient_id`` (from ``patient_field``) and
    ``reference_date`` when present."""
    sources = {name: patient_field if name == "patient_id" else name for name in METADATA_FIELDS}
    picked = {name: fields[src] for name, src in sources.items() if fields.get(src) not in (None, "")}
    picked.setdefault("lang", lang)
    return picked


def failure(index: int, rid: str, problem: Exception) -> ReadFailure:
    """The ``ReadFailure`` for a record problem (its reason carries offsets and names, never text)."""
    reason = problem.reason if isinstance(problem, RecordProblem) else str(problem)
    return ReadFailure(index, rid, reason)


def dumps(value: Any) -> str:
    """Compact JSON on one line, non-ASCII kept as is."""
    return json.dumps(value, ensure_ascii=False)


class LineFileReader(Reader):
    """A reader of one line-based file (JSON Lines, PhysioNet) whose shards are byte ranges of ``source``."""

    #: the kind of the shards this reader plans
    range_kind: ClassVar[str]

    def __iter__(self) -> Iterator[Record]:
        with open_input(self.source) as lines:
            yield from self.read_lines(lines)

    @abstractmethod
    def read_lines(
        self, lines: Iterable[bytes], first_line: int = 1, first_index: int = 0
    ) -> Iterator[Record]:
        """The records of ``lines``, the first being line ``first_line`` and record ``first_index``."""

    def read_shard(self, shard: Shard) -> Iterator[Record]:
        """The records of one byte range, parsed as a whole read parses them."""
        if shard.kind != self.range_kind:
            return super().read_shard(shard)
        return self._read_range(shard)

    def _read_range(self, shard: Shard) -> Iterator[Record]:
        with open_input(self.source) as handle:
            lines = byte_range(handle, shard.start, shard.stop)
            yield from self.read_lines(lines, shard.first_line, shard.first_index)
