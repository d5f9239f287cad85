"""The CSV reader: text and id columns, other columns carried, one failure per bad row."""

from __future__ import annotations

from pathlib import Path

import pytest

from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.io.base import ReadFailure, Record
from anonymed.io.csv_io import CsvReader


def read(path: Path, data: bytes, **options: str) -> list[Record]:
    path.write_bytes(data)
    return list(CsvReader(path, **options))  # type: ignore[arg-type]


def test_text_id_and_other_columns_are_read(tmp_path: Path) -> None:
    data = b'id,ward,text,patient_id\nn1,B,"hello, world\nsecond line",p9\nn2,C,bye,\n'
    records = read(tmp_path / "in.csv", data)
    assert [(r.id, r.text) for r in records if isinstance(r, Document)] == [
        ("n1", "hello, world\nsecond line"),
        ("n2", "bye"),
    ]
    first = records[0]
    assert isinstance(first, Document)
    assert first.metadata["record"] == {"id": "n1", "ward": "B", "patient_id": "p9"}
    assert first.patient_id == "p9" and records[1].patient_id is None  # type: ignore[union-attr]


def test_chosen_columns_and_row_number_ids(tmp_path: Path) -> None:
    records = read(tmp_path / "in.csv", b"note,other\r\nfirst,x\r\n\r\nsecond,y\r\n", text_field="note")
    assert [(r.id, r.text) for r in records if isinstance(r, Document)] == [("1", "first"), ("2", "second")]


def test_columns_are_the_header(tmp_path: Path) -> None:
    path = tmp_path / "in.csv"
    path.write_bytes(b"\xef\xbb\xbfid,text,extra\n1,a,b\n")
    assert CsvReader(path).columns == ("id", "text", "extra")


@pytest.mark.parametrize(
    ("row", "reason"),
    [
        (b"x,Jean Dupont", "row has 2 fields, the header has 3"),  # short row: no 'extra' cell
        (b"x", "row has 1 fields, the header has 3"),  # short row: no text cell at all
        (b"x,Jean Dupont,e,f", "row has 4 fields, the header has 3"),  # long row
        (b"x,Jean Dupont \xe9,e", "not valid UTF-8 in column 2"),  # Latin-1 byte in the text (by position)
    ],
)
def test_bad_row_fails_alone_and_reading_goes_on(tmp_path: Path, row: bytes, reason: str) -> None:
    data = b"id,text,extra\na,before,1\n" + row + b"\nc,after,3\n"
    records = read(tmp_path / "in.csv", data)
    assert [type(r).__name__ for r in records] == ["Document", "ReadFailure", "Document"]
    bad = records[1]
    assert isinstance(bad, ReadFailure)
    assert (bad.index, bad.record_id, bad.reason) == (1, "x", reason)


def test_header_without_the_text_column_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="text column 'text' not in the header"):
        read(tmp_path / "in.csv", b"id,body\n1,a\n")


def test_empty_text_cell_is_a_document(tmp_path: Path) -> None:
    [doc] = read(tmp_path / "in.csv", b'id,text\n1,""\n')
    assert isinstance(doc, Document) and doc.text == ""


def test_ten_megabyte_cell_is_read_whole(tmp_path: Path) -> None:
    text = "word " * (2 * 1024 * 1024)
    [doc] = read(tmp_path / "in.csv", b"id,text\nbig," + text.encode("ascii") + b"\n")
    assert isinstance(doc, Document) and doc.text == text


def test_empty_file_has_no_records(tmp_path: Path) -> None:
    assert read(tmp_path / "in.csv", b"") == []
