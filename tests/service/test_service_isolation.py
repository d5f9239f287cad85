"""Process isolation: a timeout kills the worker doing the request, a dead worker is replaced, results match.

Requests misbehave through ``worker_hooks.misbehave`` (markers in the note), which the API cannot reach.
"""

from __future__ import annotations

import logging
import os
import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest
from service_support import NOTE, PLANTED, ClientFactory, TestClient
from worker_hooks import CRASH, RAISE, SPIN, misbehave

from anonymed.service import ServiceSettings, create_app


def alive(pid: int) -> bool:
    """Whether a process with this id exists (a reaped process does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def pids(client: TestClient) -> list[int]:
    return list(client.app.state.runner.pids())  # type: ignore[attr-defined]


def wait_ready(client: TestClient, workers: int, seconds: float = 60.0) -> None:
    """Poll /health until ``workers`` workers are loaded (a replacement loads its models first)."""
    deadline = time.monotonic() + seconds
    while client.get("/health").json()["workers_ready"] < workers:
        assert time.monotonic() < deadline, "the replacement worker did not become ready"
        time.sleep(0.05)


def test_a_request_past_the_timeout_is_504_and_its_worker_is_killed(make_client: ClientFactory) -> None:
    with make_client(workers=1, timeout_seconds=1.0, engine_hook=misbehave) as client:
        [spinning] = pids(client)
        started = time.perf_counter()
        response = client.post("/deid", json={"text": f"{SPIN} {NOTE}"})
        assert response.status_code == 504 and "1 s" in response.json()["detail"]
        assert time.perf_counter() - started < 5
        assert not alive(spinning)  # killed and reaped before the answer: its CPU is free
        wait_ready(client, 1)
        [fresh] = pids(client)
        assert fresh != spinning
        assert client.post("/deid", json={"text": NOTE}).status_code == 200


def test_a_worker_that_dies_is_replaced_and_its_request_gets_500_with_the_request_id(
    make_client: ClientFactory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    with make_client(workers=1, engine_hook=misbehave) as client:
        [crashing] = pids(client)
        response = client.post("/deid", json={"text": f"{CRASH} {NOTE}"})
        assert response.status_code == 500
        assert response.headers["x-request-id"] in response.json()["detail"]
        assert PLANTED not in response.text and not alive(crashing)
        wait_ready(client, 1)
        assert pids(client) != [crashing]
        assert client.post("/detect", json={"text": NOTE}).status_code == 200
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("anonymed")]
    assert any("failed: worker process ended (exit code -9)" in line for line in lines)
    assert not any(PLANTED in line for line in lines)


def test_a_worker_killed_while_idle_is_replaced_before_the_next_request(make_client: ClientFactory) -> None:
    with make_client(workers=1) as client:
        [idle] = pids(client)
        os.kill(idle, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while alive(idle):  # gone (and reaped), as after an out-of-memory kill between two requests
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert client.post("/detect", json={"text": NOTE}).status_code == 200
        assert idle not in pids(client)


def test_stopping_the_service_stops_every_worker(make_client: ClientFactory) -> None:
    with make_client(workers=2) as client:
        started = pids(client)
        assert len(started) == 2 and all(alive(pid) for pid in started)
        assert client.get("/health").json() == {
            "status": "ok",
            "ready": True,
            "workers_ready": 2,
            "workers": 2,
        }
    assert not any(alive(pid) for pid in started)


@pytest.fixture(scope="module")
def both() -> Iterator[dict[str, TestClient]]:
    """The same app in process and in thread isolation, with misbehaving engines."""
    with (
        TestClient(create_app(ServiceSettings(languages=("en",)), engine_hook=misbehave)) as process,
        TestClient(
            create_app(ServiceSettings(languages=("en",), isolation="thread"), engine_hook=misbehave)
        ) as thread,
    ):
        yield {"process": process, "thread": thread}


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/deid", {"seed": 7, "operators": {"DATE": "fake", "AGE": "fake", "NAME": "fake"}}),  # seeded fakes
        ("/deid", {"seed": 7, "method": "words"}),  # seeded word substitution
        ("/deid", {"seed": 7, "method": "hybrid", "operators": {"DATE": "tag", "AGE": "tag"}}),  # both stages
        ("/detect", {"detectors": ["patterns", "tagger"]}),
        ("/evaluate", {"gold": [{"start": 4, "end": 23, "label": "NAME/patient"}]}),
    ],
)
def test_results_are_the_same_in_process_and_thread_isolation(
    both: dict[str, TestClient], path: str, body: dict[str, Any]
) -> None:
    answers = []
    for client in both.values():
        response = client.post(path, json={"text": NOTE, **body})
        assert response.status_code == 200, response.text
        answers.append({k: v for k, v in response.json().items() if k != "elapsed_ms"})
    assert answers[0] == answers[1]


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"text": NOTE, "operators": {"NAME": "nope"}}, 422),  # anonymed's own error: its message
        ({"text": NOTE, "method": "sentences"}, 501),  # no bank loaded
        ({"text": f"{RAISE} {NOTE}"}, 500),  # any other exception: the request id only
    ],
)
@pytest.mark.parametrize("isolation", ["process", "thread"])
def test_errors_map_to_the_same_statuses_in_both_isolations(
    both: dict[str, TestClient], isolation: str, body: dict[str, Any], status: int
) -> None:
    response = both[isolation].post("/deid", json=body)
    assert response.status_code == status
    assert PLANTED not in response.text
    if status == 500:
        assert response.json()["detail"] == f"internal error (request id {response.headers['x-request-id']})"
