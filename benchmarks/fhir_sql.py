"""Speed of the FHIR and SQL paths, each against a baseline measured in the same run.

    python benchmarks/fhir_sql.py --synthea SYNTHEA --notes 200 --rows 100000  (SYNTHEA: a Synthea export)

1. Structured pass (``deid-fhir --no-text``) over the whole export: resources per CPU second (one core),
   against parsing and re-serialising the same resources with orjson (the floor of any NDJSON tool).
2. Notes through the FHIR path (``deid-fhir`` on the first ``--notes`` DocumentReferences, with their
   Patients and Practitioners) against the plain-text path (``Pipeline.run`` on the same decoded notes,
   same configuration): notes per CPU second and the ratio. ``--notes 0`` skips it.
3. PostgreSQL round trip: a ``--rows`` table of short synthetic notes is written (ADBC), de-identified
   by ``deid-sql`` into a new table, and counted back; rows per second of wall time, with the same round
   trip without detectors (the database and pagination machinery alone) as the baseline. ``--pg-url``
   names a server; without it a throwaway one is started with the tests' helper (Debian's postgresql).
Every path runs the default privacy profile (``pseudonymise``).

Two leak measurements, on request (they are slower):

* ``--leaks``: the whole Synthea export through ``deid-fhir`` (text pass on): how many distinct names,
  telecom values, address parts and identifiers of its Patients and Practitioners survive (whole word,
  case-insensitive) in the structured files and in the decoded notes, and how many note mentions; and the
  timeline attack below on its notes. Twice: as shipped (the notes' Documents carry the patients' known
  identifiers, which the ``known`` detector finds) and with the known identifiers withheld from the text
  pass (the text pipeline alone).
* ``--gold``: the gold FHIR set (every PhysioNet and EDS-pseudo development note as DocumentReferences,
  ``anonymed.fhir.gold``) through the FHIR path and the plain-text path: the leak rate of ``anonymed
  evaluate leaks`` (``anonymed.evaluate.leaks``: a gold item's text surviving at or near its place, here
  by word alignment for both paths), overall and by label; for the plain-text path also its split into
  missed and written back (from the run's spans); and the timeline attack on the FHIR path's notes. Twice:
  with the default detectors (the shipped tagger was trained on these notes: optimistic) and with the
  patterns and lexicons alone (nothing trained on these notes: misses to compare).

The timeline attack: structured dates move by the patient's shift S alone, so one true structured date
(a birth date) gives S; each full date the FHIR path wrote in the patient's notes is then estimated as
``s_j - S``. Printed: how many, the share recovered exactly, the median and largest error in days; and,
for comparison, the attack of docs/profiles.md (one true note date revealed, the others estimated as
``s_j - (s_i - d_i)``) on the same dates.
"""

from __future__ import annotations

import argparse
import base64
import dataclasses
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import orjson

from anonymed.config import PipelineConfig
from anonymed.dates.over89 import has_year
from anonymed.dates.temporal import Kind, detect_order, parse_temporal
from anonymed.document import Document
from anonymed.fhir import FhirDeidentifier, FhirOptions
from anonymed.fhir.text import TextContext, replace_method
from anonymed.labels import Label
from anonymed.pipeline import Pipeline
from anonymed.sql import ColumnMap, Source, SqlJob, open_database

KEY = b"benchmark-patient-key-0123"
CONFIG = PipelineConfig()


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
    method = replace_method(CONFIG.replace(patient_key=KEY))  # loaded once, shared by both paths
    method(Document("warm-up", decoded[0][1]))

    def plain() -> None:
        for i, (patient, text) in enumerate(decoded):
            method(Document(f"n{i}", text, {"patient_id": patient}))

    deidentifier = FhirDeidentifier(FhirOptions(patient_key=KEY), CONFIG, method)
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
    """``--leaks``: the people's identifiers left, with and without their known identifiers in the notes."""
    for known in (True, False):
        _synthea_leaks(export, work / f"leaks-{'known' if known else 'alone'}", known)


def _synthea_leaks(export: Path, out: Path, known: bool) -> None:
    import re

    deid = FhirDeidentifier(FhirOptions(patient_key=KEY, seed=1), CONFIG)
    captured = _capture(deid, known=known)
    deid.run(export, out)
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
    how = (
        "known identifiers passed to the notes"
        if known
        else "known identifiers withheld: text pipeline alone"
    )
    print(
        f"Synthea leaks ({how}): {len(values)} identifying values; "
        f"{len(in_structured)} in structured elements; {len(in_notes)} in {len(notes)} decoded notes "
        f"({sum(in_notes.values())} mentions): {dict(sorted(kinds.items()))}"
    )
    timeline_attack(captured, deid, "en", "Synthea")


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


def _capture(deid: FhirDeidentifier, *, known: bool = True) -> list[Document]:
    """Keep every Document the FHIR path's text pass produces (with its replacements); with ``known``
    false, the text pass's Documents carry no known identifiers."""
    captured: list[Document] = []
    assert deid.text is not None
    run = deid.text.run

    def recording(text: str, context: TextContext) -> Document:
        done = run(text, context if known else dataclasses.replace(context, known=()))
        captured.append(done)
        return done

    deid.text.run = recording  # type: ignore[method-assign]
    return captured


def _days(texts: list[str], lang: str) -> list[int | None]:
    """Day numbers of the full dates (with their year) among ``texts``, in one numeric order."""
    order = detect_order(texts, lang)
    values = [parse_temporal(t, lang=lang, order=order) for t in texts]
    return [
        int(v.quantity) if v is not None and v.kind is Kind.DATE and has_year(v) else None for v in values
    ]


def timeline_attack(docs: list[Document], deid: FhirDeidentifier, lang: str, name: str) -> None:
    """The attack of the module docstring on the full dates the FHIR path wrote in patients' notes."""
    by_patient: dict[str, dict[int, int]] = defaultdict(dict)  # patient -> true day -> surrogate day
    for doc in docs:
        reps = [r for r in doc.replacements if r.label is Label.DATE]
        true, written = _days([r.original for r in reps], lang), _days([r.surrogate for r in reps], lang)
        for d, s in zip(true, written, strict=True):
            if d is not None and s is not None and doc.patient_id and not doc.patient_id.startswith("\x00"):
                by_patient[doc.patient_id].setdefault(d, s)
    known_shift = [
        abs(s - deid.timeline.days(p) - d) for p, dates in by_patient.items() for d, s in dates.items()
    ]
    one_note = [
        abs(sj - (si - di) - dj)
        for dates in by_patient.values()
        for di, si in dates.items()
        for dj, sj in dates.items()
        if dj != di
    ]
    if not known_shift:
        print(f"  timeline attack {name} {lang}: no full dates in notes")
        return

    def line(errors: list[int]) -> str:
        exact = sum(e == 0 for e in errors) / len(errors)
        median = statistics.median(errors)
        return f"{len(errors):,} estimates, exact {exact:.1%}, median {median} d, max {max(errors)} d"

    print(f"  timeline attack {name} {lang} ({len(by_patient)} patients, {len(known_shift)} note dates):")
    print(f"    one true structured date known (S revealed): {line(known_shift)}")
    if one_note:
        print(f"    one true note date known (docs/profiles.md): {line(one_note)}")


def gold_leaks(work: Path) -> None:
    """``--gold``: leak rates through the FHIR path and the plain-text path, by label; timeline attack."""
    from anonymed.evaluate.leaks import Anonymized, LeakCounts, evaluate_leaks, from_run
    from anonymed.fhir.gold import read_notes, write_gold_export
    from anonymed.train.corpora import read_gold_documents
    from anonymed.train.recipe import DEV_CORPORA, training_root

    def rate(counts: LeakCounts | None) -> str:
        return (
            "-"
            if not counts or not counts.items
            else f"{counts.leaked}/{counts.items} ({counts.leaked / counts.items:.1%})"
        )

    untrained = ("patterns", "lexicons")
    for lang, detectors in (("en", None), ("fr", None), ("en", untrained), ("fr", untrained)):
        relative, fmt = DEV_CORPORA[lang]
        docs = read_gold_documents(training_root() / relative, fmt, lang)
        folder = work / f"gold-{lang}-{'-'.join(detectors or ('default',))}"
        notes = write_gold_export(docs, folder)
        config = PipelineConfig(lang=lang).replace(detectors=detectors)
        deid = FhirDeidentifier(FhirOptions(patient_key=KEY), config)
        captured = _capture(deid)
        deid.run(folder, folder.with_name(folder.name + "-out"))
        written = read_notes(folder.with_name(folder.name + "-out"))
        by_id = {doc.id: doc for doc in docs}
        by_ref = {ref: by_id[n] for ref, (n, _) in notes.items()}
        fhir_out = {ref: written[deid.ids.resource_id("DocumentReference", ref)] for ref in notes}
        pipeline = Pipeline(config.replace(patient_key=KEY))
        plain = {
            ref: pipeline.run(Document(ref, by_id[n].text, {"patient_id": p, "lang": lang}))
            for ref, (n, p) in notes.items()
        }
        fhir = evaluate_leaks(Anonymized(by_ref[ref], fhir_out[ref]) for ref in notes)
        aligned = evaluate_leaks(Anonymized(by_ref[ref], plain[ref].result) for ref in notes)
        causes = evaluate_leaks(from_run(by_ref[ref], plain[ref]) for ref in notes)
        print(
            f"gold {lang} ({len(docs)} notes, detectors {', '.join(config.detectors)}): category | "
            "FHIR path | plain-text path | plain, missed / written back"
        )
        for category in fhir.categories():
            print(
                f"  {category} | {rate(fhir.category(category))} | {rate(aligned.category(category))} | "
                f"{(causes.category(category) or LeakCounts()).cell()}"
            )
        timeline_attack(captured, deid, lang, "gold")


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--synthea", type=Path, required=True, help="Synthea bulk export folder")
    parser.add_argument(
        "--notes", type=int, default=200, help="notes through the FHIR and plain paths (0: skip)"
    )
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
        if args.notes:
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
