"""Endpoints of the REST service: detect, deid (every method), evaluate, health, version, schema, page."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from service_support import NOTE, PLANTED, ClientFactory, TestClient

from anonymed import Document, Label, Pipeline, PipelineConfig
from anonymed.words.obfuscator import WordObfuscator


def deid(client: TestClient, **body: Any) -> Any:
    response = client.post("/deid", json={"text": NOTE, **body})
    assert response.status_code == 200, response.text
    return response.json()


def test_health_is_open_and_reports_ready(client: TestClient) -> None:
    assert client.get("/health").json() == {"status": "ok", "ready": True, "workers_ready": 2, "workers": 2}


def test_version_lists_methods_operators_and_labels(client: TestClient) -> None:
    info = client.get("/version").json()
    assert info["name"] == "anonymed" and re.fullmatch(r"\d+\.\d+\.\d+.*", info["version"])
    assert info["languages"] == ["en"]
    assert {"replace", "words", "sentences", "hybrid"} <= set(info["methods"])
    assert info["methods"]["replace"] == {"available": True, "reason": None}
    assert {"fake", "tag", "redact", "keep"} <= set(info["operators"])
    assert "NAME" in info["labels"] and info["api_key_required"] is False


def test_detect_returns_spans_whose_text_matches_the_offsets(client: TestClient) -> None:
    body = client.post("/detect", json={"text": NOTE, "id": "n-1"}).json()
    assert body["id"] == "n-1"
    labels = {span["label"] for span in body["spans"]}
    assert {"NAME", "DATE", "CONTACT"} <= labels
    for span in body["spans"]:
        assert NOTE[span["start"] : span["end"]] == span["text"]
        assert 0.0 <= span["score"] <= 1.0 and span["source"]


def test_deid_replace_removes_the_planted_name_and_maps_replacements_to_spans(client: TestClient) -> None:
    result = deid(client)
    assert result["method"] == "replace" and PLANTED not in result["output"]
    assert [(r["start"], r["end"]) for r in result["replacements"]] == [
        (s["start"], s["end"]) for s in result["spans"]
    ]
    assert "original" not in result["replacements"][0]
    assert result["seeded"] is False


#: operators without differential-privacy noise: OpenDP's noise cannot be seeded, the rest can
SEEDABLE = {"DATE": "fake", "AGE": "fake"}


def test_version_lists_the_profiles_and_the_default(client: TestClient) -> None:
    info = client.get("/version").json()
    assert {"pseudonymise", "hipaa-safe-harbor", "dp"} <= set(info["profiles"])
    assert info["default_profile"] == "pseudonymise"


@pytest.mark.parametrize(
    ("profile", "operator"), [(None, "date_shift"), ("hipaa-safe-harbor", "year_only"), ("dp", "dp_date")]
)
def test_deid_applies_the_requested_profile(client: TestClient, profile: str | None, operator: str) -> None:
    result = deid(client, **({} if profile is None else {"profile": profile}))
    dates = [r for r in result["replacements"] if r["label"] == "DATE"]
    assert dates and {r["operator"] for r in dates} == {operator}
    counts = result["privacy"]["substitution"]["counts"]
    assert any(key.startswith("DATE|" + operator + "|") for key in counts)


def test_an_explicit_operator_overrides_the_profile(client: TestClient) -> None:
    result = deid(client, profile="hipaa-safe-harbor", operators={"DATE": "tag"})
    assert {r["surrogate"] for r in result["replacements"] if r["label"] == "DATE"} == {"[DATE]"}


def test_an_unknown_profile_is_a_client_error(client: TestClient) -> None:
    response = client.post("/deid", json={"text": NOTE, "profile": "paranoid"})
    assert response.status_code in (400, 422) and "paranoid" in response.text


def test_deid_with_a_seed_is_reproducible(client: TestClient) -> None:
    assert (
        deid(client, seed=7, operators=SEEDABLE)["output"]
        == deid(client, seed=7, operators=SEEDABLE)["output"]
    )


@pytest.mark.parametrize(
    ("operators", "expected"),
    [
        ({"NAME": "tag"}, "[NAME]"),  # tag writes the label
        ({"name": "tag", "DATE": "tag"}, "[DATE]"),  # label keys are case-insensitive
        ({"CONTACT": "keep"}, "(617) 555-0142"),  # keep leaves the value as it was
    ],
)
def test_deid_applies_the_operator_chosen_per_label(
    client: TestClient, operators: dict[str, str], expected: str
) -> None:
    result = deid(client, operators=operators)
    assert expected in result["output"]
    chosen = {k.upper(): v for k, v in operators.items()}
    for rep in result["replacements"]:
        if rep["label"] in chosen:
            assert rep["operator"] == chosen[rep["label"]]


def test_deid_with_dp_operators_reports_the_epsilon_spent(client: TestClient) -> None:
    ops = {"DATE": "dp_date", "AGE": "dp_age"}
    privacy = deid(client, operators=ops, epsilon=2.0, seed=1)["privacy"]
    assert 0 < privacy["epsilon_spent"] <= 2.0 + 1e-9
    assert {e["label"] for e in privacy["expenses"]} == {"DATE", "AGE"}


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"operators": {"NAME": "nope"}}, "unknown operator 'nope'"),  # operator not registered
        ({"operators": {"PET": "tag"}}, "unknown label 'PET'"),  # label not in the taxonomy
        ({"operator_params": {"tag": {"colour": 1}}, "operators": {"NAME": "tag"}}, "bad parameters"),
        ({"lang": "fr"}, "language 'fr' is not loaded"),  # language not loaded by this server
        ({"detectors": ["oracle"]}, "unknown detector 'oracle'"),  # detector not registered
    ],
)
def test_deid_refuses_bad_options_with_422_naming_them(
    client: TestClient, body: dict[str, Any], fragment: str
) -> None:
    response = client.post("/deid", json={"text": NOTE, **body})
    assert response.status_code == 422
    assert fragment in response.json()["detail"]


@pytest.mark.parametrize(
    "body",
    [
        {"epsilon": 0},  # the budget must be positive
        {"method": "telepathy"},  # unknown method
        {"k": 1},  # sentence substitution needs k >= 2
        {"id": "has space"},  # ids are short tokens
        {"surprise": True},  # unknown fields are refused
    ],
)
def test_deid_validates_the_request_body(client: TestClient, body: dict[str, Any]) -> None:
    assert client.post("/deid", json={"text": NOTE, **body}).status_code == 422


def test_deid_words_replaces_every_word_and_keeps_the_layout(client: TestClient) -> None:
    result = deid(client, method="words", n=5)
    before, after = NOTE.split(), result["output"].split()
    assert len(before) == len(after) and result["output"].count("\n") == NOTE.count("\n")
    alnum = [(b, a) for b, a in zip(before, after, strict=True) if any(c.isalnum() for c in b)]
    assert all(b.lower() != a.lower() for b, a in alnum)
    assert result["privacy"]["words"]["n"] == "5" and result["spans"]


def test_deid_hybrid_replaces_then_substitutes_words(client: TestClient) -> None:
    result = deid(client, method="hybrid", then="words", n="3-6", operators={"DATE": "dp_date"}, epsilon=1)
    assert result["replacements"] and result["privacy"]["words"]["n"] == "3-6"
    assert result["privacy"]["epsilon_spent"] > 0 and PLANTED not in result["output"]


def test_word_degree_above_the_space_table_is_refused(client: TestClient) -> None:
    response = client.post("/deid", json={"text": NOTE, "method": "words", "n": 100000})
    assert response.status_code == 422 and "exceeds" in response.json()["detail"]


def test_missing_method_is_501_with_a_clear_reason(client: TestClient) -> None:
    response = client.post("/deid", json={"text": NOTE, "method": "sentences"})
    assert response.status_code == 501
    assert "sentence substitution" in response.json()["detail"]
    assert client.get("/version").json()["methods"]["sentences"]["available"] is False


def test_word_substitution_without_a_space_is_501(make_client: ClientFactory, tmp_path: Path) -> None:
    with make_client(word_space=tmp_path) as client:
        methods = client.get("/version").json()["methods"]
        assert methods["words"]["available"] is False and methods["hybrid"]["available"] is False
        response = client.post("/deid", json={"text": NOTE, "method": "words"})
        assert response.status_code == 501 and "embedding space" in response.json()["detail"]
        assert str(tmp_path) not in response.text
        assert deid(client)["replacements"]  # detect-and-replace still works


def test_evaluate_scores_a_given_prediction_against_gold(client: TestClient) -> None:
    start = NOTE.index(PLANTED)
    gold = [{"start": start, "end": start + len(PLANTED), "label": "NAME/patient"}]
    perfect = client.post("/evaluate", json={"text": NOTE, "gold": gold, "predicted": gold}).json()
    assert perfect["report"]["overall"]["tokens"]["recall"] == 1.0
    assert perfect["report"]["by_full_label"]["NAME/patient"]["entities"] == {
        "found": 1,
        "total": 1,
        "recall": 1.0,
    }
    empty = client.post("/evaluate", json={"text": NOTE, "gold": gold, "predicted": []}).json()
    assert empty["report"]["overall"]["tokens"]["recall"] == 0.0


def test_evaluate_detects_when_no_prediction_is_given(client: TestClient) -> None:
    gold = [{"start": 0, "end": 3, "label": "NAME"}]
    body = client.post("/evaluate", json={"text": NOTE, "gold": gold}).json()
    assert body["spans"] and body["report"]["documents"] == 1


@pytest.mark.parametrize(
    "span",
    [
        {"start": 0, "end": 10_000, "label": "NAME"},  # past the end of the text
        {"start": 0, "end": 3, "label": "PET"},  # unknown label
        {"start": 0, "end": 3, "label": "NAME/cousin"},  # unknown subtype
    ],
)
def test_evaluate_refuses_bad_gold_spans(client: TestClient, span: dict[str, Any]) -> None:
    response = client.post("/evaluate", json={"text": NOTE, "gold": [span]})
    assert response.status_code == 422 and NOTE[:3] not in response.json()["detail"]


def test_lone_surrogates_are_refused_by_offset_without_echo(client: TestClient) -> None:
    body = b'{"text": "' + PLANTED.encode() + b' \\ud800 x"}'
    response = client.post("/detect", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert "offset 20" in response.text and PLANTED not in response.text


def test_openapi_schema_documents_every_endpoint_and_the_api_key(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert {"/detect", "/deid", "/evaluate", "/health", "/version"} <= set(schema["paths"])
    assert "text" in schema["components"]["schemas"]["DeidRequest"]["properties"]
    assert schema["components"]["securitySchemes"]["APIKeyHeader"]["name"] == "X-API-Key"


def test_the_page_and_its_assets_are_served_without_external_resources(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for path in ("/", "/static/page.js", "/static/app.js", "/static/style.css"):
        text = client.get(path).text
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text, re.I), path
    for script in ("/static/page.js", "/static/app.js"):
        assert client.get(script).status_code == 200 and "innerHTML" not in client.get(script).text


def test_request_ids_are_echoed_when_well_formed_and_replaced_otherwise(client: TestClient) -> None:
    assert client.get("/health", headers={"X-Request-ID": "abc-12345678"}).headers["x-request-id"] == (
        "abc-12345678"
    )
    generated = client.get("/health", headers={"X-Request-ID": "<script>"}).headers["x-request-id"]
    assert re.fullmatch(r"[0-9a-f]{32}", generated)


def test_hybrid_with_an_unavailable_second_stage_is_501(client: TestClient) -> None:
    response = client.post("/deid", json={"text": NOTE, "method": "hybrid", "then": "sentences"})
    assert response.status_code == 501 and "'hybrid'" in response.json()["detail"]


def test_seeded_service_output_matches_the_library(client: TestClient) -> None:
    config = PipelineConfig(seed=11, operators={Label.DATE: "fake", Label.AGE: "fake"})
    library = Pipeline(config).run(Document("n-7", NOTE, {"lang": "en"}))
    assert deid(client, seed=11, id="n-7", operators=SEEDABLE)["output"] == library.result


def test_seeded_word_substitution_matches_the_library(client: TestClient) -> None:
    library = WordObfuscator(n=4, random_state=5).obfuscate_document(Document("n-8", NOTE))
    assert deid(client, method="words", n=4, seed=5, id="n-8")["output"] == library.result
