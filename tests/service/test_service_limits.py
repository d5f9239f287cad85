"""Limits and safety of the service: body size, timeout, API key, CORS, and logs without note text."""

from __future__ import annotations

import hmac
import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest
from service_support import NOTE, PLANTED, ClientFactory, TestClient
from worker_hooks import RAISE, SLEEP, misbehave

KEY = "k" * 12 + "-secret-0123"


def test_body_over_the_limit_by_content_length_is_413(make_client: ClientFactory) -> None:
    with make_client(max_body_bytes=500) as client:
        response = client.post("/deid", json={"text": "x" * 600})
        assert response.status_code == 413 and "500 bytes" in response.json()["detail"]
        assert client.post("/deid", json={"text": "x" * 400}).status_code == 200


def test_streamed_body_over_the_limit_without_content_length_is_413(make_client: ClientFactory) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"text": "'
        for _ in range(10):
            yield b"y" * 100
        yield b'"}'

    with make_client(max_body_bytes=500) as client:
        response = client.post("/detect", content=chunks(), headers={"content-type": "application/json"})
        assert response.status_code == 413


def test_streamed_body_under_the_limit_is_processed(make_client: ClientFactory) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"text": "Seen on '
        yield b'02/12/2020."}'

    with make_client(max_body_bytes=500) as client:
        response = client.post("/detect", content=chunks(), headers={"content-type": "application/json"})
        assert response.status_code == 200 and response.json()["spans"][0]["label"] == "DATE"


@pytest.mark.parametrize("isolation", ["process", "thread"])
def test_work_longer_than_the_timeout_is_504(make_client: ClientFactory, isolation: str) -> None:
    with make_client(timeout_seconds=0.2, isolation=isolation, engine_hook=misbehave) as client:
        started = time.perf_counter()
        response = client.post("/detect", json={"text": f"{SLEEP} {NOTE}"})
        assert response.status_code == 504 and "0.2 s" in response.json()["detail"]
        assert time.perf_counter() - started < 0.9


@pytest.mark.parametrize(
    ("method", "path", "headers", "status"),
    [
        ("POST", "/detect", {}, 401),  # no key
        ("POST", "/detect", {"X-API-Key": "wrong-key-wrong-key"}, 401),  # wrong key
        ("POST", "/detect", {"X-API-Key": KEY[:-1]}, 401),  # a prefix of the key is not the key
        ("POST", "/detect", {"X-API-Key": KEY}, 200),  # right key
        ("POST", "/deid", {}, 401),
        ("POST", "/evaluate", {}, 401),
        ("GET", "/version", {}, 401),
        ("GET", "/version", {"X-API-Key": KEY}, 200),
        ("GET", "/health", {}, 200),  # liveness stays open
        ("GET", "/", {}, 200),  # the page holds no data; it asks for the key
    ],
)
def test_api_key_is_required_on_every_data_endpoint(
    make_client: ClientFactory, method: str, path: str, headers: dict[str, str], status: int
) -> None:
    body: dict[str, Any] | None = None if method == "GET" else {"text": NOTE}
    if path == "/evaluate":
        body = {"text": NOTE, "gold": []}
    with make_client(api_key=KEY) as client:
        response = client.request(method, path, json=body, headers=headers)
        assert response.status_code == status
        assert KEY not in response.text


def test_api_key_is_compared_in_constant_time(make_client: ClientFactory, monkeypatch: Any) -> None:
    calls: list[tuple[bytes, bytes]] = []
    original = hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        calls.append((a, b))
        return original(a, b)

    monkeypatch.setattr(hmac, "compare_digest", spy)
    with make_client(api_key=KEY) as client:
        client.post("/detect", json={"text": "x"}, headers={"X-API-Key": "not-the-key"})
    assert calls == [(b"not-the-key", KEY.encode())]


def test_cors_is_closed_by_default(client: TestClient) -> None:
    origin = {"Origin": "https://elsewhere.example"}
    preflight = client.options("/deid", headers={**origin, "Access-Control-Request-Method": "POST"})
    assert "access-control-allow-origin" not in preflight.headers
    assert "access-control-allow-origin" not in client.get("/health", headers=origin).headers


def test_cors_allows_only_the_configured_origins(make_client: ClientFactory) -> None:
    with make_client(cors_origins=("https://ehr.example",)) as client:
        allowed = client.get("/health", headers={"Origin": "https://ehr.example"})
        other = client.get("/health", headers={"Origin": "https://elsewhere.example"})
    assert allowed.headers["access-control-allow-origin"] == "https://ehr.example"
    assert "access-control-allow-origin" not in other.headers


@pytest.mark.parametrize("isolation", ["process", "thread"])  # in threads, the engine logs here too
def test_no_log_line_carries_note_text(
    make_client: ClientFactory, caplog: pytest.LogCaptureFixture, isolation: str
) -> None:
    caplog.set_level(logging.DEBUG)
    with make_client(max_body_bytes=5000, engine_hook=misbehave, isolation=isolation) as client:
        client.post("/detect", json={"text": NOTE})
        client.post("/deid", json={"text": NOTE, "operators": {"DATE": "dp_date"}, "epsilon": 1})
        client.post("/deid", json={"text": NOTE, "method": "hybrid"})
        client.post("/evaluate", json={"text": NOTE, "gold": [{"start": 4, "end": 11, "label": "NAME"}]})
        client.post("/deid", json={"text": NOTE, "operators": {"NAME": PLANTED}})  # 422
        client.post("/deid", json={"text": NOTE * 40})  # 413
        client.post(f"/{PLANTED}", json={"text": NOTE})  # 404 on a path made of note text
        crashed = client.post("/deid", json={"text": f"{RAISE} {NOTE}"})  # a KeyError carrying the text
    assert crashed.status_code == 500 and PLANTED not in crashed.text
    # the test's own HTTP client (httpx) logs URLs on its side; every server-side record is checked
    server = [r for r in caplog.records if not r.name.startswith(("httpx", "httpcore"))]
    assert not any(r.exc_info for r in server)  # no traceback (exception messages may quote text)
    lines = [r.getMessage() for r in server]
    assert sum("request id=" in line for line in lines) >= 8
    assert any("failed: KeyError" in line for line in lines)
    for fragment in (PLANTED, "Quackenbush", "Calvert", "555-0142", "4482913"):
        assert not any(fragment in line for line in lines), fragment
