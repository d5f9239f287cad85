"""Fixtures of the SQL tests: a real PostgreSQL server for the session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pg_server import postgres_server


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL server started for the test session (Debian's ``postgresql`` package)."""
    with postgres_server() as url:
        yield url
