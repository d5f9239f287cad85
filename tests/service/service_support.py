"""Shared constants and types of the service tests (imported by conftest and the test modules)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from contextlib import AbstractContextManager

with warnings.catch_warnings():
    # newer Starlette prefers the httpx2 package for its test client; httpx works the same
    warnings.filterwarnings("ignore", message=".*httpx.*", category=UserWarning)
    from fastapi.testclient import TestClient

#: a synthetic note; the planted name must never appear in a log line
PLANTED = "Zebulon Quackenbush"
NOTE = (
    f"Mr. {PLANTED}, 58 years old, was admitted on 02/12/2020 from Calvert Hospital after a fall.\n"
    "Seen by Dr. Helen Park. Wife can be reached at (617) 555-0142. MRN: 4482913."
)

ClientFactory = Callable[..., AbstractContextManager[TestClient]]

__all__ = ["NOTE", "PLANTED", "ClientFactory", "TestClient"]
