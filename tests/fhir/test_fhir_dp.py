"""The shipped ``dp`` rules table end to end on the trimmed Synthea export: every element covered, resources
valid, references resolved, no identifier left, structured dates reduced to years, the notes' dates, ages
and places drawn by the profile's DP operators, and the manifest stating where the DP guarantee stops."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest
from fhir_support import (
    KEY,
    SYNTHEA,
    KnownRecorder,
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
def dp_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[FhirDeidentifier, Path]:
    target = tmp_path_factory.mktemp("fhir-dp") / "out"
    deid = run_fhir(
        SYNTHEA, target, extra=KnownRecorder(), patient_key=KEY, profile="dp", as_of=dt.date(2024, 1, 1)
    )
    return deid, target


def test_every_element_is_covered_and_every_resource_validates(dp_run: tuple[FhirDeidentifier, Path]) -> None:
    deid, out = dp_run
    manifest = json.loads((out / MANIFEST).read_text())
    assert deid.table.name == "dp" and manifest["profile"] == "dp"
    assert manifest["removed_unknown_elements"] == {}  # no element of the sample falls to deny-by-default
    assert manifest["failed"] == 0 and all(c["quarantined"] == 0 for c in manifest["resources"].values())
    count = 0
    for resource in resources(out):
        fhir_r4b.get_fhir_model_class(resource["resourceType"]).model_validate(resource)
        count += 1
    assert count == sum(1 for _ in resources(SYNTHEA))


def test_references_resolve_and_ids_are_the_keyed_pseudonyms(dp_run: tuple[FhirDeidentifier, Path]) -> None:
    deid, out = dp_run
    present = {f"{r['resourceType']}/{r['id']}" for r in resources(out)}
    refs = [ref for r in resources(out) for ref in references(r)]
    assert len(refs) > 400 and [ref for ref in refs if ref not in present] == []
    patients = sorted(r["id"] for r in resources(SYNTHEA) if r["resourceType"] == "Patient")
    written = sorted(r["id"] for r in resources(out) if r["resourceType"] == "Patient")
    assert written == sorted(deid.ids.resource_id("Patient", p) for p in patients)  # as the SQL path writes


def test_no_identifying_value_survives_anywhere(dp_run: tuple[FhirDeidentifier, Path]) -> None:
    _, out = dp_run
    values = identifying_values(SYNTHEA)
    assert len(values) > 50
    assert leaks(values, output_texts(out)) == set()


def test_structured_dates_keep_their_year_alone(dp_run: tuple[FhirDeidentifier, Path]) -> None:
    """No month or day of a structured date, no birth date of someone aged 90+ (no shift to give away)."""
    _, out = dp_run
    for resource in resources(out):
        body = json.dumps({k: v for k, v in resource.items() if k != "content"})
        assert not re.search(r'"\d{4}-\d{2}', body), resource["resourceType"]
    births = sorted(r.get("birthDate", "removed") for r in resources(out) if r["resourceType"] == "Patient")
    assert births == ["2002", "2011", "removed"]  # born 1927: 90+ before --as-of
    addresses = [a for r in resources(out) if r["resourceType"] == "Patient" for a in r.get("address", [])]
    assert addresses and all(set(a) <= {"use", "type", "state", "country", "postalCode"} for a in addresses)


def test_notes_are_scrubbed_by_the_dp_operators_and_the_manifest_says_where_dp_stops(
    dp_run: tuple[FhirDeidentifier, Path],
) -> None:
    _, out = dp_run
    manifest = json.loads((out / MANIFEST).read_text())
    by_label = manifest["text"]["substitution"]["by_label"]
    for label, operator in (("DATE", "dp_date"), ("AGE", "dp_age"), ("LOCATION", "dp_location")):
        assert sum(by_label[label][operator].values()) > 10, label
    assert manifest["text"]["substitution"]["dp"]["spans"] > 30  # DP values accounted (unchanged vs expected)
    dp = manifest["differential_privacy"]
    assert dp["epsilon_per_text"] == 0.1 and "no differential-privacy guarantee" in dp["structured_elements"]
    assert manifest["safe_harbor_claimed"] is False and "not HIPAA Safe Harbor" in manifest["note"]
    assert "shifted" not in manifest["note"] and manifest["dates"].startswith("structured: year only")
    assert leaks(identifying_values(SYNTHEA), [json.dumps(manifest)]) == set()


def test_structured_pass_under_dp_is_deterministic_for_a_key(tmp_path: Path) -> None:
    """No DP draw reaches a structured element: with the notes left out, two runs write identical bytes."""
    first, second = tmp_path / "a", tmp_path / "b"
    for target in (first, second):
        run_fhir(SYNTHEA, target, patient_key=KEY, profile="dp", text=False, as_of=dt.date(2024, 1, 1))
    names = sorted(p.name for p in first.iterdir())
    assert MANIFEST in names and len(names) > 5
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_a_method_built_on_another_configuration_is_refused() -> None:
    """The text pass's method must be the run's (profile, key, seed): anonymed.methods builds it."""
    from anonymed.config import PipelineConfig
    from anonymed.errors import ConfigError
    from anonymed.fhir import FhirOptions
    from anonymed.fhir.dates import run_key
    from anonymed.fhir.text import replace_method

    options = FhirOptions(patient_key=KEY, seed=3)
    run_config = PipelineConfig(profile="dp").replace(patient_key=run_key(KEY, 3), seed=3)
    deid = FhirDeidentifier(options, PipelineConfig(profile="dp"), replace_method(run_config))
    assert deid.text is not None and deid.text.method.config.pipeline == deid.config
    with pytest.raises(ConfigError, match="not built on the run's configuration"):
        FhirDeidentifier(options, PipelineConfig(profile="dp"), replace_method(run_config.replace(seed=4)))
