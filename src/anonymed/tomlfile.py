"""The one TOML reader: every configuration file (pipeline, hybrid, report) is read here."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from anonymed.errors import ConfigError


def read_toml(path: Path, what: str = "configuration file") -> dict[str, Any]:
    """The parsed TOML document at ``path``; an unreadable or malformed file is a ``ConfigError``."""
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read {what} {str(path)!r}: {exc}") from None
