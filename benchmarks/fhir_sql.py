"""Speed of the FHIR and SQL paths, each against a baseline measured in the same run.

    python benchmarks/fhir_sql.py --synthea ../shared/data/fhir_synthea --notes 200 --rows 100000

1. Structured pass (``deid-fhir --no-text``) over the whole export: resources per CPU second (one core),
   against parsing and re-serialising the same resources with orjson (the floor of any NDJSON tool).
2. Notes through the FHIR path (``deid-fhir`` on the first ``--notes`` DocumentReferences, with their
   Patients and Practitioners) against the plain-text path (``Pipeline.run`` on the same decoded notes,
   same configuration): notes per CPU second and the ratio.
3. PostgreSQL round trip: a ``--rows`` table of short synthetic notes is written (ADBC), de-identified
   by ``deid-sql`` into a new table, and counted back; rows per second of wall time, with the same round
   trip without detectors (the database and pagination machinery alone) as the baseline. ``--pg-url``
   names a server; without it a throwaway one is started with the tests' helper (Debian's postgresql).
Ages use the non-DP ``fake`` operator throughout (as in the byte-identical tests).

Two leak measurements, on request (they are slower):

* ``--leaks``: the whole Synthea export through ``deid-fhir`` (text pass on): how many distinct names,
  telecom values, address parts and identifiers of its Patients and Practitioners survive (whole word,
  case-insensitive) in the structured files and in the decoded notes, and how many note mentions.
* ``--gold``: the gold FHIR set (every PhysioNet and EDS-pseudo development note as DocumentReferences,
  ``anonymed.fhir.gold``) through the FHIR path and the plain-text path: gold PHI strings surviving, by label.
"""

from __future__ import annotations

import argparse
import base64
import json
import shutil
import sys
import tempfile
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import orjson

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.fhir import FhirDeidentifier, FhirOptions
from anonymed.pipeline import Pipeline
from anonymed.sql import ColumnMap, Source, SqlJob, open_database

KEY = b"benchmark-patient-key-0123"
CONFIG = PipelineConfig(operators={"AGE": "fake"})


def _timed(action: Any) -> tuple[float, float]:
    """(CPU seconds of this process, wall seconds) of ``action()``."""
    cpu, wall = time.process_time(), time.perf_counter()
    action()
    return time.process_time() - cpu, time.perf_counter() - wall


def structured(export: Path, work: Path) -> None:
    """Section 1: the structured pass against an orjson round trip."""
    files = sorted(export.glob("*.ndjson"))
    count = sum(1 for f in files for line in f.read_bytes().splitlines() if line.strip())

    def round_trip() -> None:
        for f in files:
            b"".join(orjson.dumps(orjson.loads(line)) + b"\n" for line in f.read_bytes().splitlines() if line)

    def deid() -> None:
        FhirDeidentifier(FhirOptions(patient_key=KEY, text=False), CONFIG).run(export, work / "structured")

    base_cpu, _ = _timed(round_trip)
    cpu, wall = _timed(deid)
    print(
        f"structured pass: {count} resources, {count / cpu:,.0f} resources per CPU second "
        f"({count / wall:,.0f}/s wall); orjson round trip {count / base_cpu:,.0f}/s; "
        f"ratio {base_cpu / cpu:.3f}"
    )


def _subset(export: Path, notes: int, folder: Path) -> list[tuple[str, str]]:
    """The first ``notes`` DocumentReferences with the export's Patients and Practitioners."""
    folder.mkdir(parents=True)
    for name in ("Patient.000.ndjson", "Practitioner.000.ndjson"):
        shutil.copy(export / name, folder / name)
    lines = (export / "DocumentReference.000.ndjson").read_bytes().splitlines()[:notes]
    (folder / "DocumentReference.000.ndjson").write_bytes(b"\n".join(lines) + b"\n")
    found = []
    for line in lines:
        resource = json.loads(line)
        text = base64.b64decode(resource["content"][0]["attachment"]["data"]).decode("utf-8")
        found.append((resource["subject"]["reference"].split("/")[-1], text))
    return found


def notes_paths(export: Path, notes: int, work: Path) -> None:
    """Section 2: notes through the FHIR path and the plain-text path."""
    folder = work / "notes-in"
    decoded = _subset(export, notes, folder)
    pipeline = Pipeline(CONFIG.replace(patient_key=KEY))
    pipeline.run(Document("warm-up", decoded[0][1]))

    def plain() -> None:
        for i, (patient, text) in enumerate(decoded):
            pipeline.run(Document(f"n{i}", text, {"patient_id": patient}))

    deidentifier = FhirDeidentifier(FhirOptions(patient_key=KEY), CONFIG, pipeline)
    plain_cpu, _ = _timed(plain)
    fhir_cpu, fhir_wall = _timed(lambda: deidentifier.run(folder, work / "notes-out"))
    chars = sum(len(text) for _, text in decoded) / len(decoded)
    print(f"notes: {len(decoded)} notes of {chars:,.0f} characters on average")
    print(f"  plain-text path: {len(decoded) / plain_cpu:.1f} notes per CPU second")
    texts = deidentifier.text.stats.documents if deidentifier.text else 0
    print(
        f"  FHIR path: {len(decoded) / fhir_cpu:.1f} notes per CPU second ({len(decoded) / fhir_wall:.1f}/s "
        f"wall; {texts} texts incl. narratives and codes' text); ratio to plain {plain_cpu / fhir_cpu:.3f}"
    )


def _rows(count: int) -> Any:
    import datetime as dt

    import pyarrow as pa

    names = ["Helen Park", "John Durand", "Maria Lopez", "Ahmed Khan", "Susan Miller"]
    day0 = dt.date(2015, 1, 1)
    days = [day0 + dt.timedelta(days=i % 3000) for i in range(count)]
    texts = [
        f"{d:%m/%d/%Y}: Mr. {names[i % 5]} was seen by Dr. Emily Stone. Call (617) 555-01{i % 100:02d}."
        for i, d in enumerate(days)
    ]
    return pa.table(
        {
            "note_id": list(range(count)),
            "note_text": texts,
            "person_id": [f"P{i % 997}" for i in range(count)],
            "note_date": days,
        }
    )


def postgres(url: str, rows: int) -> None:
    """Section 3: a PostgreSQL round trip with and without detection."""
    db = open_database(url)
    table = _rows(rows)
    _, write_wall = _timed(lambda: db.write("bench_note", table, create=True))
    db.close()
    print(f"postgres: wrote {rows:,} rows in {write_wall:.1f} s ({rows / write_wall:,.0f} rows/s)")
    columns = ColumnMap.parse("id=note_id,text=note_text,patient=person_id,date=note_date")
    for label, config, target in (
        ("no detectors (baseline)", CONFIG.replace(detectors=()), "bench_io"),
        ("full pipeline", CONFIG, "bench_deid"),
    ):
        job = SqlJob(url, Source(table="bench_note"), columns, table=target, config=config, patient_key=KEY)
        started = time.perf_counter()
        done = sum(job.run_range(r).rows for r in job.plan())
        wall = time.perf_counter() - started
        check = open_database(url)
        back = check.count(Source(table=target))
        check.close()
        print(
            f"  deid-sql {label}: {done:,} rows in {wall:.1f} s, {done / wall:,.0f} rows/s wall; "
            f"{back:,} rows read back"
        )


def synthea_leaks(export: Path, work: Path) -> None:
    """``--leaks``: what the text pipeline alone leaves of the people's identifiers (no known detector)."""
    import re

    out = work / "leaks"
    FhirDeidentifier(FhirOptions(patient_key=KEY, seed=1), CONFIG).run(export, out)
    values: dict[str, str] = {}  # value -> what it is
    for name in ("Patient.000.ndjson", "Practitioner.000.ndjson"):
        who = name.split(".")[0].lower()
        for line in (export / name).read_text(encoding="utf-8").splitlines():
            person = json.loads(line)
            for n in person.get("name", []):
                values.update({v: f"{who} name" for v in [*n.get("given", []), n.get("family", "")] if v})
            values.update({t["value"]: f"{who} telecom" for t in person.get("telecom", [])})
            for a in person.get("address", []):
                parts = [*a.get("line", []), a.get("city"), a.get("postalCode")]
                values.update({v: f"{who} address" for v in parts if v})
            values.update({i["value"]: f"{who} identifier" for i in person.get("identifier", [])})
    structured = "\n".join(p.read_text(encoding="utf-8") for p in out.glob("*.ndjson"))
    notes = [
        base64.b64decode(json.loads(line)["content"][0]["attachment"]["data"]).decode("utf-8")
        for line in (out / "DocumentReference.000.ndjson").read_text(encoding="utf-8").splitlines()
    ]
    joined = "\n".join(notes)
    pattern = {v: re.compile(r"(?<!\w)" + re.escape(v) + r"(?!\w)", re.I) for v in values}
    in_structured = {v for v, p in pattern.items() if p.search(structured)}
    in_notes = {v: len(p.findall(joined)) for v, p in pattern.items() if p.search(joined)}
    kinds = Counter(values[v] for v in in_notes)
    resources = [
        json.loads(line) for p in sorted(out.glob("*.ndjson")) for line in p.read_text().splitlines()
    ]
    present = {f"{r['resourceType']}/{r['id']}" for r in resources}
    refs = [m for r in resources for m in re.findall(r'"reference": ?"([^"]+)"', json.dumps(r))]
    invalid = _invalid(resources)
    print(
        f"Synthea output: {len(resources)} resources, {invalid} failing R4B validation (fhir.resources); "
        f"{len(refs)} references, {sum(ref not in present for ref in refs)} unresolved"
    )
    print(
        f"Synthea leaks (text pipeline alone): {len(values)} identifying values; "
        f"{len(in_structured)} in structured elements; {len(in_notes)} in {len(notes)} decoded notes "
        f"({sum(in_notes.values())} mentions): {dict(sorted(kinds.items()))}"
    )


def _invalid(resources: list[dict[str, Any]]) -> int:
    """How many resources the FHIR R4B models of ``fhir.resources`` refuse."""
    from fhir.resources.R4B import get_fhir_model_class

    bad = 0
    for resource in resources:
        try:
            get_fhir_model_class(resource["resourceType"]).model_validate(resource)
        except ValueError:
            bad += 1
    return bad


def _surviving_dates(
    notes: dict[str, tuple[str, str]],
    by_id: dict[str, Document],
    out: dict[str, str],
    pipeline: Pipeline,
    lang: str,
) -> None:
    """The gold dates surviving the FHIR path: detected or not, and their kind (counts only)."""
    import re

    from anonymed.substitute.temporal import parse_temporal

    kinds: Counter[str] = Counter()
    for ref, (note, _) in notes.items():
        doc = by_id[note]
        found = [s for s in doc.gold if s.label.value == "DATE"]
        found = [s for s in found if re.search(r"(?<!\w)" + re.escape(s.text) + r"(?!\w)", out[ref], re.I)]
        if not found:
            continue
        detected = pipeline.detect(Document(ref, doc.text, {"lang": lang})).spans
        for span in found:
            hit = any(d.start < span.end and span.start < d.end for d in detected)
            value = parse_temporal(span.text, lang=lang)
            kinds[f"{'detected' if hit else 'missed'} {value.kind.value if value else 'unparsed'}"] += 1
    print(f"  gold {lang} dates surviving the FHIR path: {dict(sorted(kinds.items()))}")


def gold_leaks(work: Path) -> None:
    """``--gold``: gold PHI surviving through the FHIR path and the plain-text path, by label."""

    from anonymed.fhir.gold import leaks, read_notes, write_gold_export
    from anonymed.train.corpora import read_gold_documents
    from anonymed.train.recipe import DEV_CORPORA, training_root

    for lang in ("en", "fr"):
        relative, fmt = DEV_CORPORA[lang]
        docs = read_gold_documents(training_root() / relative, fmt, lang)
        notes = write_gold_export(docs, work / f"gold-{lang}")
        config = PipelineConfig(lang=lang)
        deid = FhirDeidentifier(FhirOptions(patient_key=KEY), config)
        deid.run(work / f"gold-{lang}", work / f"gold-{lang}-out")
        written = read_notes(work / f"gold-{lang}-out")
        by_id = {doc.id: doc for doc in docs}
        fhir_out = {ref: written[deid.ids.resource_id("DocumentReference", ref)] for ref in notes}
        pipeline = Pipeline(config.replace(patient_key=KEY))
        plain_out = {
            ref: pipeline.run(Document(ref, by_id[n].text, {"patient_id": p, "lang": lang})).result
            for ref, (n, p) in notes.items()
        }
        for label in sorted({s.label.value for d in docs for s in d.gold}):
            gold = {
                ref: [s for s in by_id[n].gold if s.label.value == label] for ref, (n, _) in notes.items()
            }
            f, total = leaks(gold, fhir_out)
            p, _ = leaks(gold, plain_out)
            print(f"  gold {lang} {label}: FHIR path {f}/{total}, plain-text path {p}/{total}")
        _surviving_dates(notes, by_id, fhir_out, pipeline, lang)
        gold = {ref: list(by_id[n].gold) for ref, (n, _) in notes.items()}
        (f, total), (p, _) = leaks(gold, fhir_out), leaks(gold, plain_out)
        print(
            f"gold {lang} ({len(docs)} notes): FHIR path {f}/{total} = {f / total:.3f}, "
            f"plain-text path {p}/{total} = {p / total:.3f}"
        )


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--synthea", type=Path, required=True, help="Synthea bulk export folder")
    parser.add_argument("--notes", type=int, default=200, help="notes through the FHIR and plain paths")
    parser.add_argument(
        "--rows", type=int, default=100_000, help="rows of the PostgreSQL round trip (0: skip)"
    )
    parser.add_argument(
        "--pg-url", type=str, default=None, help="PostgreSQL URL (default: a throwaway server)"
    )
    parser.add_argument("--leaks", action="store_true", help="measure what the Synthea notes leak")
    parser.add_argument("--gold", action="store_true", help="measure the gold FHIR set's leak rates")
    args = parser.parse_args()
    with ExitStack() as stack:
        work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="anonymed-bench-")))
        if args.leaks:
            synthea_leaks(args.synthea, work)
        if args.gold:
            gold_leaks(work)
        structured(args.synthea, work)
        notes_paths(args.synthea, args.notes, work)
        if args.rows:
            url = args.pg_url
            if url is None:
                sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "sql"))
                from pg_server import postgres_server

                url = stack.enter_context(postgres_server())
            postgres(url, args.rows)


if __name__ == "__main__":
    main()
