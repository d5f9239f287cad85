"""Readers on hostile bytes: only documents, failure records or documented errors; shards lose nothing."""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hardening_inputs import files, texts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anonymed.document import Document
from anonymed.errors import AnonymedError
from anonymed.io.base import ReadFailure, Record
from anonymed.io.registry import open_reader
from anonymed.runner.shards import ReaderSpec, plan_shards

#: a name that must never appear in a failure reason (reasons carry offsets and names, never text)
PLANTED = "Quackenbush"

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: format -> file name the bytes are written to
FILE_FORMATS = {
    "jsonl": "in.jsonl",
    "csv": "in.csv",
    "physionet-deid": "id.text",
    "eds-pseudo": "in.jsonl",
    "presidio": "in.json",
    "txt": "in.txt",
}


def read_all(path: Path, fmt: str) -> list[Record]:
    """Every record of the input, or a documented error (``AnonymedError``), nothing else."""
    try:
        records = list(open_reader(path, fmt))
    except AnonymedError as exc:
        assert PLANTED not in str(exc)
        return []
    for record in records:
        assert isinstance(record, Document | ReadFailure)
        if isinstance(record, ReadFailure):
            assert PLANTED not in record.reason
    return records


def _key(record: Record) -> tuple[object, ...]:
    if isinstance(record, ReadFailure):
        return ("failure", record.index, record.record_id, record.reason)
    return ("document", record.id, record.text, dict(record.metadata), record.gold)


@pytest.mark.parametrize("fmt", sorted(FILE_FORMATS))
@SETTINGS
@given(data=files)
def test_any_bytes_give_records_or_a_documented_error(fmt: str, data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / FILE_FORMATS[fmt]
        path.write_bytes(data)
        read_all(path, fmt)


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "physionet-deid"])
@SETTINGS
@given(data=files, size=st.integers(1, 4))
def test_shards_of_any_bytes_give_exactly_the_whole_read(fmt: str, data: bytes, size: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / FILE_FORMATS[fmt]
        path.write_bytes(data)
        whole = read_all(path, fmt)
        if not whole:
            return
        spec = ReaderSpec.of(path, fmt)
        plan = plan_shards(spec, size)
        sharded = [record for shard in plan.shards for record in spec.open().read_shard(shard)]
        assert [_key(r) for r in sharded] == [_key(r) for r in whole]
        assert plan.documents == len(whole)


@SETTINGS
@given(notes=st.lists(st.one_of(files, texts.map(str.encode)), max_size=6))
def test_a_txt_folder_gives_one_record_per_file_in_order(notes: list[bytes]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "notes"
        root.mkdir()
        for i, data in enumerate(notes):
            (root / f"n{i:02d}.txt").write_bytes(data)
        records = read_all(root, "txt")
        ids = [r.id if isinstance(r, Document) else r.record_id for r in records]
        assert ids == [f"n{i:02d}" for i in range(len(notes))]


def _parquet_bytes() -> bytes:
    table = pa.table(
        {
            "id": ["a", "b", "c", "d", "e"],
            "text": ["Mr. Zebulon Quackenbush", "02/12/2020", "", "née", "x" * 40],
            "n": [1, 2, 3, 4, 5],
        }
    )
    buffer = io.BytesIO()
    pq.write_table(table, buffer, row_group_size=2)
    return buffer.getvalue()


PARQUET = _parquet_bytes()


@SETTINGS
@given(
    changes=st.lists(st.tuples(st.integers(0, len(PARQUET) - 1), st.integers(0, 255)), min_size=1, max_size=4)
)
def test_a_damaged_parquet_file_gives_records_or_a_documented_error(changes: list[tuple[int, int]]) -> None:
    data = bytearray(PARQUET)
    for position, value in changes:
        data[position] = value
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "in.parquet"
        path.write_bytes(bytes(data))
        records = read_all(path, "parquet")
        if records:  # whatever the damage, a readable footer's row count is kept: no row is lost
            meta = pq.ParquetFile(path).metadata
            assert len(records) == sum(max(0, meta.row_group(i).num_rows) for i in range(meta.num_row_groups))


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        # a JSON escape of a lone surrogate is not Unicode: no writer could encode it (crashed the writer)
        (b'{"id": "a", "text": "x\\ud800y"}\n', "lone surrogate escape in a JSON string (character 1)"),
        # a lone surrogate in another field would reach the writer the same way
        (b'{"id": "a", "text": "x", "note": ["\\uDFFF"]}\n', "lone surrogate escape in a JSON string"),
        # nesting deeper than Python's recursion limit raised RecursionError out of the reader
        (b'{"id": "a", "text": ' + b"[" * 100_000 + b"\n", "malformed JSON (nested too deeply)"),
    ],
)
def test_json_lines_that_crashed_now_fail_alone(tmp_path: Path, data: bytes, reason: str) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(data + b'{"id": "b", "text": "fine \\ud83d\\ude00"}\n')
    first, second = read_all(path, "jsonl")
    assert isinstance(first, ReadFailure) and first.reason.startswith(reason)
    assert isinstance(second, Document) and second.text == "fine \U0001f600"  # a surrogate pair is fine


def test_a_parquet_file_that_is_not_parquet_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "in.parquet"
    path.write_bytes(b'{"id": 1, "text": "x"}\n')  # raised pyarrow's ArrowInvalid before
    with pytest.raises(AnonymedError, match="cannot open Parquet input"):
        list(open_reader(path))


def test_a_parquet_row_with_bytes_that_are_not_utf8_fails_alone(tmp_path: Path) -> None:
    data = bytearray(PARQUET)
    position = data.index(b"02/12/2020")
    data[position] = 0xFF  # raised UnicodeDecodeError out of the reader before
    path = tmp_path / "in.parquet"
    path.write_bytes(bytes(data))
    records = read_all(path, "parquet")
    kinds = [type(r).__name__ for r in records]
    assert kinds == ["Document", "ReadFailure", "Document", "Document", "Document"]
    assert records[1] == ReadFailure(1, "2", "a string cell is not valid UTF-8")


def test_a_csv_without_header_does_not_echo_its_first_row(tmp_path: Path) -> None:
    path = tmp_path / "in.csv"
    path.write_text(f"1,Mr. Zebulon {PLANTED} seen today\n", encoding="utf-8")
    with pytest.raises(AnonymedError) as caught:
        list(open_reader(path))
    assert PLANTED not in str(caught.value) and "2 columns" in str(caught.value)
