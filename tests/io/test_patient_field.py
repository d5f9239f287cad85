"""``patient_field``: the record field that names the patient (JSONL, CSV, Parquet) becomes ``patient_id``."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from anonymed.document import Document
from anonymed.io.registry import open_reader


def _write(tmp_path: Path, fmt: str, field: str) -> Path:
    rows = [{"id": "a", field: "P-1", "text": "first"}, {"id": "b", "text": "no patient"}]
    if fmt == "jsonl":
        path = tmp_path / "in.jsonl"
        path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    elif fmt == "csv":
        path = tmp_path / "in.csv"
        path.write_text(f"id,{field},text\na,P-1,first\nb,,no patient\n", encoding="utf-8")
    else:
        path = tmp_path / "in.parquet"
        pq.write_table(
            pa.Table.from_pylist([{"id": r["id"], field: r.get(field), "text": r["text"]} for r in rows]),
            path,
        )
    return path


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
def test_the_patient_field_names_the_patient(tmp_path: Path, fmt: str) -> None:
    path = _write(tmp_path, fmt, "mrn")
    docs = [r for r in open_reader(path, patient_field="mrn") if isinstance(r, Document)]
    assert [d.patient_id for d in docs] == ["P-1", None]
    assert docs[0].metadata["record"]["mrn"] == "P-1"  # still carried to the output
    unchanged = [r for r in open_reader(path) if isinstance(r, Document)]
    assert [d.patient_id for d in unchanged] == [None, None]  # patient_id is the default field


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
def test_the_default_patient_field_is_patient_id(tmp_path: Path, fmt: str) -> None:
    docs = [r for r in open_reader(_write(tmp_path, fmt, "patient_id")) if isinstance(r, Document)]
    assert [d.patient_id for d in docs] == ["P-1", None]
