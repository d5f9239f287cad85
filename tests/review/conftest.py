"""Fixtures of the review tests: a review folder built from the small input."""

from __future__ import annotations

from pathlib import Path

import pytest
from review_support import make_folder

from anonymed.review.folder import ReviewFolder


@pytest.fixture
def folder(tmp_path: Path) -> ReviewFolder:
    """A review folder holding every note of the small input (patterns detector, seed 7)."""
    return make_folder(tmp_path)
