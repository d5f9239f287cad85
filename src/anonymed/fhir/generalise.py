"""Generalisation of US ZIP codes for HIPAA Safe Harbor: the first three digits, 000 for small areas."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import Final

_ZIP: Final = re.compile(r"(\d{3})\d{2}(?:-?\d{4})?")


@cache
def restricted_zip3() -> frozenset[str]:
    """The three-digit ZIP areas of 20,000 people or fewer (``resources/fhir/zip3_restricted.txt``)."""
    text = resources.files("anonymed").joinpath("resources", "fhir", "zip3_restricted.txt").read_text("utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


def zip3(value: str, restricted: frozenset[str]) -> str | None:
    """``"668"`` for ``"66801"`` or ``"66801-2504"``, ``"000"`` for a restricted area; None if not a ZIP."""
    found = _ZIP.fullmatch(value.strip())
    if found is None:
        return None
    return "000" if found.group(1) in restricted else found.group(1)
