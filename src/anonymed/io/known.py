"""Known identifiers from the input record: fields mapped to kinds (``[known.fields]``) become the document's
``metadata["known"]`` (the shared contract), and leave the record so that writers do not copy them.

A field is looked for among the record's fields (JSON Lines, CSV and Parquet columns) and then in a
Presidio record's ``metadata`` object. A value may be a string, a number or a list of them (each one a
value). A side file keyed by patient id (CSV with a header, or JSON Lines) gives the same fields for
records that do not carry them: its rows are mapped through the same table and attached to every document
of that patient; a side file's ``known`` field may also hold a list in the contract's form (the patient
memory ``anonymed detect --memory`` writes, ``io/memory.py``). Known values are secrets: errors name
fields, files and lines, never a value.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from anonymed.document import Document
from anonymed.errors import ConfigError, InputError
from anonymed.known import Known, known_item, known_items, parse_kind

#: the record field a Presidio record keeps its metadata in
PRESIDIO_METADATA: Final = "metadata"
#: a side file's field holding known identifiers in the contract's form
SIDE_KNOWN: Final = "known"


@dataclass(frozen=True)
class KnownFields:
    """Which record fields hold known identifiers, and what happens to them.

    ``fields``: field name -> kind (``NAME/patient``...); ``side_file``: a file of the same fields keyed by
    ``side_key`` (the documents' ``patient_id``); ``keep_fields``: copy the fields to the output (off:
    they are removed from the record).
    """

    fields: Mapping[str, str] = field(default_factory=dict)
    side_file: str | None = None
    side_key: str = "patient_id"
    keep_fields: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.fields, Mapping):
            raise ConfigError("[known] fields must be a table of field = kind")
        for name, kind in self.fields.items():
            parse_kind(kind, f"[known.fields] {name}")
        object.__setattr__(self, "fields", MappingProxyType(dict(self.fields)))

    def __bool__(self) -> bool:
        return bool(self.fields) or self.side_file is not None

    def __reduce__(self) -> tuple[Any, ...]:  # a read-only mapping does not pickle: rebuild from a dict
        return KnownFields, (dict(self.fields), self.side_file, self.side_key, self.keep_fields)


def _values(raw: Any, name: str) -> Iterator[Any]:
    items = raw if isinstance(raw, list | tuple) else [raw]
    for item in items:
        if isinstance(item, dict | list | tuple):
            raise ConfigError(f"known field {name!r} holds a nested {type(item).__name__}, not a value")
        if item is not None and item != "":
            yield item


def take_known(record: Mapping[str, Any], fields: Mapping[str, str]) -> tuple[list[Known], dict[str, Any]]:
    """The known identifiers of ``record``'s mapped fields, and the record without those fields."""
    rest = dict(record)
    nested = rest.get(PRESIDIO_METADATA)
    inner = dict(nested) if isinstance(nested, Mapping) else None
    found: list[Known] = []
    for name, kind in fields.items():
        if name in rest:
            raw = rest.pop(name)
        elif inner is not None and name in inner:
            raw = inner.pop(name)
        else:
            continue
        for value in _values(raw, name):
            item = known_item({"kind": kind, "value": value}, f"known field {name!r}")
            if item is not None:
                found.append(item)
    if inner is not None:
        rest[PRESIDIO_METADATA] = inner
    return found, rest


def _side_rows(path: Path) -> Iterator[tuple[int, Mapping[str, Any]]]:
    try:
        content = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not valid UTF-8"
        raise ConfigError(f"cannot read known side file {str(path)!r}: {reason}") from None
    if path.suffix.lower() == ".csv":
        reader = csv.DictReader(io.StringIO(content))
        try:
            for row in reader:
                yield reader.line_num, row
        except csv.Error as exc:
            raise ConfigError(f"known side file {path.name!r}: malformed CSV ({exc})") from None
        return
    for number, line in enumerate(content.splitlines(), start=1):
        if line.strip():
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                where = f"known side file {path.name!r} line {number}"
                raise ConfigError(f"{where}: malformed JSON ({exc.msg})") from None
            if not isinstance(row, dict):
                raise ConfigError(f"known side file {path.name!r} line {number}: not a JSON object")
            yield number, row


def read_side_file(path: Path | str, fields: KnownFields) -> Mapping[str, tuple[Known, ...]]:
    """Patient id -> the known identifiers of the side file's rows for that patient."""
    path = Path(path)
    by_patient: dict[str, list[Known]] = {}
    for line, row in _side_rows(path):
        key = row.get(fields.side_key)
        if key is None or key == "":
            raise ConfigError(f"known side file {path.name!r} line {line}: no {fields.side_key!r} value")
        try:
            found, _ = take_known(row, fields.fields)
            found += known_items(row.get(SIDE_KNOWN) or (), owner=f"field {SIDE_KNOWN!r}")
        except ConfigError as exc:
            raise ConfigError(f"known side file {path.name!r} line {line}: {exc}") from None
        by_patient.setdefault(str(key), []).extend(found)
    return MappingProxyType({key: known_items(items) for key, items in by_patient.items()})


def _holds_fields(record: Mapping[str, Any], fields: Mapping[str, str]) -> bool:
    nested = record.get(PRESIDIO_METADATA)
    return any(name in record or (isinstance(nested, Mapping) and name in nested) for name in fields)


def attach_known(
    doc: Document, fields: KnownFields, side: Mapping[str, tuple[Known, ...]] | None = None
) -> Document:
    """``doc`` with the known identifiers of its record (and of the side file) in ``metadata["known"]``;
    the mapped fields leave ``metadata["record"]`` unless ``keep_fields``. ``InputError`` names the record
    and the field of a bad value."""
    record = doc.metadata.get("record")
    patient = doc.patient_id
    extra = side.get(patient, ()) if side is not None and patient is not None else ()
    if not isinstance(record, Mapping) or not _holds_fields(record, fields.fields):
        record = None
    if record is None and not extra:
        return doc
    found: list[Known] = list(extra)
    metadata = dict(doc.metadata)
    if record is not None:
        try:
            taken, rest = take_known(record, fields.fields)
        except ConfigError as exc:
            raise InputError(doc.id, str(exc)) from None
        found += taken
        if not fields.keep_fields:
            metadata["record"] = rest
    if not found:
        return doc.evolve(metadata=metadata)
    try:
        existing = known_items(metadata.get("known") or ())
    except ConfigError as exc:
        raise InputError(doc.id, str(exc)) from None
    metadata["known"] = [item.to_json() for item in known_items([*existing, *found])]
    return doc.evolve(metadata=metadata)
