"""Parquet in and out: row groups streamed, columns carried, failures kept, output atomic."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.io.base import ReadFailure
from anonymed.io.parquet import ParquetReader, ParquetWriter
from anonymed.io.registry import guess_format, open_reader, open_writer


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    table = pa.table(
        {
            "note_id": pa.array([10, 11, 12, 13], pa.int64()),
            "patient_id": ["p1", "p1", None, "p2"],
            "body": ["Seen by Dr Smith.", "Call 617-555-1234.", None, "Fine."],
            "ward": ["icu", "icu", "er", "er"],
        }
    )
    path = tmp_path / "notes.parquet"
    pq.write_table(table, path, row_group_size=3)
    return path


def test_reader_gives_documents_with_other_columns_as_the_record(notes: Path) -> None:
    records = list(ParquetReader(notes, text_field="body", id_field="note_id"))
    first = records[0]
    assert isinstance(first, Document)
    assert (first.id, first.text, first.patient_id) == ("10", "Seen by Dr Smith.", "p1")
    assert dict(first.metadata["record"]) == {"note_id": 10, "patient_id": "p1", "ward": "icu"}
    assert records[2] == ReadFailure(2, "12", "text column 'body' holds a null, not a string")
    assert len(records) == 4


def test_row_groups_can_be_read_on_their_own_with_their_file_positions(notes: Path) -> None:
    reader = ParquetReader(notes, text_field="body", id_field="note_id")
    assert reader.row_group_rows == (3, 1)
    (last,) = reader.iter_row_groups(1, 2)
    assert isinstance(last, Document) and last.id == "13"


def test_a_missing_text_column_is_a_config_error_naming_the_columns(notes: Path) -> None:
    with pytest.raises(ConfigError, match=r"text column 'text' not in 'notes.parquet'"):
        list(ParquetReader(notes))


def test_round_trip_keeps_schema_and_order_and_marks_failures(notes: Path, tmp_path: Path) -> None:
    reader = open_reader(notes, text_field="body", id_field="note_id")
    out = tmp_path / "out.parquet"
    with open_writer(out, like=reader) as writer:
        for record in reader:
            if isinstance(record, Document):
                writer.write(record.evolve(output=record.text.upper()))
            else:
                writer.write_failure(record)
    table = pq.read_table(out)
    assert table.schema.names == ["note_id", "patient_id", "body", "ward", "anonymed_error"]
    assert table.column("note_id").to_pylist() == [10, 11, 12, 13]  # the failure keeps its integer id
    assert table.column("body").to_pylist() == ["SEEN BY DR SMITH.", "CALL 617-555-1234.", None, "FINE."]
    assert table.column("anonymed_error").to_pylist()[2] == "text column 'body' holds a null, not a string"


def test_writer_infers_a_schema_from_documents_of_another_format(tmp_path: Path) -> None:
    out = tmp_path / "out.parquet"
    writer = ParquetWriter(out, row_group_rows=2)
    with writer:
        writer.write(Document("a", "one", {"record": {"id": "a", "ward": None}}))
        writer.write(Document("b", "two", {"record": {"id": "b", "ward": "er"}}))
        writer.write(Document("c", "three"))  # no record: id and text only
        writer.write_failure(ReadFailure(3, "d", "malformed JSON"))
    table = pq.read_table(out)
    assert table.column("ward").to_pylist() == [None, "er", None, None]  # all-null first group: strings
    assert table.column("text").to_pylist() == ["one", "two", "three", None]
    assert pq.ParquetFile(out).metadata.num_row_groups == 2


def test_an_empty_output_is_a_valid_file_with_id_and_text(tmp_path: Path) -> None:
    out = tmp_path / "empty.parquet"
    with ParquetWriter(out):
        pass
    assert pq.read_table(out).schema.names == ["id", "text", "anonymed_error"]


def test_an_aborted_output_leaves_nothing(tmp_path: Path) -> None:
    out = tmp_path / "out.parquet"
    with pytest.raises(RuntimeError), ParquetWriter(out, row_group_rows=1) as writer:
        writer.write(Document("a", "one"))
        raise RuntimeError("stop")
    assert list(tmp_path.iterdir()) == []


def test_the_extension_names_the_format(tmp_path: Path) -> None:
    assert guess_format(tmp_path / "x.parquet") == "parquet"
    assert guess_format(tmp_path / "x.parquet", output=True) == "parquet"
