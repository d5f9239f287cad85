"""The one TOML reader: every configuration file (pipeline, profile, hybrid, report) is read here."""

from __future__ import annotations

import tomllib
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from anonymed.errors import ConfigError


def read_toml(source: Path | Traversable, what: str = "configuration file") -> dict[str, Any]:
    """The parsed TOML document at ``source`` (a file or a packaged resource); ``ConfigError`` if unreadable.

    ``what`` names the kind of file in the message, with its path and the parser's reason (line and
    column), never its content.
    """
    try:
        return tomllib.loads(source.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read {what} {str(source)!r}: {exc}") from None
