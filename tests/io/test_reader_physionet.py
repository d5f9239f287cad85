"""The PhysioNet deid reader: records of id.text and gold spans of id-phi.phrase."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from anonymed.document import Document
from anonymed.io.base import ReadFailure, Record
from anonymed.io.physionet import PhysionetReader
from anonymed.labels import Label

FIXTURE = Path(__file__).parents[1] / "fixtures" / "io" / "physionet"


def phrases() -> list[tuple[str, int, int, str, str]]:
    rows = []
    for line in (FIXTURE / "id-phi.phrase").read_text(encoding="utf-8").splitlines():
        pid, note, start, end, category, text = line.split(" ", 5)
        rows.append((f"{pid}-{note}", int(start), int(end), category, text))
    return rows


def documents(records: list[Record]) -> dict[str, Document]:
    return {r.id: r for r in records if isinstance(r, Document)}


@pytest.mark.parametrize("path", [FIXTURE, FIXTURE / "id.text"])  # the folder, or the id.text file
def test_records_are_read_in_order_with_patient_and_note(path: Path) -> None:
    records = list(PhysionetReader(path))
    assert [r.id for r in records if isinstance(r, Document)] == ["1-1", "1-2", "11-1", "47-2"]
    first = records[0]
    assert isinstance(first, Document)
    assert (first.patient_id, first.metadata["note"], first.lang) == ("1", "1", "en")
    assert first.text.startswith("O: 58 YEAR OLD FEMALE") and first.text.endswith("HYPOTENSION.\n\n")


def test_gold_offsets_slice_to_the_gold_text() -> None:
    docs = documents(list(PhysionetReader(FIXTURE)))
    expected = phrases()
    got = [(doc_id, s.start, s.end, s.text) for doc_id, doc in docs.items() for s in doc.gold]
    assert sorted(got) == sorted((doc_id, start, end, text) for doc_id, start, end, _, text in expected)
    for doc_id, start, end, _, text in expected:
        assert docs[doc_id].text[start:end] == text


def test_gold_categories_are_mapped_to_labels() -> None:
    docs = documents(list(PhysionetReader(FIXTURE)))
    labels = {(s.text, s.full_label) for s in docs["47-2"].gold}
    assert ("KRISSY", "NAME/relative") in labels and ("301 944-5032", "CONTACT/phone") in labels
    assert {s.label for s in docs["1-1"].gold} == {Label.LOCATION, Label.DATE}
    assert docs["1-2"].gold == ()


def test_without_a_phrase_file_there_is_no_gold(tmp_path: Path) -> None:
    shutil.copy(FIXTURE / "id.text", tmp_path / "id.text")
    docs = documents(list(PhysionetReader(tmp_path)))
    assert len(docs) == 4 and all(doc.gold == () for doc in docs.values())


def test_gold_that_does_not_match_the_body_fails_that_record(tmp_path: Path) -> None:
    shutil.copy(FIXTURE / "id.text", tmp_path / "id.text")
    (tmp_path / "id-phi.phrase").write_text("1 2 0 4 PTName NOPE\n", encoding="utf-8")
    records = list(PhysionetReader(tmp_path))
    assert len(records) == 4 and isinstance(records[1], ReadFailure)
    assert (
        records[1].record_id == "1-2"
        and records[1].reason == "gold span 0-4 (PTName) does not match the body"
    )


@pytest.mark.parametrize(
    ("data", "ids", "reason"),
    [
        # a record missing its end marker: it fails, the next one is read
        (
            b"START_OF_RECORD=1||||1||||\nJean Dupont\nSTART_OF_RECORD=1||||2||||\nok\n||||END_OF_RECORD\n",
            ["1-1", "1-2"],
            "no END_OF_RECORD before the next record",
        ),
        # a body that is not UTF-8
        (
            b"START_OF_RECORD=1||||1||||\nJean \xe9\n||||END_OF_RECORD\n\n"
            b"START_OF_RECORD=1||||2||||\nok\n||||END_OF_RECORD\n",
            ["1-1", "1-2"],
            "not valid UTF-8 (byte offset 5)",
        ),
        # a malformed header
        (
            b"START_OF_RECORD=1\nJean\n||||END_OF_RECORD\nSTART_OF_RECORD=1||||2||||\nok\n||||END_OF_RECORD\n",
            ["line 1", "1-2"],
            "malformed START_OF_RECORD header",
        ),
        # text between records
        (
            b"Jean Dupont\nSTART_OF_RECORD=1||||2||||\nok\n||||END_OF_RECORD\n",
            ["line 1", "1-2"],
            "text outside a record",
        ),
    ],
)
def test_malformed_record_fails_alone(tmp_path: Path, data: bytes, ids: list[str], reason: str) -> None:
    (tmp_path / "id.text").write_bytes(data)
    records = list(PhysionetReader(tmp_path / "id.text"))
    assert [r.id if isinstance(r, Document) else r.record_id for r in records] == ids
    assert isinstance(records[0], ReadFailure) and records[0].reason == reason
    assert isinstance(records[1], Document) and records[1].text == "ok\n"


def test_empty_body_is_a_document(tmp_path: Path) -> None:
    (tmp_path / "id.text").write_bytes(b"START_OF_RECORD=3||||1||||\n||||END_OF_RECORD\n\n")
    [doc] = list(PhysionetReader(tmp_path))
    assert isinstance(doc, Document) and (doc.id, doc.text) == ("3-1", "")
