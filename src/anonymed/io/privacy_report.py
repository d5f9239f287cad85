"""A writer that also records each document's privacy report (epsilon spent per value) in a JSONL file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from anonymed.document import Document
from anonymed.io.atomic import FileWriter
from anonymed.io.base import ReadFailure, Writer
from anonymed.io.common import ERROR_KEY, dumps


class PrivacyReportWriter(FileWriter):
    """One JSON line per record: ``{"id", "privacy": {...}}`` (offsets and epsilons, never values)."""

    format = "privacy-report"

    def format_document(self, doc: Document) -> str:
        """The document's privacy report as one JSON line."""
        return dumps({"id": doc.id, "privacy": _plain(doc.privacy)}) + "\n"

    def format_failure(self, failure: ReadFailure) -> str:
        """A failed record: id and reason."""
        return dumps({"id": failure.record_id, ERROR_KEY: failure.reason}) + "\n"


class TeeWriter(Writer):
    """Writes every record to a main writer and a side writer; both commit or abort together."""

    def __init__(self, main: Writer, side: Writer) -> None:
        super().__init__(main.path)
        self.main = main
        self.side = side
        self.format = main.format

    def write(self, doc: Document) -> None:
        """Write to both."""
        self.main.write(doc)
        self.side.write(doc)

    def write_failure(self, failure: ReadFailure) -> None:
        """Write the placeholder to both."""
        self.main.write_failure(failure)
        self.side.write_failure(failure)

    def commit(self) -> None:
        """Commit the side output first, so a complete main output always has its report."""
        self.side.commit()
        self.main.commit()

    def abort(self) -> None:
        """Abort both."""
        self.side.abort()
        self.main.abort()


def with_privacy_report(writer: Writer, report: Path | None) -> Writer:
    """``writer`` itself, or a tee that also writes the privacy reports to ``report``."""
    return writer if report is None else TeeWriter(writer, PrivacyReportWriter(report))


def _plain(value: Any) -> Any:
    """Read-only mappings and tuples turned into JSON-ready dicts and lists."""
    if hasattr(value, "items"):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
