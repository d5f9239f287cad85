"""Shards: reading the shards of a plan in order gives exactly the records of the whole input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.io.base import Record
from anonymed.runner.shards import ReaderSpec, plan_shards

JSONL = (
    b'\xef\xbb\xbf{"id": "a", "text": "first, after a BOM"}\n'
    b"\n"  # blank: not a record, but it counts in line numbers
    b'{"text": "no id: the line number is the id", "patient_id": "p1"}\n'
    b"{not json\n"
    b"[1, 2]\n"
    b'{"id": 7, "text": "integer id"}\n'
    b'{"id": "b", "text": "bad \xff byte"}\n'
    b'{"id": "c", "text": 3}\n'
    b"   \n"
    b'{"id": "d", "text": "last, no newline"}'
)

CSV = (
    b"\xef\xbb\xbfid,text,patient_id\n"
    b'1,"a note\nover two lines",p1\n'
    b"\n"
    b'2,"bad \xff byte",p2\n'
    b"3,too,many,cells\n"
    b'4,"quoted ""word"" and, comma",p3\n'
    b"5,bare CR ends this row\r6,next row,p4\r\n"
    b',"no id",p5\n'
    b'7,"unclosed quote\n'
)

PHYSIONET = (
    "START_OF_RECORD=1||||1||||\nSeen by Dr Smith.\n||||END_OF_RECORD\n\n"
    "stray text outside a record\n"
    "START_OF_RECORD=1||||2||||\nno end marker\n"
    "START_OF_RECORD=2||||1||||\nCalled 617-555-1234.\n||||END_OF_RECORD\n"
    "START_OF_RECORD=broken header\nbody\n||||END_OF_RECORD\n"
    "START_OF_RECORD=3||||1||||\nThe file ends inside this record.\n"
)


def whole_and_sharded(spec: ReaderSpec, size: int) -> tuple[list[Record], list[Record]]:
    """The records of a whole-input read, and of the plan's shards read one after the other."""
    plan = plan_shards(spec, size)
    sharded = [record for shard in plan.shards for record in spec.open().read_shard(shard)]
    return list(spec.open()), sharded


@pytest.fixture
def txt_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    (folder / "sub").mkdir(parents=True)
    (folder / "b.txt").write_text("second note", encoding="utf-8")
    (folder / "a.txt").write_bytes(b"\xef\xbb\xbffirst note")
    (folder / "sub" / "c.txt").write_bytes(b"bad \xff byte")
    (folder / "sub" / "d.txt").write_text("fourth", encoding="utf-8")
    (folder / ".hidden.txt").write_text("skipped", encoding="utf-8")
    (folder / "notes.md").write_text("skipped", encoding="utf-8")
    return folder


@pytest.fixture
def parquet_file(tmp_path: Path) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({"id": ["r1", None, "r3", "r4", "r5"], "text": ["one", "two", None, "four", "five"]})
    path = tmp_path / "notes.parquet"
    pq.write_table(table, path, row_group_size=2)
    return path


@pytest.mark.parametrize("size", [1, 2, 3, 4, 1000])
@pytest.mark.parametrize(
    ("name", "content", "fmt"),
    [
        ("notes.jsonl", JSONL, None),  # byte ranges of lines
        ("notes.csv", CSV, None),  # byte ranges of CSV records (quoted newlines, bare CR)
        ("id.text", PHYSIONET.encode(), None),  # byte ranges between closed records
        # no seeking in one JSON array: ranges of record positions
        ("notes.json", b'[{"full_text": "a"}, {"full_text": 2}, {"full_text": "c"}]', "presidio"),
    ],
)
def test_shards_read_in_order_give_the_whole_input(
    tmp_path: Path, name: str, content: bytes, fmt: str | None, size: int
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    whole, sharded = whole_and_sharded(ReaderSpec.of(path, fmt), size)
    assert sharded == whole
    assert len(whole) >= 3


@pytest.mark.parametrize("size", [1, 3, 100])
def test_txt_folder_shards_keep_ids_order_and_failures(txt_folder: Path, size: int) -> None:
    whole, sharded = whole_and_sharded(ReaderSpec.of(txt_folder), size)
    assert sharded == whole
    ids = [r.id if isinstance(r, Document) else r.record_id for r in whole]
    assert ids == ["a", "b", "sub/c", "sub/d"]


@pytest.mark.parametrize("size", [1, 2, 3, 10])
def test_parquet_shards_are_whole_row_groups(parquet_file: Path, size: int) -> None:
    spec = ReaderSpec.of(parquet_file)
    whole, sharded = whole_and_sharded(spec, size)
    assert sharded == whole
    plan = plan_shards(spec, size)
    assert all(shard.kind == "row-groups" for shard in plan.shards)
    assert [s.count for s in plan.shards] == {1: [2, 2, 1], 2: [2, 2, 1], 3: [4, 1], 10: [5]}[size]


def test_a_worker_reads_only_its_byte_range(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    lines = [json.dumps({"id": f"n{i}", "text": f"note {i}"}) + "\n" for i in range(6)]
    path.write_text("".join(lines), encoding="utf-8")
    spec = ReaderSpec.of(path)
    plan = plan_shards(spec, 2)
    middle = plan.shards[1]
    expected = list(spec.open().read_shard(middle))
    data = bytearray(path.read_bytes())  # wreck every byte outside the middle shard, keeping offsets
    data[: middle.start] = b"x" * middle.start
    data[middle.stop :] = b"y" * (len(data) - middle.stop)
    path.write_bytes(bytes(data))
    assert list(spec.open().read_shard(middle)) == expected
    assert [doc.id for doc in expected if isinstance(doc, Document)] == ["n2", "n3"]


def test_the_plan_depends_on_the_input_and_shard_size_only(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text('{"text": "a"}\n{"text": "b"}\n{"text": "c"}\n', encoding="utf-8")
    spec = ReaderSpec.of(path)
    assert plan_shards(spec, 2) == plan_shards(spec, 2)
    assert plan_shards(spec, 2).fingerprint != plan_shards(spec, 1).fingerprint
    before = plan_shards(spec, 2).fingerprint
    path.write_text('{"text": "a"}\n{"text": "b"}\n{"text": "C"}\n', encoding="utf-8")
    assert plan_shards(spec, 2).fingerprint != before  # same size, new content (mtime)
    assert plan_shards(spec, 2).documents == 3


def test_an_empty_input_has_no_shards(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("\n\n", encoding="utf-8")
    assert plan_shards(ReaderSpec.of(path), 10).shards == ()


def test_shard_size_below_one_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(ConfigError, match="shard size must be at least 1, got 0"):
        plan_shards(ReaderSpec.of(tmp_path / "a.jsonl"), 0)


_line = st.one_of(
    st.builds(lambda t: json.dumps({"text": t}), st.text(max_size=8)),  # no id: line number
    st.builds(lambda i, t: json.dumps({"id": i, "text": t}), st.text(max_size=3), st.text(max_size=8)),
    st.sampled_from(["", "  ", "{bad", "[]", '{"id": 1}', '{"text": null}']),
)
_cell = st.text(alphabet='ab ,"\n\r', max_size=6)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(_line, max_size=12), size=st.integers(1, 5), crlf=st.booleans())
def test_any_jsonl_file_shards_to_the_same_records(
    tmp_path: Path, lines: list[str], size: int, crlf: bool
) -> None:
    path = tmp_path / "prop.jsonl"
    path.write_bytes(("\r\n" if crlf else "\n").join(lines).encode())
    whole, sharded = whole_and_sharded(ReaderSpec.of(path), size)
    assert sharded == whole


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.tuples(_cell, _cell), max_size=8), size=st.integers(1, 4))
def test_any_csv_file_shards_to_the_same_records(
    tmp_path: Path, rows: list[tuple[str, str]], size: int
) -> None:
    path = tmp_path / "prop.csv"
    body = "".join(f'{a},"{b}"\n' if i % 2 else f"{a},{b}\n" for i, (a, b) in enumerate(rows))
    path.write_text("id,text\n" + body, encoding="utf-8", newline="")
    whole, sharded = whole_and_sharded(ReaderSpec.of(path), size)
    assert sharded == whole
