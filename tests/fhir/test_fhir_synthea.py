"""End to end on the trimmed Synthea export: no identifier left, references resolve, resources validate,
one timeline per patient, identical bytes for the same key and seed."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

import pytest
from fhir_support import (
    KEY,
    SYNTHEA,
    KnownRecorder,
    decoded_attachments,
    identifying_values,
    leaks,
    output_texts,
    references,
    resources,
    run_fhir,
)

from anonymed.fhir import MANIFEST, FhirDeidentifier

fhir_r4b = pytest.importorskip("fhir.resources.R4B")


@pytest.fixture(scope="module")
def recorder() -> KnownRecorder:
    return KnownRecorder()


@pytest.fixture(scope="module")
def default_run(
    tmp_path_factory: pytest.TempPathFactory, recorder: KnownRecorder
) -> tuple[FhirDeidentifier, Path]:
    target = tmp_path_factory.mktemp("fhir") / "out"
    return run_fhir(SYNTHEA, target, extra=recorder, patient_key=KEY, seed=11), target


def test_every_output_resource_validates_against_r4b(default_run: tuple[FhirDeidentifier, Path]) -> None:
    _, out = default_run
    count = 0
    for resource in resources(out):
        fhir_r4b.get_fhir_model_class(resource["resourceType"]).model_validate(resource)
        count += 1
    assert count == sum(1 for _ in resources(SYNTHEA))


def test_every_reference_resolves(default_run: tuple[FhirDeidentifier, Path]) -> None:
    _, out = default_run
    present = {f"{r['resourceType']}/{r['id']}" for r in resources(out)}
    refs = [ref for r in resources(out) for ref in references(r)]
    assert len(refs) > 400
    assert [ref for ref in refs if ref not in present] == []
    # the input's conditional references ("Practitioner?identifier=...") became literal ones
    assert sum("?" in ref for r in resources(SYNTHEA) for ref in references(r)) > 50


def test_no_identifying_value_survives_anywhere(default_run: tuple[FhirDeidentifier, Path]) -> None:
    """With the patients' known identifiers consumed by the pipeline's ``known`` detector, nothing of a
    person's name, telecom, address or identifier is left in any file or decoded attachment."""
    _, out = default_run
    values = identifying_values(SYNTHEA)
    assert len(values) > 50
    assert leaks(values, output_texts(out)) == set()


def test_known_identifiers_are_gathered_and_passed_in_the_contract_format(
    default_run: tuple[FhirDeidentifier, Path], recorder: KnownRecorder
) -> None:
    note_docs = {
        doc_id: known for doc_id, known in recorder.seen.items() if doc_id.startswith("DocumentReference/")
    }
    assert len(note_docs) >= 31
    some = next(iter(note_docs.values()))
    kinds = {item["kind"] for item in some}
    assert {
        "NAME/patient",
        "DATE/birth",
        "ID/mrn",
        "ID/ssn",
        "CONTACT/phone",
        "LOCATION/street",
        "LOCATION/city",
        "LOCATION/zip",
        "NAME/clinician",
    } <= kinds
    assert all(set(item) == {"kind", "value"} and isinstance(item["value"], str) for item in some)
    denis = [k for k in note_docs.values() if {"kind": "NAME/patient", "value": "Denis399"} in k]
    assert denis and all({"kind": "NAME/patient", "value": "Karena692"} not in k for k in denis)
    assert {"kind": "NAME/patient", "value": "Denis399 Lincoln623 Schmitt836"} in denis[0]


def test_without_the_known_identifiers_names_stay_in_notes(tmp_path: Path) -> None:
    """The known identifiers are what finds the Synthea-style names ("Denis399") the tagger misses: with
    them withheld from the text pass, patients' name parts survive in the notes (and only there: every
    structured element is clean)."""
    out = tmp_path / "out"
    run_fhir(SYNTHEA, out, patient_key=KEY, seed=11, withhold_known=True)
    values = identifying_values(SYNTHEA)
    structured = [p.read_text(encoding="utf-8") for p in sorted(out.iterdir()) if p.is_file()]
    assert leaks(values, structured) == set()
    in_notes = leaks(values, [t for r in resources(out) for t in decoded_attachments(r)])
    names = {
        n
        for r in resources(SYNTHEA)
        if r["resourceType"] == "Patient"
        for x in r["name"]
        for n in [*x.get("given", []), x.get("family", "")]
    }
    assert in_notes and in_notes <= names


def _dates(node: Any, path: str = "") -> dict[str, str]:
    found: dict[str, str] = {}
    if isinstance(node, dict):
        for k, v in node.items():
            found.update(_dates(v, f"{path}.{k}"))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            found.update(_dates(v, f"{path}[{i}]"))
    elif isinstance(node, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}(T.*)?", node):
        found[path] = node
    return found


def test_one_patient_one_timeline_in_structured_dates_and_notes(
    default_run: tuple[FhirDeidentifier, Path],
) -> None:
    """Structured dates move by the patient's shift exactly; the notes' dates by the same shift plus the
    profile's per-date noise (never 0, at most noise_days), never written back."""
    deid, out = default_run
    noise = deid.timeline.params.noise_days
    by_id = {(r["resourceType"], r["id"]): r for r in resources(out)}
    structured: dict[str, set[int]] = {}
    in_notes: dict[str, list[int]] = {}
    for original in resources(SYNTHEA):
        patient = deid.index.patient_of(original)
        if patient is None:
            continue
        output = by_id[
            (original["resourceType"], deid.ids.resource_id(original["resourceType"], original["id"]))
        ]
        before, after = _dates(original), _dates(output)
        for path, value in before.items():
            if path in after:
                delta = dt.date.fromisoformat(after[path][:10]) - dt.date.fromisoformat(value[:10])
                structured.setdefault(patient, set()).add(delta.days)
                assert after[path][10:] == value[10:]  # time of day and zone kept
        for note_in, note_out in zip(decoded_attachments(original), decoded_attachments(output), strict=True):
            first_in, first_out = (
                note_in.split()[0],
                note_out.split()[0],
            )  # Synthea notes open with their date
            delta = dt.date.fromisoformat(first_out) - dt.date.fromisoformat(first_in)
            in_notes.setdefault(patient, []).append(delta.days)
    assert sum(len(v) for v in in_notes.values()) == 31 and len(structured) == 3
    for patient, days in structured.items():
        assert days == {deid.timeline.days(patient)}, days  # one shift: intervals exact
        noises = [d - deid.timeline.days(patient) for d in in_notes.get(patient, [])]
        assert all(abs(n) <= noise for n in noises) and 0 not in in_notes.get(patient, [])
    assert len({deid.timeline.days(p) for p in structured}) == 3
    assert len({n for p, days in in_notes.items() for n in days}) > 3  # per-date noise in the notes


def test_same_key_and_seed_give_identical_bytes(
    default_run: tuple[FhirDeidentifier, Path], tmp_path: Path
) -> None:
    _, first = default_run
    second = tmp_path / "again"
    run_fhir(SYNTHEA, second, extra=KnownRecorder(), patient_key=KEY, seed=11)
    names = sorted(p.name for p in first.iterdir())
    assert names == sorted(p.name for p in second.iterdir()) and MANIFEST in names
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_manifest_tells_what_was_done_without_values(default_run: tuple[FhirDeidentifier, Path]) -> None:
    _deid, out = default_run
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["profile"] == "pseudonymise" and manifest["safe_harbor_claimed"] is False
    totals = manifest["text"]["substitution"]["totals"]
    assert totals["replaced"] > 100 and totals["kept"] == 0 and totals["unchanged"] == 0
    assert "not HIPAA Safe Harbor" in manifest["note"]
    assert manifest["failed"] == 0 and manifest["skipped_files"] == ["LICENSE"]
    assert manifest["resources"]["DocumentReference"] == {"in": 31, "out": 31, "quarantined": 0}
    assert manifest["attachments"] == {"processed": 31}
    assert manifest["known_identifiers_dropped"] == 0
    assert manifest["removed_unknown_extensions"]  # Synthea's own extensions are not in the table
    blob = json.dumps(manifest)
    assert leaks(identifying_values(SYNTHEA), [blob]) == set()


def test_safe_harbor_keeps_years_alone(tmp_path: Path) -> None:
    out = tmp_path / "sh"
    run_fhir(
        SYNTHEA, out, extra=KnownRecorder(), seed=2, profile="hipaa-safe-harbor", as_of=dt.date(2024, 1, 1)
    )
    for resource in resources(out):
        fhir_r4b.get_fhir_model_class(resource["resourceType"]).model_validate(resource)
        body = json.dumps({k: v for k, v in resource.items() if k != "content"})
        assert not re.search(r'"\d{4}-\d{2}', body), resource["resourceType"]
        for note in decoded_attachments(resource):
            assert not re.search(r"\b\d{4}-\d{2}-\d{2}\b", note)
    patients = [r for r in resources(out) if r["resourceType"] == "Patient"]
    assert sorted(p.get("birthDate", "removed") for p in patients) == [
        "2002",
        "2011",
        "removed",
    ]  # born 1927: 90+
    assert leaks(identifying_values(SYNTHEA), output_texts(out)) == set()
    assert all("identifier" not in r for r in resources(out))
    addresses = [
        a
        for r in resources(out)
        for a in (
            r["address"] if isinstance(r.get("address"), list) else [r["address"]] if "address" in r else []
        )
    ]
    postal = {a.get("postalCode") for a in addresses}
    assert postal and all(p is None or re.fullmatch(r"\d{3}\*\*(-?\*{4})?", p) for p in postal)
    checklist = json.loads((out / MANIFEST).read_text())["text"]["substitution"]["checklist"]
    assert len(checklist) == 18  # the run summary's Safe Harbor checklist, for the notes


def test_gzipped_ndjson_bundles_and_single_resources_keep_their_layout(tmp_path: Path) -> None:
    import gzip

    source = tmp_path / "in"
    (source / "sub").mkdir(parents=True)
    patient = (SYNTHEA / "Patient.000.ndjson").read_bytes()
    (source / "sub" / "Patient.000.ndjson.gz").write_bytes(gzip.compress(patient))
    first = json.loads(patient.splitlines()[0])
    bundle = {
        "resourceType": "Bundle",
        "type": "collection",
        "entry": [{"fullUrl": "urn:uuid:" + first["id"], "resource": first}],
    }
    (source / "bundle.json").write_text(json.dumps(bundle))
    (source / "patient.json").write_text(json.dumps(first))  # a single resource
    out = tmp_path / "out"
    deid = run_fhir(source, out, patient_key=KEY, seed=1, text=False)
    with gzip.open(out / "sub" / "Patient.000.ndjson.gz") as handle:
        lines = handle.read().splitlines()
    assert len(lines) == 3 and json.loads(lines[0])["id"] == deid.ids.resource_id("Patient", first["id"])
    written = json.loads((out / "bundle.json").read_text())
    entry = written["entry"][0]
    assert entry["fullUrl"] == f"urn:uuid:{deid.ids.urn(first['id'])}"
    assert entry["resource"]["id"] == json.loads(lines[0])["id"]
    single = json.loads((out / "patient.json").read_text())
    assert single["resourceType"] == "Patient" and single["id"] == entry["resource"]["id"]
    assert "name" not in single and "meta" in single
