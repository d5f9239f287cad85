"""Fixtures for the service tests: apps built from settings, run with their start-up (lifespan)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from service_support import ClientFactory, TestClient

from anonymed.service import ServiceSettings, create_app
from anonymed.service.worker import EngineHook


@pytest.fixture
def make_client() -> ClientFactory:
    """Build an app from settings (English only unless told; ``engine_hook=`` passed on) and open a client
    with start-up done (in process isolation, the workers loaded)."""

    @contextmanager
    def make(engine_hook: EngineHook | None = None, **changes: Any) -> Iterator[TestClient]:
        settings = ServiceSettings(**{"languages": ("en",), **changes})
        with TestClient(create_app(settings, engine_hook=engine_hook)) as client:
            yield client

    return make


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """A client of the default (English) app without an API key, shared by a module's tests (no state)."""
    with TestClient(create_app(ServiceSettings(languages=("en",)))) as opened:
        yield opened
