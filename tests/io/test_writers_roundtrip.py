"""Every writer: N records in, N out, in order, fields kept, anonymized text in, failures as placeholders."""

from __future__ import annotations

import csv
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from anonymed.document import Document
from anonymed.errors import OutputError
from anonymed.io.base import Reader, ReadFailure, Record
from anonymed.io.registry import open_reader, open_writer

FIXTURES = Path(__file__).parents[1] / "fixtures" / "io"
SECRET = "Jean Dupont"


def anonymize(doc: Document) -> Document:
    """A stand-in for the pipeline: the text becomes its upper-case, marked copy."""
    return doc.evolve(output=f"<{doc.text.upper()}>")


def run(reader: Reader, out: Path, fmt: str | None = None) -> list[Record]:
    """Read everything, write anonymized documents and failure placeholders; return what was read."""
    records = list(reader)
    with open_writer(out, fmt, like=reader) as writer:
        for record in records:
            if isinstance(record, Document):
                writer.write(anonymize(record))
            else:
                writer.write_failure(record)
    return records


def ids(records: list[Record]) -> list[str]:
    return [r.id if isinstance(r, Document) else r.record_id for r in records]


def texts(records: list[Record]) -> list[str]:
    return [r.text for r in records if isinstance(r, Document)]


def test_jsonl_round_trip_keeps_every_field_and_replaces_the_text(tmp_path: Path) -> None:
    lines: list[dict[str, Any]] = [
        {"key": 5, "body": "first", "patient_id": "p1", "extra": {"a": [1, 2]}},
        {"key": "b", "body": "", "lang": "fr"},
        {"body": "third"},
    ]
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    reader = open_reader(source, text_field="body", id_field="key")
    records = run(reader, tmp_path / "out.jsonl")
    out = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    assert out == [{**x, "body": f"<{x['body'].upper()}>"} for x in lines]
    again = list(open_reader(tmp_path / "out.jsonl", text_field="body", id_field="key"))
    assert ids(again) == ids(records) == ["5", "b", "3"]
    assert [d.metadata for d in again] == [d.metadata for d in records]  # type: ignore[union-attr]


def test_jsonl_failure_becomes_an_id_and_reason_placeholder(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_bytes(
        b'{"id": "a", "text": "ok"}\n{"id": "b", "text": "Jean Dupont\n{"id": "c", "text": "ok"}\n'
    )
    run(open_reader(source), tmp_path / "out.jsonl")
    out = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [x["id"] for x in out] == ["a", "2", "c"]
    assert set(out[1]) == {"id", "anonymed_error"} and out[1]["anonymed_error"].startswith("malformed JSON")
    assert SECRET not in (tmp_path / "out.jsonl").read_text(encoding="utf-8")


def test_csv_round_trip_keeps_columns_and_order_with_an_error_column(tmp_path: Path) -> None:
    source = tmp_path / "in.csv"
    source.write_bytes(b'ward,text,id\nB,"one, two\nthree",n1\nC,,n2\nD,Jean Dupont\nE,last,n4\n')
    records = run(open_reader(source), tmp_path / "out.csv")
    with (tmp_path / "out.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows == [
        ["ward", "text", "id", "anonymed_error"],
        ["B", "<ONE, TWO\nTHREE>", "n1", ""],
        ["C", "<>", "n2", ""],
        ["", "", "3", "row has 2 fields, the header has 3"],
        ["E", "<LAST>", "n4", ""],
    ]
    assert ids(records) == ["n1", "n2", "3", "n4"]


def test_csv_without_failures_has_exactly_the_input_columns(tmp_path: Path) -> None:
    source = tmp_path / "in.csv"
    source.write_bytes(b'ward,text,id\nB,"one, two\nthree",n1\nC,,n2\n')
    run(open_reader(source), tmp_path / "out.csv")
    with (tmp_path / "out.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows == [["ward", "text", "id"], ["B", "<ONE, TWO\nTHREE>", "n1"], ["C", "<>", "n2"]]


def test_csv_that_already_has_an_error_column_does_not_get_a_second(tmp_path: Path) -> None:
    source = tmp_path / "in.csv"
    source.write_bytes(b"id,text,anonymed_error\nn1,a,\nn2\n")
    run(open_reader(source), tmp_path / "out.csv")
    with (tmp_path / "out.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows == [
        ["id", "text", "anonymed_error"],
        ["n1", "<A>", ""],
        ["n2", "", "row has 1 fields, the header has 3"],
    ]


def test_txt_folder_round_trip_keeps_relative_names_and_lists_failures(tmp_path: Path) -> None:
    source = tmp_path / "in"
    (source / "sub").mkdir(parents=True)
    (source / "a.txt").write_text("alpha", encoding="utf-8")
    (source / "sub" / "b.txt").write_bytes(b"Jean \xe9")
    (source / "sub" / "c.txt").write_text("", encoding="utf-8")
    records = run(open_reader(source), tmp_path / "out")
    out = tmp_path / "out"
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [
        "_failures.jsonl",
        "a.txt",
        "sub/c.txt",
    ]
    assert (out / "a.txt").read_text(encoding="utf-8") == "<ALPHA>"
    assert (out / "sub" / "c.txt").read_text(encoding="utf-8") == "<>"
    [failure] = [json.loads(x) for x in (out / "_failures.jsonl").read_text(encoding="utf-8").splitlines()]
    assert failure == {"id": "sub/b", "index": 1, "anonymed_error": "not valid UTF-8 (byte offset 5)"}
    assert ids(records) == ["a", "sub/b", "sub/c"]


def test_txt_single_file_round_trip(tmp_path: Path) -> None:
    (tmp_path / "note.txt").write_text("hello", encoding="utf-8")
    run(open_reader(tmp_path / "note.txt"), tmp_path / "out.txt")
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == "<HELLO>"


def test_txt_single_file_cannot_hold_a_failure(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="single file"), open_writer(tmp_path / "out.txt") as writer:
        writer.write_failure(ReadFailure(0, "note", "not valid UTF-8 (byte offset 3)"))
    assert list(tmp_path.iterdir()) == []


def test_physionet_round_trip_keeps_headers_and_reads_back_the_anonymized_bodies(tmp_path: Path) -> None:
    records = run(open_reader(FIXTURES / "physionet"), tmp_path / "id.text")
    again = list(open_reader(tmp_path / "id.text"))
    assert ids(again) == ids(records) == ["1-1", "1-2", "11-1", "47-2"]
    assert texts(again) == [f"<{t.upper()}>" for t in texts(records)]
    assert [d.patient_id for d in again if isinstance(d, Document)] == ["1", "1", "11", "47"]


def test_physionet_failure_keeps_its_header_and_names_the_reason(tmp_path: Path) -> None:
    source = tmp_path / "in" / "id.text"
    source.parent.mkdir()
    source.write_bytes(b"START_OF_RECORD=2||||1||||\nJean \xe9\n||||END_OF_RECORD\n\n")
    run(open_reader(source), tmp_path / "out.text")
    written = (tmp_path / "out.text").read_text(encoding="utf-8")
    assert written == (
        "START_OF_RECORD=2||||1||||\nanonymed_error: not valid UTF-8 (byte offset 5)\n||||END_OF_RECORD\n\n"
    )


@pytest.mark.parametrize(
    ("fixture", "fmt", "name", "load"),
    [
        # EDS-Pseudo: JSON lines with note_id / note_text
        ("eds_pseudo.jsonl", "eds-pseudo", "out.jsonl", lambda t: [json.loads(x) for x in t.splitlines()]),
        # Presidio: one JSON list
        ("presidio.json", "presidio", "out.json", json.loads),
    ],
)
def test_gold_corpora_round_trip_without_their_original_gold(
    tmp_path: Path, fixture: str, fmt: str, name: str, load: Callable[[str], list[dict[str, object]]]
) -> None:
    records = run(open_reader(FIXTURES / fixture, fmt), tmp_path / name)
    items = load((tmp_path / name).read_text(encoding="utf-8"))
    assert len(items) == len(records) == 3
    assert not any("entities" in x or "spans" in x for x in items)
    again = list(open_reader(tmp_path / name, fmt))
    assert ids(again) == ids(records) and texts(again) == [f"<{t.upper()}>" for t in texts(records)]


def test_folder_input_written_as_jsonl_carries_ids(tmp_path: Path) -> None:
    shutil.copytree(FIXTURES / "physionet", tmp_path / "in")
    records = run(open_reader(tmp_path / "in"), tmp_path / "out.jsonl", "jsonl")
    out = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [x["id"] for x in out] == ids(records) and set(out[0]) == {"id", "text"}
