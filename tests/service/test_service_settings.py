"""Service settings: validation, and the API key read from the environment or a file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from anonymed.errors import ConfigError
from anonymed.service.settings import ServiceSettings, read_api_key

KEY = "0123456789abcdef-key"


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"max_body_bytes": 0}, "max_body_bytes"),  # nothing would fit
        ({"timeout_seconds": 0}, "timeout_seconds"),  # every request would time out
        ({"workers": 0}, "workers"),  # no worker to do the work
        ({"isolation": "fork"}, "isolation"),  # only process or thread
        ({"languages": ()}, "at least one language"),
        ({"languages": ("de",)}, "unsupported language 'de'"),
        ({"api_key": "short"}, "too short"),  # guessable keys are refused
        ({"cors_origins": ("*",)}, "'*' is refused"),  # CORS stays explicit
    ],
)
def test_bad_settings_are_refused(changes: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment):
        ServiceSettings(**changes)


def test_defaults_are_closed_and_bounded() -> None:
    settings = ServiceSettings()
    assert settings.api_key is None and settings.cors_origins == ()
    assert settings.max_body_bytes == 1_000_000 and settings.timeout_seconds > 0
    assert settings.isolation == "process"  # a timeout kills the work


def test_the_api_key_never_shows_in_the_settings_repr() -> None:
    assert KEY not in repr(ServiceSettings(api_key=KEY))


def test_api_key_comes_from_the_environment_variable() -> None:
    assert read_api_key({"ANONYMED_API_KEY": f" {KEY}\n"}) == KEY


def test_api_key_comes_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "key"
    path.write_text(KEY + "\n", encoding="utf-8")
    assert read_api_key({"ANONYMED_API_KEY_FILE": str(path)}) == KEY


def test_no_api_key_configured_means_none() -> None:
    assert read_api_key({}) is None and read_api_key({"ANONYMED_API_KEY": "  "}) is None


@pytest.mark.parametrize(
    ("env", "fragment"),
    [
        ({"ANONYMED_API_KEY": KEY, "ANONYMED_API_KEY_FILE": "/x"}, "not both"),  # ambiguous
        ({"ANONYMED_API_KEY_FILE": "/nonexistent/key"}, "cannot read"),  # missing file
    ],
)
def test_unusable_api_key_configuration_is_an_error(env: dict[str, str], fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment):
        read_api_key(env)


def test_empty_api_key_file_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "key"
    path.write_text("\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="empty"):
        read_api_key({"ANONYMED_API_KEY_FILE": str(path)})


def test_api_key_file_content_is_not_quoted_in_errors(tmp_path: Path) -> None:
    path = tmp_path / "key"
    path.write_bytes(b"\xff\xfe" + KEY.encode())
    with pytest.raises(ConfigError) as caught:
        read_api_key({"ANONYMED_API_KEY_FILE": str(path)})
    assert KEY not in str(caught.value)
