"""``anonymed serve``: options become settings; uvicorn runs the app on loopback without access logs."""

from __future__ import annotations

import logging
from typing import Any

import pytest
import typer
import uvicorn
from typer.testing import CliRunner

from anonymed.cli import serve as serve_module

KEY = "0123456789abcdef-key"


@pytest.fixture
def captured(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Replace uvicorn.run with a recorder."""
    calls: dict[str, Any] = {}

    def fake_run(app: Any, **kwargs: Any) -> None:
        calls["app"], calls["kwargs"] = app, kwargs

    monkeypatch.setattr(uvicorn, "run", fake_run)
    monkeypatch.setattr(serve_module, "service_logging", lambda level: calls.setdefault("log", level))
    monkeypatch.delenv("ANONYMED_API_KEY", raising=False)
    monkeypatch.delenv("ANONYMED_API_KEY_FILE", raising=False)
    monkeypatch.delenv("ANONYMED_ISOLATION", raising=False)
    return calls


def cli() -> typer.Typer:
    app = typer.Typer()
    serve_module.register(app)
    app.command("noop")(lambda: None)  # a second command keeps "serve" a sub-command
    return app


def test_serve_binds_loopback_by_default_without_access_log(captured: dict[str, Any]) -> None:
    result = CliRunner().invoke(cli(), ["serve"])
    assert result.exit_code == 0, result.output
    assert captured["kwargs"]["host"] == "127.0.0.1" and captured["kwargs"]["port"] == 8000
    assert captured["kwargs"]["access_log"] is False and captured["log"] == "info"
    settings = captured["app"].state.settings
    assert settings.api_key is None and settings.languages == ("en", "fr")
    assert settings.isolation == "process"  # a timeout kills the worker by default


def test_serve_options_become_settings(captured: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANONYMED_API_KEY", KEY)
    args = ["serve", "--port", "9001", "--max-body-bytes", "2048", "--timeout", "3", "--lang", "fr"]
    result = CliRunner().invoke(cli(), [*args, "--cors-origin", "https://ehr.example"])
    assert result.exit_code == 0, result.output
    settings = captured["app"].state.settings
    assert (settings.max_body_bytes, settings.timeout_seconds, settings.languages) == (2048, 3.0, ("fr",))
    assert settings.api_key == KEY and settings.cors_origins == ("https://ehr.example",)
    assert KEY not in result.output


@pytest.mark.parametrize(
    ("args", "env", "isolation"),
    [
        (["--isolation", "thread"], {}, "thread"),  # the option
        ([], {"ANONYMED_ISOLATION": "thread"}, "thread"),  # the environment variable
        (["--isolation", "process"], {"ANONYMED_ISOLATION": "thread"}, "process"),  # the option wins
    ],
)
def test_isolation_comes_from_the_option_or_the_environment(
    captured: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    env: dict[str, str],
    isolation: str,
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    result = CliRunner().invoke(cli(), ["serve", *args])
    assert result.exit_code == 0, result.output
    assert captured["app"].state.settings.isolation == isolation


def test_serving_beyond_loopback_without_a_key_warns(captured: dict[str, Any]) -> None:
    result = CliRunner().invoke(cli(), ["serve", "--host", "0.0.0.0"])
    assert result.exit_code == 0 and "without an API key" in result.output


def test_bad_settings_exit_with_code_2_and_a_message(captured: dict[str, Any]) -> None:
    result = CliRunner().invoke(cli(), ["serve", "--timeout", "0"])
    assert result.exit_code == 2 and "timeout_seconds" in result.output and "app" not in captured


def test_unknown_isolation_is_refused(captured: dict[str, Any]) -> None:
    result = CliRunner().invoke(cli(), ["serve", "--isolation", "fork"])
    assert result.exit_code == 2 and "isolation" in result.output and "app" not in captured


def test_unknown_log_level_is_refused(captured: dict[str, Any]) -> None:
    result = CliRunner().invoke(cli(), ["serve", "--log-level", "loud"])
    assert result.exit_code == 2 and "--log-level" in result.output


def test_service_logging_sends_request_lines_to_a_handler() -> None:
    logger = logging.getLogger("anonymed")
    before = list(logger.handlers), logger.level
    try:
        serve_module.service_logging("warning")
        assert logger.handlers and logger.level == logging.WARNING
    finally:
        logger.handlers[:] = before[0]
        logger.setLevel(before[1])
