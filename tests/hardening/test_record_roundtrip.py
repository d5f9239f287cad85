"""N records in = N records out, ids and order intact, through the batch runner, for every format."""

from __future__ import annotations

import csv
import io
import json
import tempfile
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hardening_inputs import notes, record_ids
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.io.base import ReadFailure, Record
from anonymed.io.registry import open_reader, open_writer
from anonymed.labels import Label
from anonymed.methods import ReplaceConfig
from anonymed.runner.batch import BatchOptions, run_batch
from anonymed.runner.shards import ReaderSpec

#: seeded, non-DP operators (OpenDP's noise cannot be seeded): outputs are reproducible
CONFIG = PipelineConfig(seed=5, operators={Label.DATE: "fake", Label.AGE: "fake"})
METHOD = ReplaceConfig(CONFIG)

Records = list[tuple[str, str]]


def write_jsonl(root: Path, records: Records, broken: bool) -> Path:
    lines = [
        json.dumps({"id": rid, "text": text, "patient_id": "p"}, ensure_ascii=False) for rid, text in records
    ]
    if broken:
        lines.insert(len(lines) // 2, '{"id": "broken", "text": ')  # fails alone, keeps its place
    path = root / "in.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def write_csv(root: Path, records: Records, broken: bool) -> Path:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL)  # a lone CR needs quotes too
    rows: list[list[str]] = [["id", "text", "patient_id"], *([rid, text, "p"] for rid, text in records)]
    if broken:
        rows.insert(1 + len(records) // 2, ["broken", "too", "many", "cells"])
    writer.writerows(rows)
    path = root / "in.csv"
    path.write_text(out.getvalue(), encoding="utf-8", newline="")
    return path


def write_txt(root: Path, records: Records, broken: bool) -> Path:
    folder = root / "notes"
    folder.mkdir()
    for i, (rid, text) in enumerate(records):
        (folder / f"{i:03d}_{rid}.txt").write_text(text, encoding="utf-8", newline="")
    if broken:
        (folder / f"{len(records):03d}_broken.txt").write_bytes(b"not \xff utf-8")
    return folder


def write_physionet(root: Path, records: Records, broken: bool) -> Path:
    body = "".join(
        f"START_OF_RECORD={i + 1}||||{rid}||||\n{text}||||END_OF_RECORD\n"
        for i, (rid, text) in enumerate(records)
    )
    if broken:
        body += "START_OF_RECORD=broken header\n||||END_OF_RECORD\n"
    folder = root / "physionet"
    folder.mkdir()
    (folder / "id.text").write_text(body, encoding="utf-8", newline="")
    return folder


def write_parquet(root: Path, records: Records, broken: bool) -> Path:
    rows = [{"id": rid, "text": text, "patient_id": "p"} for rid, text in records]
    if broken:
        rows.append({"id": "broken", "text": None, "patient_id": "p"})  # a null text fails alone
    schema = pa.schema([("id", pa.string()), ("text", pa.string()), ("patient_id", pa.string())])
    path = root / "in.parquet"
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), path, row_group_size=2)
    return path


#: format -> (input builder, output name, the ids the reader gives record ``i`` with id ``rid``)
FORMATS: dict[str, tuple[Callable[[Path, Records, bool], Path], str, Callable[[int, str], str]]] = {
    "jsonl": (write_jsonl, "out.jsonl", lambda i, rid: rid),
    "csv": (write_csv, "out.csv", lambda i, rid: rid),
    "txt": (write_txt, "out", lambda i, rid: f"{i:03d}_{rid}"),
    "physionet-deid": (write_physionet, "out", lambda i, rid: f"{i + 1}-{rid}"),
    "parquet": (write_parquet, "out.parquet", lambda i, rid: rid),
}


def physionet_safe(text: str) -> bool:
    """Whether the PhysioNet format can hold the text (its record markers cannot appear in a body)."""
    return "||||END_OF_RECORD" not in text and "\nSTART_OF_RECORD=" not in f"\n{text}"


def ids_of(records: list[Record]) -> list[str]:
    return [r.id if isinstance(r, Document) else r.record_id for r in records]


def deid_and_read_back(
    fmt: str, records: Records, broken: bool, size: int
) -> tuple[list[Record], list[Record]]:
    """The input's records and the output's, after a sharded batch run of the pipeline."""
    build, name, _ = FORMATS[fmt]
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        source = build(root, records, broken)
        spec = ReaderSpec.of(source, fmt)
        writer = open_writer(root / name, fmt, like=spec.open())
        summary = run_batch(spec, writer, METHOD, BatchOptions(shard_size=size))
        given_in = list(spec.open())
        if fmt == "txt":  # failures of a folder are listed in its manifest, not as files
            back: list[Record] = [r for r in open_reader(root / name, "txt")]
            assert summary.written == len(back)
            return [r for r in given_in if isinstance(r, Document)], back
        back = list(open_reader(root / name, fmt))
        assert (summary.read, summary.written + summary.failed) == (len(given_in), len(given_in))
        return given_in, back


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    records=st.lists(st.tuples(record_ids, notes), max_size=5, unique_by=lambda r: r[0]),
    broken=st.booleans(),
    size=st.integers(1, 3),
)
def test_every_record_comes_out_once_in_input_order(
    fmt: str, records: Records, broken: bool, size: int
) -> None:
    if fmt == "physionet-deid":
        assume(all(physionet_safe(text) for _, text in records))
    given_in, back = deid_and_read_back(fmt, records, broken, size)
    expected = [FORMATS[fmt][2](i, rid) for i, (rid, _) in enumerate(records)]
    assert len(back) == len(given_in)
    for before, after in zip(given_in, back, strict=True):
        if isinstance(before, Document):  # a failed record keeps its place (its id, when it had one)
            assert ids_of([after]) == [before.id]
    assert [rid for rid, r in zip(ids_of(back), back, strict=True) if not is_placeholder(r)] == expected
    if broken and fmt != "txt":
        assert sum(map(is_placeholder, back)) == 1


def is_placeholder(record: Record) -> bool:
    """Whether a record read back from an output is a failed record's placeholder (each format's way)."""
    if isinstance(record, ReadFailure):
        return True
    fields = dict(record.metadata.get("record") or {})
    return bool(fields.get("anonymed_error")) or record.text.startswith("anonymed_error: ")


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_line_breaks_of_every_kind_survive_the_round_trip(fmt: str) -> None:
    # a lone CR went out unquoted in CSV and split its record in two (the second half's text became an id)
    records = [("cr", "first\rsecond"), ("crlf", "a\r\nb"), ("ls", "c\u2028d\u2029e"), ("nul", "f\x00g")]
    given_in, back = deid_and_read_back(fmt, records, False, 1)
    assert ids_of(back) == ids_of(given_in) == [FORMATS[fmt][2](i, rid) for i, (rid, _) in enumerate(records)]
    assert not any(map(is_placeholder, back))


@pytest.mark.slow
@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_ten_megabyte_note_and_an_empty_one_pass_through_intact(fmt: str, tmp_path: Path) -> None:
    huge = ("Patient seen for chest pain, stable; BP 120/80 \u00e9\u0301 \U0001f600.\n" * 160_000)[
        :10_000_000
    ]
    records = [("empty", ""), ("huge", huge), ("after", "ok")]
    build, name, ident = FORMATS[fmt]
    source = build(tmp_path, records, False)
    spec = ReaderSpec.of(source, fmt)
    with open_writer(tmp_path / name, fmt, like=spec.open()) as writer:
        for record in spec.open():  # the readers and writers alone: the pipeline runs on 1 MB below
            assert isinstance(record, Document)
            writer.write(record.evolve(output=record.text[::-1]))
    back = list(open_reader(tmp_path / name, fmt))
    assert ids_of(back) == [ident(i, rid) for i, (rid, _) in enumerate(records)]
    assert [r.text for r in back if isinstance(r, Document)] == [text[::-1] for _, text in records]


@pytest.mark.slow
def test_the_pipeline_processes_a_one_megabyte_note() -> None:
    paragraph = (
        "Seen by Dr. Helen Park on 02/12/2020. The patient reports intermittent chest pain on exertion, "
        "relieved by rest, without radiation, nausea or diaphoresis. Vital signs are stable; lungs are "
        "clear to auscultation bilaterally; heart sounds are regular without murmurs, rubs or gallops. "
        "Electrocardiogram shows normal sinus rhythm. Plan: stress test, aspirin, follow-up as needed.\n"
    )
    copies = 1_000_000 // len(paragraph) + 1
    doc = METHOD.build()(Document("big", paragraph * copies))
    assert len(doc.text) > 1_000_000 and len(doc.spans) >= 2 * copies
    assert "Helen Park" not in doc.result and "02/12/2020" not in doc.result


#: writer format -> output name, for documents made in Python (not read from a file)
API_OUTPUTS = {"jsonl": "out.jsonl", "csv": "out.csv", "txt": "out", "parquet": "out.parquet"}
#: text that a Python caller can build but no UTF-8 file can hold: a lone surrogate somewhere
api_texts = st.one_of(
    st.text(max_size=30),  # ordinary Unicode
    st.builds(
        lambda a, s, b: a + s + b,
        st.text(max_size=10),
        st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),
        st.text(max_size=10),
    ),  # one lone surrogate between ordinary text
)


@pytest.mark.parametrize("fmt", sorted(API_OUTPUTS))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=st.lists(api_texts, min_size=1, max_size=4))
def test_python_documents_that_no_file_can_hold_fail_in_their_place(fmt: str, texts: list[str]) -> None:
    docs = [Document(f"d{i}", text) for i, text in enumerate(texts)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / API_OUTPUTS[fmt]
        with open_writer(path, fmt) as writer:
            for doc in docs:
                writer.write(doc)
        back = list(open_reader(path, fmt))
        manifest = path / "_failures.jsonl"
        failures = manifest.read_text("utf-8") if manifest.exists() else ""
    unwritable = [any(0xD800 <= ord(c) <= 0xDFFF for c in text) for text in texts]
    if fmt == "txt":  # failures are listed in the folder's manifest, not as files
        assert len(back) == unwritable.count(False)
        assert failures.count("lone surrogate") == unwritable.count(True)
        return
    assert ids_of(back) == [doc.id for doc in docs]  # N in = N out, ids and order intact
    assert [is_placeholder(r) for r in back] == unwritable
