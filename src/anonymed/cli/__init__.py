"""The ``anonymed`` command: a thin Typer app that parses options, calls the library and presents results."""

from __future__ import annotations

from typing import Annotated

import typer

from anonymed.cli import (
    audit,
    bank,
    config_show,
    deid,
    embed,
    evaluate,
    evaluate_leaks,
    evaluate_metrics,
    fhir,
    keygen,
    obfuscate,
    release,
    review,
    serve,
    sql,
    train,
)
from anonymed.cli.common import console
from anonymed.processes import Stopped, stop_on_signals

app = typer.Typer(
    name="anonymed",
    help="De-identify clinical notes: detect and replace PHI, obfuscate words or sentences, evaluate, audit.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,  # a traceback's local variables would print note text
    rich_markup_mode=None,  # help texts are plain: "[hybrid]" and "anonymed[scale]" print as written
)
#: ``anonymed evaluate``: detection (cli/evaluate.py); anonymity, utility, report (cli/evaluate_metrics.py);
#: leaks (cli/evaluate_leaks.py)
evaluate_app = typer.Typer(
    help="Evaluate detection against gold annotations.", no_args_is_help=True, add_completion=False
)
evaluate.register(evaluate_app)
evaluate_metrics.register(evaluate_app)
evaluate_leaks.register(evaluate_app)
deid.register(app)
fhir.register(app)
sql.register(app)
serve.register(app)
config_show.register(app)
keygen.register(app)
app.add_typer(evaluate_app, name="evaluate", help="Measure detection, anonymity and utility.")
app.add_typer(embed.app, name="embed", help="Train embedding spaces for word substitution.")
app.add_typer(obfuscate.app, name="obfuscate", help="Replace every word with a random near neighbour.")
app.add_typer(bank.app, name="bank", help="Build sentence banks for sentence substitution.")
app.add_typer(audit.app, name="audit", help="Privacy audit of released embeddings and corpora.")
app.add_typer(train.app, name="train", help="Train anonymed's models (the PHI recognizer).")
app.add_typer(review.app, name="review", help="Review a sample, estimate the PHI left, learn from it.")
app.add_typer(release.app, name="release", help="The release report for an ethics board.")


def _version(value: bool) -> None:
    if value:
        from importlib import metadata

        typer.echo(f"anonymed {metadata.version('anonymed')}")
        raise typer.Exit()


@app.callback()
def anonymed(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """De-identify clinical notes: detect and replace PHI, obfuscate words or sentences, evaluate, audit.

    Configuration: built-in defaults < profile < --config file < options (docs/configuration.md).
    """


def main() -> None:
    """Console entry point: SIGTERM and SIGINT stop the command cleanly (exit code 143, 130).

    The signal becomes ``Stopped`` in the main thread: pools of worker processes are stopped and temporary
    outputs removed on the way out, then one line says so (``anonymed.processes``).
    """
    try:
        with stop_on_signals():
            app()
    except Stopped as stopped:
        console.print(
            f"[red]stopped[/red] by {stopped.name} (exit code {stopped.exit_code}): the command was "
            "interrupted and its worker processes were stopped"
        )
        raise SystemExit(stopped.exit_code) from None
