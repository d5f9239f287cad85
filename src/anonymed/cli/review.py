"""``anonymed review``: draw a sample to review, serve the review page, report the residual risk, export."""

from __future__ import annotations

import inspect
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from anonymed.cli.common import console, handled_errors, out
from anonymed.cli.deid import DETECTION_TABLES, FormatOpt, IdFieldOpt, InputArg, TextFieldOpt
from anonymed.cli.options import DETECTION, Choices, configured
from anonymed.cli.scale import reader_spec
from anonymed.errors import ConfigError
from anonymed.randomness import check_random_state
from anonymed.redact import redacted_command

app = typer.Typer(no_args_is_help=True)
FolderArg = Annotated[Path, typer.Argument(help="The review folder (made by `anonymed review sample`).")]
#: the draw's seed: ``--seed`` over the configuration file's ``[pipeline] seed`` (one seed per run)
DRAW_SEED = inspect.Parameter(
    "seed",
    inspect.Parameter.KEYWORD_ONLY,
    default=None,
    annotation=Annotated[
        int | None,
        typer.Option("--seed", help="Reproducible draw (by anyone with the seed); else [pipeline] seed."),
    ],
)


@app.command("sample")
@configured(DETECTION, (DRAW_SEED,))
def sample(
    input: InputArg,
    output: Annotated[Path, typer.Option("-o", "--output", help="The review folder to create.")],
    n: Annotated[int, typer.Option("--n", help="Notes to draw.")] = 200,
    oversample: Annotated[
        float, typer.Option("--oversample", help="How much more often flagged notes are drawn (1: never).")
    ] = 3.0,
    low_confidence: Annotated[
        float, typer.Option("--low-confidence", help="A span scored under this flags its note.")
    ] = 0.75,
    length_bands: Annotated[int, typer.Option("--length-bands", help="Strata by note length.")] = 3,
    strata_field: Annotated[
        str | None, typer.Option("--strata-field", help="Stratify by this record field (e.g. a note type).")
    ] = None,
    many_spans: Annotated[
        int, typer.Option("--many-spans", help="A note with this many detected spans is flagged (0: off).")
    ] = 3,
    input_format: FormatOpt = None,
    text_field: TextFieldOpt = None,
    id_field: IdFieldOpt = None,
    *,
    choices: Choices,
) -> None:
    """Draw a stratified random sample, run detection on it and write a review folder."""
    from anonymed.review.sample import SampleOptions, build_review

    with handled_errors():
        chosen = choices.configured()
        cfg = chosen.pipeline()
        seed = chosen.seed
        spec = reader_spec(input, input_format, text_field, id_field, cfg.lang)
        options = SampleOptions(n, oversample, low_confidence, length_bands, strata_field, many_spans)
        command = redacted_command(["anonymed", *sys.argv[1:]])  # the seed is a secret
        manifest = build_review(
            spec.open(), cfg, options, output, check_random_state(seed), command=command,
            configuration=chosen.effective.only(DETECTION_TABLES).to_json(),
        )  # fmt: skip
    table = Table(title=f"review sample -> {output}")
    for column in ("stratum", "notes", "drawn", "weight"):
        table.add_column(column, justify="left" if column == "stratum" else "right")
    for name, row in manifest["design"]["strata"].items():
        table.add_row(name, str(row["population"]), str(row["sample"]), f"{row['weight']:.2f}")
    console.print(table)
    console.print(f"{manifest['input']['notes']} notes read, {manifest['input']['failed']} failed")
    if seed is not None:
        console.print("[yellow]note:[/yellow] seeded draw: anyone with the seed can reproduce the sample.")


@app.command("serve")
def serve(
    folder: FolderArg,
    host: Annotated[str, typer.Option("--host", help="Address to bind (loopback by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port.")] = 8001,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option("--allowed-host", help="A host name clients use to reach the server, repeatable."),
    ] = None,
    max_body_bytes: Annotated[int, typer.Option("--max-body-bytes", help="Largest request body.")] = 64_000,
    log_level: Annotated[str, typer.Option("--log-level", help="debug | info | warning | error")] = "info",
) -> None:
    """Serve the review page for a folder; the API key, if any, comes from $ANONYMED_API_KEY(_FILE)."""
    import uvicorn

    from anonymed.cli.serve import LOG_LEVELS, is_loopback, service_logging
    from anonymed.service import read_api_key
    from anonymed.service.review import ReviewSettings, allowed_hosts, create_review_app

    with handled_errors():
        if log_level.lower() not in LOG_LEVELS:
            raise ConfigError(f"--log-level must be one of {LOG_LEVELS}, got {log_level!r}")
        hosts = allowed_hosts(host, allowed_host or ())
        settings = ReviewSettings(folder, read_api_key(), max_body_bytes, hosts)
        review_app = create_review_app(settings)
    if settings.api_key is None and not is_loopback(host):
        console.print(
            f"[yellow]warning:[/yellow] serving notes on {host} without an API key: anyone who can reach it "
            "can read them. Set ANONYMED_API_KEY or ANONYMED_API_KEY_FILE."
        )
    service_logging(log_level)
    console.print(f"anonymed review of {folder} on http://{host}:{port}/")
    uvicorn.run(
        review_app, host=host, port=port, access_log=False, log_level=log_level.lower(), server_header=False
    )


@app.command("report")
def report(
    folder: FolderArg,
    target: Annotated[
        float,
        typer.Option("--target", help="Residual identifiers per token to get under (0.001: 1 per 1,000)."),
    ] = 0.001,
    confidence: Annotated[float, typer.Option("--confidence", help="Confidence of the intervals.")] = 0.95,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="report.json to write (default: in the folder).")
    ] = None,
    html: Annotated[
        Path | None, typer.Option("--html", help="HTML page to write (default: next to the JSON).")
    ] = None,
    before_model: Annotated[
        Path | None,
        typer.Option("--before-model", help="Tagger model before retraining (with --after-model)."),
    ] = None,
    after_model: Annotated[
        Path | None,
        typer.Option(
            "--after-model", help="Tagger retrained on the review's annotations: scored on held-out notes."
        ),
    ] = None,
) -> None:
    """Estimate residual PHI per 1,000 tokens, notes with a miss and precision, with intervals."""
    from anonymed.review.folder import ReviewFolder
    from anonymed.review.report import build_report
    from anonymed.review.report_html import review_html, write_report

    with handled_errors():
        if (before_model is None) != (after_model is None):
            raise ConfigError("--before-model and --after-model go together")
        models = None if before_model is None or after_model is None else (before_model, after_model)
        data = build_report(ReviewFolder(folder), target=target, confidence=confidence, models=models)
        json_path = output or folder / "report.json"
        html_path = html or json_path.with_suffix(".html")
        write_report(data, json_path, html_path, review_html(data))
    print_report(data)
    console.print(f"report: {json_path} and {html_path}")


def print_report(data: dict[str, object]) -> None:
    """The headline figures as a table on stdout."""
    from anonymed.review.html import interval

    progress = data["progress"]
    residual = data["residual"]
    precision = data["precision"]
    assert isinstance(progress, dict) and isinstance(residual, dict) and isinstance(precision, dict)
    table = Table(title=f"{progress['reviewed']} of {progress['sampled']} notes reviewed")
    for column in ("label", "missed", "per 1,000 tokens", "notes with a miss", "precision"):
        table.add_column(column)
    rows = [("all", residual["overall"], precision["overall"])]
    rows += [(k, v, precision["by_label"].get(k)) for k, v in residual["by_label"].items()]
    for name, res, prec in rows:
        table.add_row(
            name,
            str(res["missed"]),
            interval(res["per_1000_tokens"]),
            interval(res["notes_with_missed"]),
            interval(prec),
        )
    out.print(table)
    learning = data.get("learning")
    if isinstance(learning, dict):
        print_learning(learning)
    target = data["target"]
    assert isinstance(target, dict)
    if target["notes_needed"] is None:
        out.print(f"upper bound under {target['per_1000_tokens']:g} per 1,000 tokens: {target['reason']}")
    else:
        out.print(
            f"upper bound under {target['per_1000_tokens']:g} per 1,000 tokens after about "
            f"{target['notes_needed']} reviewed notes ({target['additional_notes']} more)"
        )


def print_learning(learning: dict[str, Any]) -> None:
    """Before / after recall and precision of a retrained tagger on the held-out reviewed notes."""
    if not learning["variants"]:
        out.print(f"before / after: {learning['reason']}")
        return
    table = Table(
        title=f"before / after on {learning['held_out_notes']} held-out reviewed notes "
        f"({learning['gold_tokens']} PHI tokens)"
    )
    for column in ("detectors", "recall before", "recall after", "precision before", "precision after"):
        table.add_column(column)
    for variant, figures in learning["variants"].items():
        before, after = figures["before"]["overall"], figures["after"]["overall"]
        table.add_row(
            variant, *(_score(f[k]) for k in ("recall", "precision") for f in (before, after))
        )  # fmt: skip
    out.print(table)


def _score(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


@app.command("export")
def export(
    folder: FolderArg,
    output: Annotated[
        Path | None,
        typer.Option("-o", "--output", help="Folder for the exports (default: the review folder)."),
    ] = None,
    holdout: Annotated[
        float,
        typer.Option(
            "--holdout", help="Share of finished notes kept out of annotations.jsonl (to score on)."
        ),
    ] = 0.0,
    seed: Annotated[int | None, typer.Option("--seed", help="Reproducible hold-out draw.")] = None,
) -> None:
    """Write allow.csv, deny.csv and annotations.jsonl from the finished notes."""
    from anonymed.review.export import export as run_export
    from anonymed.review.folder import ReviewFolder

    with handled_errors():
        done = run_export(
            ReviewFolder(folder), output or folder, holdout=holdout, rng=check_random_state(seed)
        )
    console.print(
        f"{done.allow} allow entries, {done.deny} deny entries, {done.notes} annotated notes "
        f"({done.conflicts} conflicting and {done.skipped} multi-line terms left out; {done.held_out} notes "
        f"held out) in {output or folder}"
    )
