"""The spans file of ``anonymed detect``: written per document, read back, attached to the inputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from anonymed.document import Document, Span
from anonymed.errors import InputError
from anonymed.io.base import ReadFailure, Record
from anonymed.io.registry import open_writer
from anonymed.io.spans import SpanRecord, SpansReader, attach_spans

TEXT = "Seen by Dr Martin on 12/03/2020."
SPANS = (
    Span.of(TEXT, 11, 17, "NAME", source="patterns", score=0.85, subtype="clinician"),
    Span.of(TEXT, 21, 31, "DATE", source="patterns"),
)
DOCS: list[Record] = [
    Document("a", TEXT, spans=SPANS),
    ReadFailure(1, "b", "malformed JSON (Expecting value at column 1)"),
    Document("c", ""),
]


def write(path: Path, records: list[Record]) -> None:
    with open_writer(path, "spans") as writer:
        for record in records:
            if isinstance(record, Document):
                writer.write(record)
            else:
                writer.write_failure(record)


def test_spans_file_has_one_line_per_document_in_the_public_shape(tmp_path: Path) -> None:
    write(tmp_path / "spans.jsonl", DOCS)
    lines = [json.loads(x) for x in (tmp_path / "spans.jsonl").read_text(encoding="utf-8").splitlines()]
    assert lines[0] == {"id": "a", "spans": [s.to_json() for s in SPANS]}
    assert lines[0]["spans"][0]["text"] == "Martin"
    assert lines[1] == {"id": "b", "anonymed_error": "malformed JSON (Expecting value at column 1)"}
    assert lines[2] == {"id": "c", "spans": []}


def test_spans_read_back_equal_the_written_ones(tmp_path: Path) -> None:
    write(tmp_path / "spans.jsonl", DOCS)
    back = list(SpansReader(tmp_path / "spans.jsonl"))
    assert back == [SpanRecord("a", SPANS), ReadFailure(1, "b", DOCS[1].reason), SpanRecord("c", ())]  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ('{"id": "x", "spans": [{"start": 0}]}', "span needs integer start and end"),  # incomplete span
        (
            '{"id": "x", "spans": [{"start": 0, "end": 2, "label": "PET", "text": "ab"}]}',
            "unknown label 'PET'",
        ),
        ('{"id": "x", "spans": [{"start": 0, "end": 3, "label": "NAME", "text": "ab"}]}', "does not match"),
        ('{"id": "x"}', "spans is a JSON null, not an array"),  # no spans
        ('{"id": "x", ', "malformed JSON"),  # truncated line
    ],
)
def test_bad_spans_line_fails_alone(tmp_path: Path, line: str, reason: str) -> None:
    (tmp_path / "s.jsonl").write_text(f'{{"id": "a", "spans": []}}\n{line}\n', encoding="utf-8")
    good, bad = list(SpansReader(tmp_path / "s.jsonl"))
    assert good == SpanRecord("a", ())
    assert isinstance(bad, ReadFailure) and bad.index == 1 and reason in bad.reason


def test_attached_spans_become_the_documents_spans(tmp_path: Path) -> None:
    write(tmp_path / "spans.jsonl", DOCS)
    inputs = [Document("a", TEXT), Document("b", "whatever"), Document("c", "")]
    joined = list(attach_spans(inputs, SpansReader(tmp_path / "spans.jsonl")))
    assert isinstance(joined[0], Document) and joined[0].spans == SPANS
    assert isinstance(joined[1], ReadFailure) and joined[1].record_id == "b"
    assert isinstance(joined[2], Document) and joined[2].spans == ()


@pytest.mark.parametrize(
    "inputs",
    [
        [Document("a", TEXT), Document("z", ""), Document("c", "")],  # ids differ
        [Document("a", TEXT)],  # fewer inputs than span records
    ],
)
def test_spans_that_do_not_line_up_with_the_input_are_an_input_error(
    tmp_path: Path, inputs: list[Record]
) -> None:
    write(tmp_path / "spans.jsonl", DOCS)
    with pytest.raises(InputError):
        list(attach_spans(inputs, SpansReader(tmp_path / "spans.jsonl")))


def test_spans_for_another_text_fail_that_record(tmp_path: Path) -> None:
    write(tmp_path / "spans.jsonl", DOCS[:1])
    [bad] = list(
        attach_spans(
            [Document("a", "a different text, longer than before")], SpansReader(tmp_path / "spans.jsonl")
        )
    )
    assert isinstance(bad, ReadFailure) and "does not match the text" in bad.reason
