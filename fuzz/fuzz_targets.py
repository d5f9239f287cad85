"""Fuzz targets as plain functions of bytes (atheris drives them in ``fuzz_*.py``; hypothesis without it).

Each raises on a broken invariant and returns otherwise; the only exceptions allowed out of anonymed
are its documented input errors (``anonymed.errors.AnonymedError``).
"""

from __future__ import annotations

import tempfile
from functools import cache
from pathlib import Path

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.errors import AnonymedError
from anonymed.io.base import ReadFailure, Record
from anonymed.io.registry import open_reader
from anonymed.labels import Label
from anonymed.pipeline import Pipeline
from anonymed.runner.shards import ReaderSpec, plan_shards

#: the first byte of an input picks the format; the rest is the file
FORMATS = (
    ("jsonl", "in.jsonl"),
    ("csv", "in.csv"),
    ("physionet-deid", "id.text"),
    ("eds-pseudo", "in.jsonl"),
    ("presidio", "in.json"),
    ("txt", "in.txt"),
    ("parquet", "in.parquet"),
)
#: formats the batch runner cuts into byte ranges: their shards must give exactly the whole read
SHARDED = ("jsonl", "csv", "physionet-deid")


def _key(record: Record) -> tuple[object, ...]:
    if isinstance(record, ReadFailure):
        return (record.index, record.record_id, record.reason)
    return (record.id, record.text, dict(record.metadata), record.gold)


def read_any(data: bytes) -> None:
    """Read ``data[1:]`` as the format ``data[0]`` names: records only, and shards equal to the whole."""
    if not data:
        return
    fmt, name = FORMATS[data[0] % len(FORMATS)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data[1:])
        try:
            records = list(open_reader(path, fmt))
        except AnonymedError:
            return
        for record in records:
            if not isinstance(record, Document | ReadFailure):
                raise AssertionError(f"reader {fmt} gave a {type(record).__name__}")
        if fmt in SHARDED and records:
            spec = ReaderSpec.of(path, fmt)
            size = 1 + data[0] // len(FORMATS) % 3
            sharded = [r for shard in plan_shards(spec, size).shards for r in spec.open().read_shard(shard)]
            if [_key(r) for r in sharded] != [_key(r) for r in records]:
                raise AssertionError(f"shards of size {size} differ from the whole {fmt} read")


#: operator sets the pipeline target cycles through (non-DP: the no-original-in-place check applies)
OPERATOR_SETS = ("fake", "tag", "redact")


@cache
def _pipeline(lang: str, operator: str, high_recall: bool) -> Pipeline:
    operators = dict.fromkeys(Label, operator)
    return Pipeline(PipelineConfig(lang=lang, operators=operators, high_recall=high_recall, seed=1))


def deid_any(data: bytes) -> None:
    """Detect and replace in ``data`` (first byte: options; the rest: UTF-8 text, errors replaced)."""
    if not data:
        return
    lang = "fr" if data[0] & 1 else "en"
    operator = OPERATOR_SETS[(data[0] >> 1) % len(OPERATOR_SETS)]
    text = data[1:].decode("utf-8", errors="surrogateescape" if data[0] & 8 else "replace")
    pipeline = _pipeline(lang, operator, bool(data[0] & 16))
    doc = pipeline.detect(Document("fuzz", text, {"lang": lang}))
    previous_end = 0
    for span in doc.spans:
        if (
            not (previous_end <= span.start < span.end <= len(text))
            or text[span.start : span.end] != span.text
        ):
            raise AssertionError(f"bad or overlapping span {span.start}-{span.end}")
        previous_end = span.end
    done = pipeline.substitute(doc)
    shift = 0
    for rep in done.replacements:
        at = rep.start + shift
        if done.result[at : at + len(rep.surrogate)] != rep.surrogate:
            raise AssertionError(f"{operator} wrote its surrogate elsewhere than {rep.start}-{rep.end}")
        # the surrogate itself, not the characters where the original stood: "MaR1" -> "Mar17" starts alike
        if rep.surrogate.casefold() == rep.original.casefold():
            raise AssertionError(f"{operator} left the original text at {rep.start}-{rep.end}")
        shift += len(rep.surrogate) - (rep.end - rep.start)
