"""The JSON Lines reader: fields, ids, metadata, and one failure per bad line."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anonymed.document import Document
from anonymed.io.base import ReadFailure, Record
from anonymed.io.jsonl import JsonlReader

SECRET = "Jean Dupont"


def write_lines(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def dump(obj: object) -> bytes:
    return json.dumps(obj).encode("utf-8")


def read(path: Path, **options: str) -> list[Record]:
    return list(JsonlReader(path, **options))  # type: ignore[arg-type]


def test_text_id_and_other_fields_are_read(tmp_path: Path) -> None:
    obj = {
        "id": "n1",
        "text": "hello",
        "patient_id": 7,
        "lang": "fr",
        "reference_date": "2020-01-02",
        "ward": "B",
    }
    [doc] = read(write_lines(tmp_path / "in.jsonl", [dump(obj)]))
    assert isinstance(doc, Document)
    assert (doc.id, doc.text, doc.lang, doc.patient_id) == ("n1", "hello", "fr", "7")
    assert doc.metadata["reference_date"] == "2020-01-02"
    assert doc.metadata["record"] == {
        "id": "n1",
        "patient_id": 7,
        "lang": "fr",
        "reference_date": "2020-01-02",
        "ward": "B",
    }


def test_configured_fields_and_line_number_ids(tmp_path: Path) -> None:
    lines = [dump({"body": "first"}), b"", dump({"body": "third", "key": 42})]
    records = read(write_lines(tmp_path / "in.jsonl", lines), text_field="body", id_field="key")
    assert [(r.id, r.text) for r in records if isinstance(r, Document)] == [("1", "first"), ("42", "third")]
    assert records[0].lang == "en"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b'{"id": "x", "text": "Jean Dupont"', "malformed JSON"),  # truncated object
        (b'["Jean Dupont"]', "line holds a JSON array, not an object"),  # an array, not an object
        (b'"Jean Dupont"', "line holds a JSON string, not an object"),  # a bare string
        (b'{"id": "x", "note": "Jean Dupont"}', "missing text field 'text'"),  # no text field
        (
            b'{"id": "x", "text": ["Jean Dupont"]}',
            "text field 'text' is a JSON array, not a string",
        ),  # wrong type
        (b'{"id": {"a": 1}, "text": "Jean Dupont"}', "id field 'id' is a JSON object"),  # unusable id
        (b'{"id": "x", "text": "Jean Dupont \xe9"}', "not valid UTF-8 (byte offset 33)"),  # Latin-1 byte
    ],
)
def test_bad_line_fails_alone_and_reading_goes_on(tmp_path: Path, line: bytes, reason: str) -> None:
    lines = [dump({"id": "a", "text": "before"}), line, dump({"id": "c", "text": "after"})]
    records = read(write_lines(tmp_path / "in.jsonl", lines))
    assert [type(r).__name__ for r in records] == ["Document", "ReadFailure", "Document"]
    bad = records[1]
    assert isinstance(bad, ReadFailure)
    assert bad.index == 1 and bad.record_id in ("x", "2")
    assert reason in bad.reason and SECRET not in bad.reason


def test_empty_text_is_a_document(tmp_path: Path) -> None:
    [doc] = read(write_lines(tmp_path / "in.jsonl", [dump({"id": "e", "text": ""})]))
    assert isinstance(doc, Document) and doc.text == ""


def test_ten_megabyte_note_is_read_whole(tmp_path: Path) -> None:
    text = "word " * (2 * 1024 * 1024)
    [doc] = read(write_lines(tmp_path / "in.jsonl", [dump({"id": "big", "text": text})]))
    assert isinstance(doc, Document) and doc.text == text


def test_byte_order_mark_on_the_first_line_is_dropped(tmp_path: Path) -> None:
    [doc] = read(write_lines(tmp_path / "in.jsonl", [b"\xef\xbb\xbf" + dump({"id": "b", "text": "t"})]))
    assert isinstance(doc, Document) and doc.id == "b"


@given(st.text(alphabet=st.characters(categories=["L", "Zs"]), min_size=3, max_size=30))
def test_failure_reasons_never_carry_the_note_text(body: str) -> None:
    # a malformed line whose only content is the note text (marked by a non-ASCII first letter)
    text = "Ж" + body
    with tempfile.TemporaryDirectory() as folder:
        path = write_lines(Path(folder) / "in.jsonl", [b'{"text": "' + text.encode("utf-8")])
        [bad] = read(path)
    assert isinstance(bad, ReadFailure) and text not in bad.reason
