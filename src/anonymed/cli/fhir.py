"""``anonymed deid-fhir``: de-identify a FHIR R4 export (structured elements and the notes inside them)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from anonymed.cli.common import (
    console,
    handled_errors,
    progress_bar,
    quiet_logging,
    write_json,
)
from anonymed.cli.deid import read_patient_key, run_configuration, seed_note
from anonymed.cli.options import PIPELINE, Choices, configured
from anonymed.cli.scale import MAX_FAILURES, MaxFailedOpt, MaxFailuresOpt, check_failures, failure_limit
from anonymed.errors import ConfigError
from anonymed.fhir import MANIFEST, FhirDeidentifier, FhirOptions, shipped_profiles

RulesOpt = Annotated[
    Path | None,
    typer.Option(
        "--rules",
        help=f"Your own rules table (TOML) for the run's profile; shipped: {', '.join(shipped_profiles())}.",
    ),
]
AsOfOpt = Annotated[
    str | None,
    typer.Option(
        "--as-of", help="Day ages are counted at (dates 90+ years before it removed); default today."
    ),
]


def parse_as_of(value: str | None) -> dt.date | None:
    """The ``--as-of`` day (ISO), or None."""
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise ConfigError(f"--as-of expects an ISO date (YYYY-MM-DD), got {value!r}") from None


def _print(manifest: dict[str, Any], output: Path) -> None:
    table = Table(title=f"anonymed deid-fhir -> {output}", show_header=True)
    for column in ("resource type", "in", "out", "quarantined"):
        table.add_column(column)
    for rtype, counts in manifest["resources"].items():
        table.add_row(rtype, str(counts["in"]), str(counts["out"]), str(counts["quarantined"]))
    console.print(table)
    unknown = sum(manifest["removed_unknown_elements"].values())
    extensions = sum(manifest["removed_unknown_extensions"].values())
    console.print(
        f"profile {manifest['profile']}; unknown elements removed: {unknown}; "
        f"unknown extensions removed: {extensions}; failed records: {manifest['failed']}"
    )
    for outcome, count in manifest["attachments"].items():
        console.print(f"attachments {outcome}: {count}")
    if manifest["text"] is not None:
        totals = manifest["text"]["substitution"]["totals"]
        console.print(
            f"text pass: {manifest['text']['documents']} texts scrubbed; spans "
            + ", ".join(f"{outcome} {count}" for outcome, count in totals.items())
        )
    console.print(f"manifest: {output / MANIFEST}")


@configured(PIPELINE)
def deid_fhir(
    input: Annotated[Path, typer.Argument(help="Export folder (NDJSON, .ndjson.gz, Bundles) or one file.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Output folder (same layout + manifest).")],
    rules: RulesOpt = None,
    patient_key_file: Annotated[
        Path | None, typer.Option("--patient-key-file", help="Secret key: pseudonyms and shifts per patient.")
    ] = None,
    as_of: AsOfOpt = None,
    text: Annotated[bool, typer.Option("--text/--no-text", help="Scrub notes and free text.")] = True,
    max_failures: MaxFailuresOpt = MAX_FAILURES,
    max_failed: MaxFailedOpt = None,
    summary: Annotated[Path | None, typer.Option("--summary", help="Also write the manifest here.")] = None,
    progress: Annotated[bool, typer.Option("--progress/--no-progress", help="Show progress.")] = True,
    verbose: Annotated[bool, typer.Option("--verbose")] = False,
    *,
    choices: Choices,
) -> None:
    """De-identify a FHIR R4 export: rules table for structured elements, the pipeline for notes."""
    quiet_logging(verbose)
    with handled_errors():
        limit = failure_limit(max_failures, max_failed)
        key = read_patient_key(patient_key_file)
        chosen = choices.configured()
        cfg = chosen.pipeline()
        seed = cfg.seed
        seed_note(cfg)
        options = FhirOptions(rules=rules, patient_key=key, seed=seed, as_of=parse_as_of(as_of), text=text)
        deidentifier = FhirDeidentifier(options, cfg)
        recorded = run_configuration(chosen, patient_key_file)
        with progress_bar("deid-fhir", progress) as bar:
            task = bar.add_task("deid-fhir", total=None, failed=0)
            result = deidentifier.run(
                input, output, lambda done: bar.update(task, completed=done), configuration=recorded
            )
    _print(result.manifest, output)
    if summary is not None:
        write_json(summary, result.manifest)
    check_failures(limit, result.resources, result.failed, "they are listed in the manifest and not written")


def register(app: typer.Typer) -> None:
    """Add ``deid-fhir`` to the main app."""
    app.command("deid-fhir")(deid_fhir)
