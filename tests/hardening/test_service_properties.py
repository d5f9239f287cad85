"""The service on arbitrary requests: never a 500, never note text (or the API key) in a log line."""

from __future__ import annotations

import json
import logging
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from hardening_inputs import PHI, texts, unicode_texts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():  # newer Starlette prefers httpx2 for its test client; httpx works the same
    warnings.filterwarnings("ignore", message=".*httpx.*", category=UserWarning)
    from fastapi.testclient import TestClient

from anonymed.labels import Label
from anonymed.service import ServiceSettings, create_app
from anonymed.substitute.registry import OPERATORS

#: planted in every note: must never appear in a log line
PLANTED = "Quackenbush"
API_KEY = "hardening-api-key-0123456789"
#: what a request may be answered with: success, refusals by size / validation / method, timeout
ALLOWED = {200, 400, 401, 413, 422, 501, 504}

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


class Collect(logging.Handler):
    """Keeps every formatted log line of every logger."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture(scope="module")
def logs() -> Iterator[Collect]:
    """All log lines at DEBUG level while the module's requests run."""
    handler, root = Collect(), logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    yield handler
    root.removeHandler(handler)
    root.setLevel(level)


@pytest.fixture(scope="module")
def client(logs: Collect) -> Iterator[TestClient]:
    """One service (English and French, word substitution loaded) for the whole module."""
    app = create_app(ServiceSettings(api_key=API_KEY, max_body_bytes=20_000, timeout_seconds=30))
    with TestClient(app, raise_server_exceptions=False, headers={"X-API-Key": API_KEY}) as opened:
        yield opened


_json_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
)
_json = st.recursive(
    _json_scalar,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
_operator_names = st.sampled_from([*OPERATORS, "nope"])
_labels = st.sampled_from([*(label.value for label in Label), "name", "X"])
_param_names = st.sampled_from(
    [
        "template",
        "mask",
        "max_tries",
        "locales",
        "epsilon",
        "k",
        "radius_km",
        "table",
        "scaling",
        "chronology",
        "min_year",
        "max_year",
        "fallback",
        "features",
        "numeric_order",
    ]
)
_note = st.one_of(texts, unicode_texts).map(lambda text: f"{text} Mr. Zebulon {PLANTED} {text}")
#: the record's known identifiers and the lists, holding the planted name (good, malformed, oversized)
_secret = st.one_of(st.just(PLANTED), st.just(PLANTED.lower()), st.just(PLANTED * 30), st.text(max_size=8))
_known = st.lists(
    st.fixed_dictionaries(
        {"kind": st.sampled_from(["NAME/patient", "NAME/relative", "ID/mrn", "DATE/birth", "NAME/x", "X"])},
        optional={"value": st.one_of(_secret, _json_scalar)},
    ),
    max_size=3,
)
_terms = st.lists(
    st.fixed_dictionaries(
        {"term": _secret},
        optional={
            "label": _labels,
            "match": st.sampled_from(["word", "exact", "x"]),
            "case": st.just("sensitive"),
        },
    ),
    max_size=3,
)

deid_requests = st.fixed_dictionaries(
    {"text": _note},
    optional={
        "lang": st.sampled_from(["en", "fr", "de", ""]),
        "method": st.sampled_from(["replace", "words", "sentences", "hybrid", "other"]),
        "operators": st.dictionaries(_labels, _operator_names, max_size=3),
        "operator_params": st.dictionaries(
            _operator_names, st.dictionaries(_param_names, _json, max_size=2), max_size=2
        ),
        "epsilon": st.one_of(st.floats(min_value=1e-300, max_value=1e300), st.integers(-1, 3)),
        "seed": st.integers(-1, 2**80),
        "n": st.one_of(st.integers(-5, 100), st.text(max_size=6)),
        "k": st.integers(-1, 200),
        "detectors": st.lists(st.sampled_from(["patterns", "lexicons", "tagger", "spacy", "x"]), max_size=2),
        "then": st.sampled_from(["words", "sentences", "x"]),
        "id": st.text(max_size=70),
        "known": _known,
        "allow": _terms,
        "deny": _terms,
    },
)


def check(response: Any, logs: Collect) -> None:
    assert response.status_code in ALLOWED, response.text
    for line in logs.lines:
        assert PLANTED not in line and API_KEY not in line
    if response.status_code != 200:  # refusals never echo the note
        assert PLANTED not in response.text


@SETTINGS
@given(body=deid_requests)
def test_any_deid_request_is_answered_without_500_and_logged_without_text(
    client: TestClient, logs: Collect, body: dict[str, Any]
) -> None:
    check(client.post("/deid", json=body), logs)


@SETTINGS
@given(
    path=st.sampled_from(["/detect", "/evaluate"]),
    text=_note,
    lang=st.sampled_from(["en", "fr", "xx"]),
    gold=st.lists(
        st.fixed_dictionaries(
            {
                "start": st.integers(-2, 300),
                "end": st.integers(-2, 300),
                "label": st.one_of(_labels, st.text()),
            }
        ),
        max_size=3,
    ),
)
def test_any_detect_or_evaluate_request_is_answered_without_500(
    client: TestClient, logs: Collect, path: str, text: str, lang: str, gold: list[dict[str, Any]]
) -> None:
    body: dict[str, Any] = {"text": text, "lang": lang}
    if path == "/evaluate":
        body["gold"] = gold
    check(client.post(path, json=body), logs)


@SETTINGS
@given(
    raw=st.one_of(
        st.binary(max_size=200),
        _note.map(lambda t: json.dumps({"text": t}).encode("utf-8")[:-3]),  # truncated JSON
        st.just(b'{"text": "Mr. Quackenbush \\ud800 lone surrogate"}'),
        st.just(b'{"text": "Mr. Quackenbush ' + b"\xff\xfe" + b'"}'),
        st.just(b'{"text": ' + b"[" * 5000 + b"}"),
        st.sampled_from([p.encode() for p in PHI]),
    ),
    path=st.sampled_from(["/deid", "/detect", "/evaluate"]),
)
def test_any_raw_body_is_refused_cleanly(client: TestClient, logs: Collect, raw: bytes, path: str) -> None:
    check(client.post(path, content=raw, headers={"content-type": "application/json"}), logs)


def test_a_wrong_or_missing_api_key_is_never_logged_or_echoed(client: TestClient, logs: Collect) -> None:
    for headers in ({"X-API-Key": API_KEY[:-1]}, {"X-API-Key": f"{API_KEY}x"}, {"X-API-Key": ""}):
        response = client.post("/detect", json={"text": f"Mr. {PLANTED}"}, headers=headers)
        assert response.status_code == 401
        check(response, logs)
