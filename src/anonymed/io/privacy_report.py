"""A writer that also records each document's privacy report (epsilon spent per value) in a JSONL file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from anonymed.document import Document
from anonymed.io.atomic import FileWriter
from anonymed.io.base import ReadFailure, TeeWriter, Writer
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
