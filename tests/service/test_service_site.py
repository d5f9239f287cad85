"""Known identifiers and allow/deny lists per request: found, applied, bounded, refused without echo."""

from __future__ import annotations

from typing import Any

from service_support import TestClient

from anonymed.service.models import MAX_REQUEST_KNOWN, MAX_REQUEST_TERMS

SECRET = "Quackenbush"
NOTE = "Discussed per quackenbush, Babinski sign negative; transferred to CHU Nord. MRN 77-12-345."
KNOWN = [{"kind": "NAME/patient", "value": f"Zebulon {SECRET}"}, {"kind": "ID/mrn", "value": "7712345"}]


def spans(client: TestClient, **body: Any) -> set[tuple[str, str]]:
    response = client.post("/detect", json={"text": NOTE, "detectors": ["patterns"], **body})
    assert response.status_code == 200, response.text
    return {
        (s["text"], s["label"] + (f"/{s['subtype']}" if s.get("subtype") else ""))
        for s in response.json()["spans"]
    }


def test_known_identifiers_of_the_request_are_found(client: TestClient) -> None:
    assert ("quackenbush", "NAME/patient") not in spans(client)
    found = spans(client, known=KNOWN)
    assert ("quackenbush", "NAME/patient") in found and ("77-12-345", "ID/mrn") in found


def test_allow_and_deny_lists_of_the_request(client: TestClient) -> None:
    found = spans(
        client,
        deny=[{"term": "CHU Nord", "label": "LOCATION/hospital"}, {"term": "Babinski", "label": "NAME"}],
    )
    assert ("CHU Nord", "LOCATION/hospital") in found and ("Babinski", "NAME") in found
    allowed = spans(client, known=KNOWN, allow=[{"term": "quackenbush"}, {"term": "Babinski"}])
    assert ("quackenbush", "NAME/patient") in allowed  # the record's own identifiers are never allowed away


def test_deid_replaces_what_the_request_knows(client: TestClient) -> None:
    body = {"text": NOTE, "detectors": ["patterns"], "known": KNOWN, "seed": 3}
    response = client.post("/deid", json=body)
    assert response.status_code == 200, response.text
    output = response.json()["output"]
    assert "quackenbush" not in output.lower() and "77-12-345" not in output


def test_evaluate_uses_them_too(client: TestClient) -> None:
    start = NOTE.index("quackenbush")
    gold = [{"start": start, "end": start + len("quackenbush"), "label": "NAME/patient"}]
    body = {"text": NOTE, "detectors": ["patterns"], "gold": gold, "known": KNOWN}
    response = client.post("/evaluate", json=body)
    assert response.status_code == 200, response.text
    assert response.json()["report"]["overall"]["tokens"]["recall"] == 1.0


def refused(client: TestClient, **body: Any) -> str:
    response = client.post("/detect", json={"text": NOTE, **body})
    assert response.status_code == 422, response.text
    assert SECRET not in response.text
    return response.text


def test_bad_or_oversized_site_fields_are_refused_without_echo(client: TestClient) -> None:
    assert "unknown label 'PLACE'" in refused(client, known=[{"kind": "PLACE", "value": SECRET}])
    assert "at most 200 characters" in refused(client, known=[{"kind": "NAME", "value": SECRET * 20}])
    too_many = [{"kind": "ID", "value": f"{SECRET}{n}"} for n in range(MAX_REQUEST_KNOWN + 1)]
    assert f"at most {MAX_REQUEST_KNOWN} items" in refused(client, known=too_many)
    assert "deny entry 1 has no label" in refused(client, deny=[{"term": SECRET}])
    assert "unknown list label" in refused(client, allow=[{"term": SECRET, "label": "PLACE"}])
    terms = [{"term": f"{SECRET}{n}"} for n in range(MAX_REQUEST_TERMS + 1)]
    assert f"at most {MAX_REQUEST_TERMS} items" in refused(client, allow=terms)
    assert "match" in refused(client, allow=[{"term": SECRET, "match": "fuzzy"}])
