"""Fixtures for the service tests: apps built from settings, run with their start-up (lifespan)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from service_support import ClientFactory, TestClient

from anonymed.service import ServiceSettings, create_app


@pytest.fixture
def make_client() -> ClientFactory:
    """Build an app from settings (English only unless told) and open a client with start-up done."""

    @contextmanager
    def make(**changes: Any) -> Iterator[TestClient]:
        settings = ServiceSettings(**{"languages": ("en",), **changes})
        with TestClient(create_app(settings)) as client:
            yield client

    return make


@pytest.fixture
def client(make_client: ClientFactory) -> Iterator[TestClient]:
    """A client of the default (English) app without an API key."""
    with make_client() as opened:
        yield opened
