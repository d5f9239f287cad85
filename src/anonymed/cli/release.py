"""``anonymed release report``: one JSON/HTML document per release for an ethics board."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from anonymed.cli.common import console, handled_errors, out
from anonymed.redact import redacted_command, redacted_command_line

app = typer.Typer(no_args_is_help=True)


@app.command("report")
def report(
    summary: Annotated[Path, typer.Option("--summary", help="The run summary (anonymed deid --summary).")],
    output: Annotated[Path, typer.Option("-o", "--output", help="release.json to write.")],
    html: Annotated[
        Path | None, typer.Option("--html", help="HTML page (default: next to the JSON).")
    ] = None,
    input: Annotated[Path | None, typer.Option("--input", help="The run's input, to fingerprint.")] = None,
    config: Annotated[Path | None, typer.Option("--config", help="The run's TOML configuration.")] = None,
    privacy_report: Annotated[
        Path | None, typer.Option("--privacy-report", help="The run's privacy report (JSONL).")
    ] = None,
    review: Annotated[
        Path | None, typer.Option("--review", help="Review folder, or its report.json.")
    ] = None,
    metrics: Annotated[
        list[Path] | None, typer.Option("--metrics", help="A metric report (JSON), repeatable.")
    ] = None,
    audit: Annotated[
        Path | None, typer.Option("--audit", help="The embedding audit's report (JSON).")
    ] = None,
    command: Annotated[
        list[str] | None, typer.Option("--command", help="A command that produced the release, repeatable.")
    ] = None,
    target: Annotated[float, typer.Option("--target", help="Review target, per token.")] = 0.001,
) -> None:
    """Assemble the release report from the run's summary and the other reports given."""
    from anonymed.review.release import ReleaseInputs, build_release
    from anonymed.review.release_html import release_html
    from anonymed.review.report_html import write_report

    with handled_errors():
        inputs = ReleaseInputs(
            summary,
            input,
            config,
            privacy_report,
            review,
            tuple(metrics or ()),
            audit,
            tuple(redacted_command_line(line) for line in command or ()),
            target,
            redacted_command(["anonymed", *sys.argv[1:]]),
        )
        data = build_release(inputs)
        html_path = html or output.with_suffix(".html")
        write_report(data, output, html_path, release_html(data))
    for warning in data["warnings"]:
        console.print(f"[yellow]warning:[/yellow] {warning}")
    for item in data["pending"]:
        out.print(f"not in the report: {item}")
    console.print(f"release report: {output} and {html_path}")
