"""The review server's API: notes, decisions, API key, host check, limits, no text in errors or logs."""

from __future__ import annotations

import json
import logging
import warnings
from collections.abc import Iterator

import pytest
from review_support import PLANTED, note_by_id

from anonymed.errors import ConfigError
from anonymed.review.decisions import ACTIONS, DecisionLog
from anonymed.review.folder import ReviewFolder
from anonymed.service.review import Action, ReviewSettings, allowed_hosts, create_review_app

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx.*", category=UserWarning)
    from fastapi.testclient import TestClient

KEY = "k" * 24


@pytest.fixture
def client(folder: ReviewFolder) -> Iterator[TestClient]:
    with TestClient(create_review_app(ReviewSettings(folder.path, allowed_hosts=("testserver",)))) as opened:
        yield opened


def test_the_page_and_its_assets_are_served_with_security_headers(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "review.js" in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "DENY" and page.headers["cache-control"] == "no-store"
    assert client.get("/static/review.js").status_code == 200
    assert client.get("/service-static/page.js").status_code == 200  # helpers shared with the service
    assert client.get("/static/review.css").status_code == 200
    assert client.get("/service-static/style.css").status_code == 200  # the service page's look, reused


def test_a_reviewer_reads_a_note_and_decisions_are_saved(client: TestClient, folder: ReviewFolder) -> None:
    info = client.get("/api/info").json()
    assert info["notes"] == 6 and info["top_labels"][0] == "NAME" and "NAME/patient" in info["labels"]
    note = note_by_id(folder, "n1")
    position = [n.key for n in folder.notes].index(note.key)
    shown = client.get(f"/api/notes/{position}", params={"reviewer": "alice"}).json()
    assert shown["text"] == note.text and len(shown["spans"]) == len(note.spans)
    start = note.text.index(PLANTED)
    body = {"reviewer": "alice", "note": note.key, "action": "mark", "start": start, "end": start + 7}
    saved = client.post("/api/decisions", json={**body, "label": "NAME"})
    assert saved.status_code == 200 and saved.json()["state"]["marks"][0]["label"] == "NAME"
    assert client.post(
        "/api/decisions", json={"reviewer": "alice", "note": note.key, "action": "done"}
    ).is_success
    assert DecisionLog(folder.decisions_path).state("alice", note.key).done
    progress = client.get("/api/progress", params={"reviewer": "alice"}).json()
    assert (
        progress["done"][position] and sum(progress["done"]) == 1 and progress["finished_by"][position] == 1
    )
    again = client.get(f"/api/notes/{position}", params={"reviewer": "alice"}).json()
    assert again["state"]["done"] and again["state"]["marks"] == [
        {"start": start, "end": start + 7, "label": "NAME"}
    ]
    assert client.get(f"/api/notes/{position}", params={"reviewer": "bob"}).json()["state"]["marks"] == []


def test_bad_requests_get_statuses_without_the_request_echoed(
    client: TestClient, folder: ReviewFolder
) -> None:
    note = note_by_id(folder, "n1")
    assert client.get("/api/notes/99", params={"reviewer": "a"}).status_code == 404
    assert client.get("/api/notes/0", params={"reviewer": "bad id!"}).status_code == 422
    unknown = {"reviewer": "a", "note": "nope", "action": "done"}
    assert client.post("/api/decisions", json=unknown).status_code == 404
    overlapping = {"reviewer": "a", "note": note.key, "action": "mark", "start": 0, "end": len(note.text)}
    refused = client.post("/api/decisions", json={**overlapping, "label": "NAME"})
    assert refused.status_code == 409 and PLANTED not in refused.text
    no_label = client.post("/api/decisions", json=overlapping)
    assert no_label.status_code == 422 and "needs label" in no_label.text
    hostile = {"reviewer": PLANTED, "note": note.key, "action": "done"}
    rejected = client.post("/api/decisions", json=hostile)
    assert rejected.status_code == 422 and PLANTED not in rejected.text
    assert client.post("/api/decisions", content=b"x" * 70_000).status_code == 413


def test_the_api_key_is_required_when_configured(folder: ReviewFolder) -> None:
    settings = ReviewSettings(folder.path, api_key=KEY, allowed_hosts=("testserver",))
    with TestClient(create_review_app(settings)) as client:
        assert client.get("/api/info").status_code == 401
        assert client.get("/api/info", headers={"X-API-Key": "wrong" * 5}).status_code == 401
        assert client.get("/api/info", headers={"X-API-Key": KEY}).status_code == 200
        assert client.get("/").status_code == 200  # the page itself holds no note
    with pytest.raises(ConfigError, match="too short"):
        ReviewSettings(folder.path, api_key="short")


def test_requests_for_another_host_name_are_refused(folder: ReviewFolder) -> None:
    with TestClient(create_review_app(ReviewSettings(folder.path))) as client:  # loopback names only
        assert client.get("/api/info").status_code == 400  # Host: testserver (a rebinding page's name)
        assert client.get("/api/info", headers={"host": "127.0.0.1:8001"}).status_code == 200
    assert allowed_hosts("10.0.0.5")[-1] == "10.0.0.5" and "localhost" in allowed_hosts("10.0.0.5")
    assert allowed_hosts("0.0.0.0", ["review.example.org"])[-1] == "review.example.org"
    with pytest.raises(ConfigError):
        ReviewSettings(folder.path, allowed_hosts=("*",))


def test_logs_hold_no_note_text(
    client: TestClient, folder: ReviewFolder, caplog: pytest.LogCaptureFixture
) -> None:
    note = note_by_id(folder, "n1")
    with caplog.at_level(logging.DEBUG, logger="anonymed"):
        client.get("/api/notes/0", params={"reviewer": "a"})
        client.post(
            "/api/decisions",
            json={
                "reviewer": "a",
                "note": note.key,
                "action": "mark",
                "start": 0,
                "end": len(note.text),
                "label": "NAME",
            },
        )
    assert caplog.records and all(PLANTED not in r.getMessage() for r in caplog.records)


def test_the_api_actions_are_the_log_actions() -> None:
    assert set(Action.__args__) == set(ACTIONS)


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
def test_a_cross_site_simple_request_cannot_write_a_decision(
    client: TestClient, folder: ReviewFolder, kind: str
) -> None:
    """A page elsewhere can send a browser's 'simple' POST (no preflight) to the loopback server: the body
    is refused unless it is JSON, and JSON from another origin needs a preflight that is never granted."""
    note = folder.notes[0]
    body = json.dumps({"reviewer": "mallory", "note": note.key, "action": "done"})
    headers = {"content-type": kind, "origin": "http://evil.example"}
    assert client.post("/api/decisions", content=body, headers=headers).status_code == 422
    assert not DecisionLog(folder.decisions_path).state("mallory", note.key).done
    preflight = client.options(
        "/api/decisions",
        headers={"origin": "http://evil.example", "access-control-request-method": "POST"},
    )
    assert "access-control-allow-origin" not in preflight.headers
