"""The local runner: every record is written or recorded as a failure, in order; strict mode stops."""

from __future__ import annotations

import pytest

from anonymed.document import Document
from anonymed.errors import InputError, SpanError
from anonymed.io.base import ReadFailure, Record, Writer
from anonymed.runner.local import run_corpus


class ListWriter(Writer):
    """Collects what would be written, in order."""

    format = "memory"

    def __init__(self) -> None:
        self.rows: list[tuple[str, str]] = []
        self.committed = False

    def write(self, doc: Document) -> None:
        self.rows.append(("ok", doc.id))

    def write_failure(self, failure: ReadFailure) -> None:
        self.rows.append(("failed", failure.record_id))

    def commit(self) -> None:
        self.committed = True

    def abort(self) -> None:
        self.rows.clear()


def records() -> list[Record]:
    return [
        Document("a", "x"),
        ReadFailure(1, "b", "malformed JSON"),
        Document("c", "SECRET NAME"),
        Document("d", ""),
    ]


def explode_on_c(doc: Document) -> Document:
    if doc.id == "c":
        raise KeyError(doc.text)  # a third-party error whose message holds note text
    return doc.evolve(output=doc.text.upper())


def test_every_record_comes_out_once_in_input_order() -> None:
    writer = ListWriter()
    summary = run_corpus(records(), writer, explode_on_c)
    assert writer.rows == [("ok", "a"), ("failed", "b"), ("failed", "c"), ("ok", "d")]
    assert (summary.read, summary.written, summary.failed) == (4, 2, 2)


def test_failure_reasons_never_carry_note_text() -> None:
    summary = run_corpus(records(), ListWriter(), explode_on_c)
    assert all("SECRET" not in f.reason for f in summary.failures)
    assert "SECRET" not in str(summary.to_json())


def test_our_own_errors_keep_their_message() -> None:
    def bad(doc: Document) -> Document:
        raise SpanError("invalid offsets 3-2")

    summary = run_corpus([Document("a", "x")], ListWriter(), bad)
    assert summary.failures[0].reason == "invalid offsets 3-2"


def test_strict_mode_raises_at_the_first_failure_and_the_writer_aborts() -> None:
    writer = ListWriter()
    with pytest.raises(InputError) as info, writer:
        run_corpus(records(), writer, explode_on_c, strict=True)
    assert info.value.record_id == "b"
    assert not writer.committed and writer.rows == []
