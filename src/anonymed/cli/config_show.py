"""``anonymed config show``: the effective configuration as TOML, each value with its source.

Given the configuration file and options of a run, it prints what the run uses: fed back with
``--config`` (and the same input and output options), the run gives the same output (docs/configuration.md).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import MappingProxyType
from typing import Annotated

import typer

from anonymed.cli.common import console, handled_errors
from anonymed.cli.options import HYBRID, PIPELINE, Choices, configured
from anonymed.effective import Effective
from anonymed.errors import ConfigError, OutputError

app = typer.Typer(no_args_is_help=True)


def from_summary(path: Path) -> Effective:
    """The effective configuration a run summary (``--summary run.json``) recorded."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))["configuration"]
        values, sources = data["values"], data["sources"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        reason = f"{type(exc).__name__}: no configuration recorded" if isinstance(exc, KeyError) else exc
        raise ConfigError(f"cannot read the configuration of run summary {str(path)!r} ({reason})") from None
    keys = {tuple(str(name).split(".")): str(source) for name, source in dict(sources).items()}
    return Effective(MappingProxyType(dict(values)), MappingProxyType(keys))


@app.command("show")
@configured(PIPELINE, HYBRID)
def show(
    summary: Annotated[
        Path | None,
        typer.Option("--from-summary", help="Print the configuration a run summary recorded instead."),
    ] = None,
    comments: Annotated[
        bool, typer.Option("--sources/--no-sources", help="Name each value's source in a comment.")
    ] = True,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write the TOML here.")] = None,
    *,
    choices: Choices,
) -> None:
    """Print the effective configuration (defaults < profile < --config file < options) as TOML."""
    with handled_errors():
        if summary is not None:
            if choices.config is not None or choices.typed:
                raise ConfigError("--from-summary prints a recorded configuration: give no other option")
            effective = from_summary(summary)
        else:
            chosen = choices.configured()
            chosen.hybrid()  # every value checked (files read, operators known) before it is printed
            effective = chosen.effective
        text = effective.to_toml(comments=comments)
        if output is None:
            sys.stdout.write(text)
        else:
            _write(output, text)
            console.print(f"configuration: {output}", markup=False)


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise OutputError(f"cannot write {str(path)!r}: {exc.strerror}") from None


def register(parent: typer.Typer) -> None:
    """Add ``anonymed config`` to the main app."""
    parent.add_typer(app, name="config", help="Show the effective configuration of a run.")
