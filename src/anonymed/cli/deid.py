"""``anonymed deid``, ``anonymed detect`` and ``anonymed demo``: the detect-and-replace path."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from anonymed.cli.common import console, handled_errors, out, print_substitution, quiet_logging
from anonymed.cli.options import DETECTION, PIPELINE, Choices, configured
from anonymed.cli.scale import (
    MAX_FAILURES,
    SHARD_SIZE,
    EncodingOpt,
    MaxFailuresOpt,
    PrivateOpt,
    SchedulerOpt,
    ShardSizeOpt,
    WorkdirOpt,
    WorkersOpt,
    batch_options,
    finish_run,
    open_output,
    reader_spec,
    run_command,
)
from anonymed.config import SITE_TABLES, PipelineConfig
from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.io.base import TeeWriter
from anonymed.io.memory import DEFAULT_MIN_SCORE, PatientMemoryWriter
from anonymed.io.privacy_report import with_privacy_report
from anonymed.io.registry import open_reader, open_writer
from anonymed.methods import ReplaceConfig
from anonymed.methods.configure import Configured
from anonymed.pipeline import substitution_report
from anonymed.runner.batch import BatchSummary
from anonymed.substitute.registry import operator_class

#: what ``anonymed detect`` reports of its configuration (substitution plays no part in it)
DETECTION_TABLES = ("pipeline", "detector_params", *SITE_TABLES)
SAMPLE = Path(__file__).resolve().parents[1] / "resources" / "sample" / "notes.jsonl"

InputArg = Annotated[Path, typer.Argument(help="Input file or folder (format from the extension).")]
FormatOpt = Annotated[
    str | None,
    typer.Option("--input-format", help="txt | jsonl | csv | physionet-deid | eds-pseudo | presidio"),
]
StrictOpt = Annotated[bool, typer.Option("--strict", help="Stop at the first failed record.")]
TextFieldOpt = Annotated[
    str | None, typer.Option("--text-field", help="Text field / column (jsonl, csv).", show_default="text")
]
IdFieldOpt = Annotated[
    str | None, typer.Option("--id-field", help="Id field / column (jsonl, csv).", show_default="id")
]
ProgressOpt = Annotated[bool, typer.Option("--progress/--no-progress", help="Show a progress bar.")]
SummaryOpt = Annotated[
    Path | None,
    typer.Option("--summary", help="Write the run summary, with the effective configuration, as JSON here."),
]
VerboseOpt = Annotated[
    bool, typer.Option("--verbose", help="Log each failed record's id and reason, and what loads (stderr).")
]
OutputOpt = Annotated[
    str, typer.Option("-o", "--output", help="Output file or folder (a trailing slash: a folder).")
]
PatientFieldOpt = Annotated[
    str | None,
    typer.Option(
        "--patient-field",
        help="Field / column naming the patient (jsonl, csv, parquet; default patient_id).",
    ),
]


def read_patient_key(path: Path | None) -> bytes | None:
    """The secret HMAC key for patient-consistent surrogates, from a file (or $ANONYMED_PATIENT_KEY_FILE)."""
    path = path or (
        Path(os.environ["ANONYMED_PATIENT_KEY_FILE"]) if "ANONYMED_PATIENT_KEY_FILE" in os.environ else None
    )
    if path is None:
        return None
    try:
        key = path.read_bytes().strip()
    except OSError as exc:
        raise ConfigError(f"cannot read patient key file {str(path)!r}: {exc.strerror}") from None
    if len(key) < 16:
        raise ConfigError(f"patient key in {str(path)!r} is too short: need at least 16 bytes")
    return key


def uses_dp(config: PipelineConfig) -> bool:
    """Whether the configuration's operators draw differentially private noise (which no seed fixes)."""
    return any(
        operator_class(name).differentially_private for name in set(config.substitution.operators.values())
    )


def seed_note(config: PipelineConfig) -> None:
    """Say that the seed does not fix DP noise when a seeded run uses DP operators."""
    if config.seed is not None and uses_dp(config):
        console.print(
            "[yellow]note:[/yellow] the seed fixes every random choice but the differentially private "
            "noise (dp_* operators), which OpenDP draws securely: those values differ from run to run."
        )


@configured(PIPELINE)
def deid(
    input: InputArg,
    output: OutputOpt,
    input_format: FormatOpt = None,
    output_format: Annotated[
        str | None, typer.Option("--output-format", help="Defaults to the input format.")
    ] = None,
    patient_key_file: Annotated[
        Path | None,
        typer.Option("--patient-key-file", help="Secret key: same surrogates across a patient's notes."),
    ] = None,
    text_field: TextFieldOpt = None,
    id_field: IdFieldOpt = None,
    encoding: EncodingOpt = None,
    strict: StrictOpt = False,
    progress: ProgressOpt = True,
    summary: SummaryOpt = None,
    verbose: VerboseOpt = False,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    shard_size: ShardSizeOpt = SHARD_SIZE,
    workdir: WorkdirOpt = None,
    privacy_report: Annotated[
        Path | None, typer.Option("--privacy-report", help="Write each document's privacy report (JSONL).")
    ] = None,
    patient_field: PatientFieldOpt = None,
    max_failures: MaxFailuresOpt = MAX_FAILURES,
    private: PrivateOpt = True,
    *,
    choices: Choices,
) -> None:
    """Detect PHI and replace it with surrogates; one output record per input record, in order."""
    quiet_logging(verbose)
    with handled_errors():
        chosen = choices.configured()
        cfg = chosen.pipeline(patient_key=read_patient_key(patient_key_file))
        spec = reader_spec(
            input, input_format, text_field, id_field, cfg.lang, patient_field, encoding=encoding
        )
        writer = with_privacy_report(open_output(output, output_format, like=spec.open()), privacy_report)
        options = batch_options(workers, scheduler, shard_size, workdir, strict, max_failures)
        method, seeded = ReplaceConfig(cfg), cfg.seed is not None
        run = run_command(
            spec, writer, method, options, command="deid", output=output, progress=progress, seeded=seeded
        )
        report = substitution_report(cfg, run.counters)
    print_substitution(report, report.get("checklist"))
    seed_note(cfg)
    warn_patient_ids(cfg.patient_key is not None, run, patient_field or "patient_id")
    finish_run(
        summary,
        run,
        {
            "seeded": seeded,
            "dp_noise_seeded": False if seeded and uses_dp(cfg) else None,
            "configuration": run_configuration(chosen, patient_key_file),
            "substitution": report,
        },
    )


def warn_patient_ids(keyed: bool, run: BatchSummary, field: str) -> None:
    """With a patient key, say how many documents named no patient (their surrogates are per document)."""
    documents = run.read - run.failed
    if not keyed or documents <= 0 or run.with_patient >= documents:
        return
    if run.with_patient == 0:
        console.print(
            f"[yellow]warning:[/yellow] a patient key was given but no record has a patient id in field "
            f"{field!r}: surrogates are not consistent across a patient's notes (name the field with "
            "--patient-field)"
        )
    else:
        console.print(
            f"[yellow]warning:[/yellow] {documents - run.with_patient} of {documents} records have no "
            f"patient id in field {field!r}: their surrogates are consistent within each note only"
        )


def run_configuration(chosen: Configured, patient_key_file: Path | None = None) -> dict[str, Any]:
    """The effective configuration for a run summary or manifest: secrets only as where they came from
    (the seed as its source, ``Effective.to_json``; a patient key as the file it was read from)."""
    data = chosen.effective.to_json()
    env = os.environ.get("ANONYMED_PATIENT_KEY_FILE")
    if patient_key_file is not None or env:
        where = "option" if patient_key_file is not None else "environment"
        key = {"file": str(patient_key_file or env), "source": where}
        data["secrets"] = {"patient_key": key, **data.get("secrets", {})}
    return data


@configured(DETECTION)
def detect(
    input: InputArg,
    output: Annotated[Path, typer.Option("-o", "--output", help="spans.jsonl to write.")],
    input_format: FormatOpt = None,
    text_field: TextFieldOpt = None,
    id_field: IdFieldOpt = None,
    encoding: EncodingOpt = None,
    strict: StrictOpt = False,
    progress: ProgressOpt = True,
    summary: SummaryOpt = None,
    verbose: VerboseOpt = False,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    shard_size: ShardSizeOpt = SHARD_SIZE,
    workdir: WorkdirOpt = None,
    max_failures: MaxFailuresOpt = MAX_FAILURES,
    private: PrivateOpt = True,
    patient_field: PatientFieldOpt = None,
    memory: Annotated[
        Path | None,
        typer.Option(
            "--memory",
            help="Also write each patient's confidently found names here: a side file for "
            "deid --known-side-file (docs/site-configuration.md, patient memory).",
        ),
    ] = None,
    memory_min_score: Annotated[
        float, typer.Option("--memory-min-score", help="The score a name needs to be remembered.")
    ] = DEFAULT_MIN_SCORE,
    *,
    choices: Choices,
) -> None:
    """Find PHI and write one JSON object per document: {"id", "spans": [{start, end, label, text}]}."""
    quiet_logging(verbose)
    with handled_errors():
        chosen = choices.configured()
        cfg = chosen.pipeline(stages=("detect",))
        spec = reader_spec(
            input, input_format, text_field, id_field, cfg.lang, patient_field, encoding=encoding
        )
        method = ReplaceConfig(cfg)
        options = batch_options(workers, scheduler, shard_size, workdir, strict, max_failures)
        writer = open_writer(output, "spans")
        if memory is not None:
            if not 0.0 <= memory_min_score <= 1.0:
                raise ConfigError(f"--memory-min-score must be between 0 and 1, got {memory_min_score}")
            writer = TeeWriter(writer, PatientMemoryWriter(memory, min_score=memory_min_score))
        run = run_command(spec, writer, method, options, command="detect", output=output, progress=progress)
    if memory is not None and run.with_patient == 0 and run.read > run.failed:
        field = patient_field or "patient_id"
        console.print(
            f"[yellow]warning:[/yellow] no record has a patient id in field {field!r}: "
            "the patient memory is empty (name the field with --patient-field)"
        )
    detection = chosen.effective.only(DETECTION_TABLES)
    finish_run(summary, run, {"configuration": detection.to_json()})


@configured(tuple(option for option in PIPELINE if option.name != "lang"))  # each sample note has its own
def demo(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
    *,
    choices: Choices,
) -> None:
    """Anonymize the bundled sample notes with a profile (the default one) and print each before and after."""
    with handled_errors():
        chosen = choices.configured()
        configs = {lang: chosen.pipeline(lang=lang) for lang in ("en", "fr")}
        methods = {lang: ReplaceConfig(config).build() for lang, config in configs.items()}
        notes = [rec for rec in open_reader(SAMPLE, "jsonl") if isinstance(rec, Document)]
        results = [methods[note.lang](note) for note in notes]
    if as_json:
        for doc in results:
            out.print_json(
                json.dumps({"id": doc.id, "output": doc.result, "spans": [s.to_json() for s in doc.spans]})
            )
        return
    for doc in results:
        table = Table(title=f"{doc.id} ({doc.lang}, {len(doc.spans)} spans)", show_lines=True, expand=True)
        table.add_column("before")
        table.add_column("after")
        table.add_row(escape(doc.text), escape(doc.result))
        out.print(table)
    profile = configs["en"].substitution.profile
    about = f"profile: {profile.name} ({profile.description}); other profiles: --profile NAME"
    console.print(escape(f"{about}, docs/profiles.md"))
    console.print(escape(f"sample: {SAMPLE}"))


def register(app: typer.Typer) -> None:
    """Add the commands of this module to the main app."""
    app.command("deid")(deid)
    app.command("detect")(detect)
    app.command("demo")(demo)
