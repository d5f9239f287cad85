"""Streaming readers and atomic writers for the corpus formats; ``open_reader`` / ``open_writer`` pick one."""

from __future__ import annotations

from anonymed.io.base import Reader, ReadFailure, Record, Writer
from anonymed.io.registry import READERS, WRITERS, guess_format, open_reader, open_writer
from anonymed.io.spans import SpanRecord, SpansReader, SpansWriter, attach_spans

__all__ = [
    "READERS",
    "WRITERS",
    "ReadFailure",
    "Reader",
    "Record",
    "SpanRecord",
    "SpansReader",
    "SpansWriter",
    "Writer",
    "attach_spans",
    "guess_format",
    "open_reader",
    "open_writer",
]
