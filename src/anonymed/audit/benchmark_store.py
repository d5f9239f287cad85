"""A benchmark on disk (one folder, written atomically)::

benchmark.json          format, version, configuration, counts, copies made and copies skipped (why)
patients.jsonl          {"id", "name", "sex", "diagnoses", "notes", "missed"}: the ground truth (synthetic)
notes.jsonl             {"id", "patient_id", "source", "text", "spans"}: the notes as written, gold NAME spans
copies/NAME.jsonl       {"id", "patient_id", "text"}: one protected copy
copies/NAME.decoys.txt  the surrogate name tokens that copy wrote, one per line
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict
from pathlib import Path
from types import MappingProxyType
from typing import Any

from anonymed.audit.benchmark import Benchmark, BenchmarkConfig, BenchmarkPatient
from anonymed.audit.protections import ProtectedCopy
from anonymed.document import Document, Span
from anonymed.errors import ResourceError
from anonymed.io.hashed_folder import read_meta, save_folder

FORMAT, VERSION = "anonymed-audit-benchmark", 1


def _write_jsonl(path: Path, records: Iterable[dict[str, Any]]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def save_benchmark(bench: Benchmark, folder: Path) -> Path:
    """Write ``bench`` to ``folder`` (a temporary sibling renamed into place)."""
    return save_folder(folder, lambda tmp: _write(bench, tmp), "the benchmark")


def _write(bench: Benchmark, folder: Path) -> None:
    (folder / "copies").mkdir()
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "config": asdict(bench.config),
        "counts": {
            "patients": len(bench.patients),
            "missed": sum(p.missed for p in bench.patients),
            "notes": len(bench.documents),
            "reused_notes": bench.reused_notes,
        },
        "copies": list(bench.copies),
        "skipped": dict(bench.skipped),
    }
    (folder / "benchmark.json").write_text(json.dumps(meta, indent=2), encoding="utf-8")
    _write_jsonl(folder / "patients.jsonl", (asdict(p) for p in bench.patients))
    _write_jsonl(
        folder / "notes.jsonl",
        (
            {
                "id": d.id,
                "patient_id": d.patient_id,
                "source": d.metadata.get("source"),
                "text": d.text,
                "spans": [s.to_json() for s in d.gold],
            }
            for d in bench.documents
        ),
    )
    for name, copy in bench.copies.items():
        records = (
            {"id": d.id, "patient_id": d.patient_id, "text": text}
            for d, text in zip(bench.documents, copy.texts, strict=True)
        )
        _write_jsonl(folder / "copies" / f"{name}.jsonl", records)
        (folder / "copies" / f"{name}.decoys.txt").write_text(
            "".join(f"{t}\n" for t in sorted(copy.decoys)), encoding="utf-8"
        )


def load_benchmark(folder: Path) -> Benchmark:
    """Read a folder written by ``save_benchmark``."""
    folder = Path(folder)
    try:
        meta = read_meta(folder, FORMAT, VERSION, what="benchmark", name="benchmark.json")
        config = BenchmarkConfig(**{**meta["config"], "protections": tuple(meta["config"]["protections"])})
        patients = tuple(
            BenchmarkPatient(**{**p, "diagnoses": tuple(p["diagnoses"]), "notes": tuple(p["notes"])})
            for p in _read_jsonl(folder / "patients.jsonl")
        )
        documents = tuple(_document(r) for r in _read_jsonl(folder / "notes.jsonl"))
        copies = {name: _copy(folder, name) for name in meta["copies"]}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ResourceError(f"cannot load the benchmark from {str(folder)!r}: {type(exc).__name__}") from None
    return Benchmark(
        config,
        patients,
        documents,
        MappingProxyType(copies),
        MappingProxyType(dict(meta["skipped"])),
        int(meta["counts"]["reused_notes"]),
    )


def _document(record: dict[str, Any]) -> Document:
    text = record["text"]
    spans = tuple(
        Span.of(text, s["start"], s["end"], s["label"], subtype=s.get("subtype")) for s in record["spans"]
    )
    return Document(
        record["id"], text, {"patient_id": record["patient_id"], "source": record["source"]}, gold=spans
    )


def _copy(folder: Path, name: str) -> ProtectedCopy:
    texts = tuple(r["text"] for r in _read_jsonl(folder / "copies" / f"{name}.jsonl"))
    decoys = (folder / "copies" / f"{name}.decoys.txt").read_text(encoding="utf-8").split()
    return ProtectedCopy(name, texts, frozenset(decoys))
