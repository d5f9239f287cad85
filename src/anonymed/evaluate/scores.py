"""How every evaluation report writes a score: rounded to 4 decimals, ``None`` (JSON null) when undefined."""

from __future__ import annotations

DECIMALS = 4


def rounded(value: float | None) -> float | None:
    """``value`` rounded to ``DECIMALS`` places; ``None`` stays ``None``."""
    return None if value is None else round(value, DECIMALS)
