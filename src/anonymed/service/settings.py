"""Service settings: one frozen dataclass, validated on creation; the API key comes from the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from anonymed.config import LANGUAGES
from anonymed.errors import ConfigError

API_KEY_ENV = "ANONYMED_API_KEY"
API_KEY_FILE_ENV = "ANONYMED_API_KEY_FILE"
MIN_API_KEY_LENGTH = 16
#: where requests run: killable worker processes (the default) or threads of the server process
ISOLATIONS = ("process", "thread")
Isolation = Literal["process", "thread"]


@dataclass(frozen=True)
class ServiceSettings:
    """How the service runs: limits, isolation, languages to load, resources, API key and CORS origins.

    ``isolation="process"`` runs requests in ``workers`` processes that a timeout kills (and replaces);
    ``"thread"`` runs them in threads of the server, which a timeout cannot stop (for tests and embedding).
    """

    max_body_bytes: int = 1_000_000
    timeout_seconds: float = 10.0
    workers: int = 2
    isolation: Isolation = "process"
    languages: tuple[str, ...] = LANGUAGES
    word_space: Path | None = None
    sentence_bank: Path | None = None
    api_key: str | None = field(default=None, repr=False)
    cors_origins: tuple[str, ...] = ()
    #: the configuration every request starts from (``anonymed serve --config``); a request's fields
    #: override it (docs/configuration.md)
    config_file: Path | None = None

    def __post_init__(self) -> None:
        if self.max_body_bytes < 1:
            raise ConfigError(f"max_body_bytes must be positive, got {self.max_body_bytes!r}")
        if not self.timeout_seconds > 0:
            raise ConfigError(f"timeout_seconds must be positive, got {self.timeout_seconds!r}")
        if self.workers < 1:
            raise ConfigError(f"workers must be at least 1, got {self.workers!r}")
        if self.isolation not in ISOLATIONS:
            raise ConfigError(f"isolation must be one of {ISOLATIONS}, got {self.isolation!r}")
        if not self.languages:
            raise ConfigError("at least one language must be loaded")
        for lang in self.languages:
            if lang not in LANGUAGES:
                raise ConfigError(f"unsupported language {lang!r}; expected one of {LANGUAGES}")
        if self.api_key is not None and len(self.api_key) < MIN_API_KEY_LENGTH:
            raise ConfigError(f"the API key is too short: need at least {MIN_API_KEY_LENGTH} characters")
        if "*" in self.cors_origins:
            raise ConfigError("CORS origin '*' is refused: name each allowed origin")


def read_api_key(environ: Mapping[str, str] | None = None) -> str | None:
    """The API key from ``$ANONYMED_API_KEY`` or the file named by ``$ANONYMED_API_KEY_FILE`` (or None)."""
    env = os.environ if environ is None else environ
    value = env.get(API_KEY_ENV, "").strip()
    path = env.get(API_KEY_FILE_ENV, "").strip()
    if value and path:
        raise ConfigError(f"set either {API_KEY_ENV} or {API_KEY_FILE_ENV}, not both")
    if path:
        try:
            value = Path(path).read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"cannot read the API key file {path!r}: {type(exc).__name__}") from None
        if not value:
            raise ConfigError(f"the API key file {path!r} is empty")
    return value or None
