"""The structured pass on hand-made resources: deny by default, extensions, quarantine, labels, references."""

from __future__ import annotations

import datetime as dt
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from anonymed.fhir.dates import Timeline
from anonymed.fhir.ids import Pseudonyms
from anonymed.fhir.index import ExportIndex
from anonymed.fhir.rules import parse_table
from anonymed.fhir.structured import SECURITY_SYSTEM, UCUM, StructuredPass
from anonymed.known import MAX_ITEMS, MAX_VALUE_CHARS, known_items
from anonymed.substitute.date_shift import DateShiftParams

RULES = {
    "*.id": "id",
    "*.meta.profile": "keep",
    "*.text.status": "keep",
    "*.text.div": "narrative",
    "**.reference": "reference",
    "**.identifier.system": "keep",
    "**.identifier.value": "pseudonym",
    "**.period": "shift",
    "**.code": "keep",
    "**.code.text": "remove",
    "Patient.gender": "keep",
    "Patient.birthDate": "year",
    "Condition.onsetAge": "age",
    "Condition.recordedDate": "shift",
    "Patient.address.postalCode": "zip3",
    "Patient.name": "remove",
    "Patient.name.given": "keep",
    "Observation.status": "keep",
    "Observation.effectiveDateTime": "year",
    "Bundle.type": "keep",
    "Bundle.entry.fullUrl": "reference",
}


AS_OF = dt.date(2024, 1, 1)


def timeline() -> Timeline:
    return Timeline(b"k" * 32, DateShiftParams(), AS_OF)


def structured(resources: list[dict[str, Any]], **table: Any) -> StructuredPass:
    rules = parse_table({"profile": {"name": "pseudonymise"}, "rules": RULES, **table}, "test")
    index = ExportIndex()
    for resource in resources:
        index.add(resource)
    return StructuredPass(
        rules, Pseudonyms("hmac", key=b"k" * 32), timeline(), index, None, restricted_zip3=frozenset({"036"})
    )


def labels(resource: dict[str, Any]) -> set[str]:
    return {c["code"] for c in resource.get("meta", {}).get("security", []) if c["system"] == SECURITY_SYSTEM}


def test_unknown_elements_are_removed_and_counted_by_path() -> None:
    patient = {
        "resourceType": "Patient",
        "id": "p1",
        "gender": "female",
        "hobby": "chess",
        "contact": [{"name": {"family": "Smith"}}],
        "name": [{"given": ["Ann"], "family": "Lee"}],
    }
    sp = structured([patient])
    out = sp.resource(patient)
    assert out is not None
    assert set(out) == {"resourceType", "id", "gender", "meta"}  # name removed whole despite "name.given"
    assert sp.stats.unknown == {"Patient.hobby": 1, "Patient.contact.name.family": 1}
    assert labels(out) == {"REDACTED", "PSEUDED"}


def test_container_rules_apply_to_the_values_under_them_unless_a_deeper_rule_says_otherwise() -> None:
    obs = {
        "resourceType": "Observation",
        "id": "o",
        "status": "final",
        "code": {"coding": [{"system": "http://loinc.org", "code": "1-8"}], "text": "free text"},
    }
    out = structured([obs]).resource(obs)
    assert out is not None and out["code"] == {"coding": [{"system": "http://loinc.org", "code": "1-8"}]}


def test_nothing_changed_means_no_label_and_ids_are_pseudonymised() -> None:
    obs = {"resourceType": "Observation", "status": "final"}
    sp = structured([obs])
    out = sp.resource(obs)
    assert out == {"resourceType": "Observation", "status": "final"}


def test_extensions_by_url() -> None:
    patient = {
        "resourceType": "Patient",
        "id": "p",
        "extension": [
            {"url": "http://keep", "valueString": "x"},
            {"url": "http://unknown", "valueString": "Jane"},
            {"url": "http://shift", "valueDateTime": "2000-01-01"},
        ],
    }
    sp = structured([patient], extensions={"http://keep": "keep", "http://shift": "shift"})
    out = sp.resource(patient)
    assert out is not None
    urls = [e["url"] for e in out["extension"]]
    assert urls == ["http://keep", "http://shift"]
    assert out["extension"][1]["valueDateTime"] != "2000-01-01"
    assert sp.stats.extensions == {"http://unknown": 1}


def test_unknown_modifier_extension_quarantines_the_resource() -> None:
    bad = {
        "resourceType": "Observation",
        "id": "o",
        "status": "final",
        "modifierExtension": [{"url": "http://negates", "valueBoolean": True}],
    }
    sp = structured([bad])
    assert sp.resource(bad) is None
    assert sp.stats.quarantined[0]["modifierExtension"] == "http://negates"
    assert sp.stats.quarantined[0]["id"] != "o"
    ok = structured([bad], modifier_extensions={"http://negates": "keep"}).resource(bad)
    assert ok is not None and ok["modifierExtension"] == bad["modifierExtension"]


def test_year_removes_dates_of_90_years_and_more_and_zip3_writes_like_the_operator() -> None:
    young = {
        "resourceType": "Patient",
        "id": "a",
        "birthDate": "1950-06-01",
        "address": [{"postalCode": "03601"}],
    }
    old = {
        "resourceType": "Patient",
        "id": "b",
        "birthDate": "1933-12-31",
        "address": [{"postalCode": "66801-2504"}],
    }
    sp = structured([young, old])
    out_young, out_old = sp.resource(young), sp.resource(old)
    assert out_young is not None and out_old is not None
    assert out_young["birthDate"] == "1950" and out_young["address"] == [{"postalCode": "000**"}]
    assert "birthDate" not in out_old and out_old["address"] == [{"postalCode": "668**-****"}]
    assert labels(out_old) >= {"ABSTRED", "REDACTED"}
    assert sp.stats.actions["date:90+ removed"] == 1
    canadian = {"resourceType": "Patient", "id": "c", "address": [{"postalCode": "K1A 0B1"}]}
    assert "address" not in (sp.resource(canadian) or {})  # not a US ZIP: removed


def test_ages_up_to_89_stay_and_older_ones_become_the_90_or_older_category() -> None:
    def condition(value: float, code: str, system: str = UCUM) -> dict[str, Any]:
        age = {"value": value, "unit": code, "system": system, "code": code}
        return {"resourceType": "Condition", "id": "c", "onsetAge": age}

    sp = structured([])
    kept = sp.resource(condition(89, "a"))
    assert kept is not None and kept["onsetAge"]["value"] == 89 and "ABSTRED" not in labels(kept)
    for old in (condition(95, "a"), condition(1100, "mo"), condition(33000, "d")):
        out = sp.resource(old)
        assert out is not None and out["onsetAge"] == {
            "value": 90, "comparator": ">=", "unit": "years", "system": UCUM, "code": "a"
        }  # fmt: skip
        assert "ABSTRED" in labels(out)
    assert sp.resource(condition(30, "mo"))["onsetAge"]["value"] == 30  # type: ignore[index]
    for unreadable in (condition(40, "yr", "http://other"), condition(40, "parsec")):
        out = sp.resource(unreadable)
        assert out is not None and "onsetAge" not in out and "REDACTED" in labels(out)


def test_a_shifted_date_90_years_or_more_before_the_reference_day_is_removed() -> None:
    patient = {"resourceType": "Patient", "id": "p"}
    conditions = [
        {
            "resourceType": "Condition",
            "id": f"c{i}",
            "subject": {"reference": "Patient/p"},
            "recordedDate": day,
        }
        for i, day in enumerate(["1930-05-01", "1990-05-01"])
    ]
    sp = structured([patient, *conditions])
    old, recent = (sp.resource(c) for c in conditions)
    assert old is not None and "recordedDate" not in old
    assert recent is not None and recent["recordedDate"] != "1990-05-01"
    assert sp.stats.actions["date:90+ removed"] == 1


def test_conditional_and_logical_references_become_literal_and_resolve() -> None:
    practitioner = {
        "resourceType": "Practitioner",
        "id": "dr",
        "identifier": [{"system": "npi", "value": "42"}],
    }
    obs = {
        "resourceType": "Observation",
        "id": "o",
        "status": "final",
        "performer": [
            {"reference": "Practitioner?identifier=npi|42"},
            {"identifier": {"system": "npi", "value": "42"}},
        ],
    }
    sp = structured([practitioner, obs])
    out, dr = sp.resource(obs), sp.resource(practitioner)
    assert out is not None and dr is not None
    expected = f"Practitioner/{dr['id']}"
    assert out["performer"][0] == {"reference": expected}
    assert out["performer"][1]["reference"] == expected
    assert out["performer"][1]["identifier"]["value"] == dr["identifier"][0]["value"] != "42"


def test_patient_dates_share_one_shift_and_other_resources_get_their_own() -> None:
    patient = {"resourceType": "Patient", "id": "p"}
    enc = [
        {
            "resourceType": "Encounter",
            "id": f"e{i}",
            "subject": {"reference": "Patient/p"},
            "period": {"start": f"2020-0{i}-01"},
        }
        for i in (1, 2)
    ]
    sp = structured([patient, *enc])
    starts = [dt.date.fromisoformat(sp.resource(e)["period"]["start"]) for e in enc]  # type: ignore[index]
    assert (starts[1] - starts[0]).days == 31
    assert sp.timeline.days("p") == (starts[0] - dt.date(2020, 1, 1)).days


def test_contained_resources_keep_their_local_ids_and_bundles_their_urns() -> None:
    inner = {"resourceType": "Patient", "id": "p"}
    bundle = {
        "resourceType": "Bundle",
        "id": "b",
        "type": "collection",
        "entry": [
            {"fullUrl": "urn:uuid:00000000-0000-4000-8000-000000000001", "resource": inner},
            {
                "fullUrl": "urn:uuid:00000000-0000-4000-8000-000000000002",
                "resource": {
                    "resourceType": "Observation",
                    "id": "o",
                    "status": "final",
                    "subject": {"reference": "urn:uuid:00000000-0000-4000-8000-000000000001"},
                    "contained": [{"resourceType": "Patient", "id": "c1", "gender": "male"}],
                    "performer": [{"reference": "#c1"}],
                },
            },
        ],
    }
    sp = structured([bundle], rules={**RULES, "Observation.subject": "keep", "Observation.performer": "keep"})
    out = sp.resource(bundle)
    assert out is not None
    first, second = out["entry"]
    assert second["resource"]["subject"]["reference"] == first["fullUrl"] != bundle["entry"][0]["fullUrl"]
    assert second["resource"]["contained"][0]["id"] == "c1"
    assert second["resource"]["performer"][0]["reference"] == "#c1"
    assert sp.index.patient_of(bundle["entry"][1]["resource"]) == "p"


def test_quarantined_bundle_entry_goes_whole() -> None:
    bundle = {
        "resourceType": "Bundle",
        "type": "collection",
        "entry": [
            {
                "fullUrl": "urn:uuid:00000000-0000-4000-8000-000000000003",
                "resource": {
                    "resourceType": "Observation",
                    "modifierExtension": [{"url": "http://x", "valueBoolean": True}],
                },
            },
        ],
    }
    sp = structured([bundle])
    out = sp.resource(bundle)
    assert out is not None and "entry" not in out and out["type"] == "collection"
    assert sp.stats.quarantined_by_type == {"Observation": 1}


def test_without_the_text_pass_free_text_and_narratives_are_removed() -> None:
    patient = {
        "resourceType": "Patient",
        "id": "p",
        "text": {"status": "generated", "div": "<div>Ann Lee</div>"},
    }
    out = structured([patient], rules={**RULES}).resource(patient)
    assert out is not None and "text" not in out  # a Narrative without its div is invalid: status goes too


def test_binary_data_goes_through_the_attachment_processing() -> None:
    import base64

    class Upper:
        """A stand-in text pass: upper-cases the text (a visible change, no pipeline needed)."""

        def scrub(self, text: str, context: object) -> tuple[str, tuple[()]]:
            return text.upper(), ()

    rtf = base64.b64encode(rb"{\rtf1\ansi seen by ann lee\par}").decode()
    pdf = base64.b64encode(b"%PDF-1.4 ann lee").decode()
    binaries = [
        {
            "resourceType": "Binary",
            "id": "b1",
            "contentType": "text/plain",
            "data": base64.b64encode(b"ann").decode(),
        },
        {"resourceType": "Binary", "id": "b2", "contentType": "application/rtf", "data": rtf},
        {"resourceType": "Binary", "id": "b3", "contentType": "application/pdf", "data": pdf},
    ]
    rules = {**RULES, "Binary.data": "attachment", "Binary.contentType": "keep"}
    sp = structured(binaries, rules=rules)
    sp.text = Upper()  # type: ignore[assignment]
    plain, converted, dropped = (sp.resource(b) for b in binaries)
    assert plain is not None and base64.b64decode(plain["data"]) == b"ANN"
    assert converted is not None and converted["contentType"] == "text/plain; charset=utf-8"
    assert base64.b64decode(converted["data"]).decode().strip() == "SEEN BY ANN LEE"
    assert dropped is not None and "data" not in dropped and dropped["contentType"] == "application/pdf"
    assert sp.stats.attachments == {
        "processed": 2,
        "unprocessed: content type application/pdf not processed": 1,
    }


_KEYS = st.sampled_from(["status", "note", "name", "code", "value", "given", "line", "text", "id"])
_LEAVES = st.text(alphabet="abcdefghij", min_size=4, max_size=8).map(lambda s: f"v{s}")
_TREES = st.recursive(
    _LEAVES,
    lambda inner: st.dictionaries(_KEYS, inner, max_size=4) | st.lists(inner, max_size=3),
    max_leaves=25,
)


def _strings(node: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], str]]:
    if isinstance(node, dict):
        return [x for k, v in node.items() for x in _strings(v, (*path, k))]
    if isinstance(node, list):
        return [x for v in node for x in _strings(v, path)]
    return [(path, node)] if isinstance(node, str) else []


@given(st.dictionaries(_KEYS, _TREES, max_size=5))
def test_deny_by_default_nothing_no_rule_reaches_survives(body: dict[str, Any]) -> None:
    resource = {"resourceType": "Observation", **{k: v for k, v in body.items() if k != "id"}}
    table = parse_table({"profile": {"name": "pseudonymise"}, "rules": {"**.status": "keep"}}, "t")
    sp = StructuredPass(table, Pseudonyms("hmac", key=b"k" * 32), timeline(), ExportIndex(), None)
    out = sp.resource(resource)
    assert out is not None
    reachable = {value for path, value in _strings(resource) if "status" in path}
    written = {value for path, value in _strings({k: v for k, v in out.items() if k != "meta"})}
    assert written - {"Observation"} <= reachable
    unreached = [path for path, _ in _strings(body) if "status" not in path and path[0] != "id"]
    assert sum(sp.stats.unknown.values()) == len(unreached)  # each removed value counted under its path


def test_known_identifiers_stay_within_the_contracts_bounds() -> None:
    """A patient's list keeps the patient's own identifiers first and at most MAX_ITEMS values of at most
    MAX_VALUE_CHARS (the known detector refuses more); what the bounds leave out is counted."""
    long_name = "A" * (MAX_VALUE_CHARS + 1)
    patient = {
        "resourceType": "Patient",
        "id": "p1",
        "name": [{"given": [long_name, "Ann"], "family": "Lee"}],
        "identifier": [{"system": "urn:s", "value": f"X{i:05d}"} for i in range(MAX_ITEMS + 100)],
    }
    index = ExportIndex()
    index.add(patient)
    known = index.known_for("p1")
    assert len(known) == MAX_ITEMS and known[:2] == [
        {"kind": "NAME/patient", "value": "Ann"},
        {"kind": "NAME/patient", "value": "Lee"},
    ]
    assert all(len(item["value"]) <= MAX_VALUE_CHARS for item in known)
    assert len(known_items(known)) == MAX_ITEMS  # the contract's reader accepts it
    # dropped: the long given name, the long full name, and the identifiers past the first 998
    assert index.known_dropped == 2 + (MAX_ITEMS + 100 - (MAX_ITEMS - 2))
    index.known_for("p1")  # memoised: not counted twice
    assert index.known_dropped == 104
