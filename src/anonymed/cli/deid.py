"""``anonymed deid``, ``anonymed detect`` and ``anonymed demo``: the detect-and-replace path."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from anonymed.cli.common import console, handled_errors, out, print_substitution, quiet_logging
from anonymed.cli.scale import (
    MAX_FAILURES,
    SHARD_SIZE,
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
from anonymed.config import PipelineConfig
from anonymed.detect.lists import read_lists
from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.io.privacy_report import with_privacy_report
from anonymed.io.registry import open_reader, open_writer
from anonymed.labels import Label, label_key
from anonymed.methods import ReplaceConfig
from anonymed.pipeline import substitution_report
from anonymed.profiles import DEFAULT_PROFILE, profile_names
from anonymed.runner.batch import BatchSummary

SAMPLE = Path(__file__).resolve().parents[1] / "resources" / "sample" / "notes.jsonl"

InputArg = Annotated[Path, typer.Argument(help="Input file or folder (format from the extension).")]
FormatOpt = Annotated[
    str | None,
    typer.Option("--input-format", help="txt | jsonl | csv | physionet-deid | eds-pseudo | presidio"),
]
LangOpt = Annotated[str | None, typer.Option("--lang", help="Language of the notes: en (default) or fr.")]
ConfigOpt = Annotated[Path | None, typer.Option("--config", help="TOML configuration file.")]
StrictOpt = Annotated[bool, typer.Option("--strict", help="Stop at the first failed record.")]
TextFieldOpt = Annotated[str | None, typer.Option("--text-field", help="Text field / column (jsonl, csv).")]
IdFieldOpt = Annotated[str | None, typer.Option("--id-field", help="Id field / column (jsonl, csv).")]
DetectorsOpt = Annotated[str | None, typer.Option("--detectors", help="Comma-separated detector names.")]
ProgressOpt = Annotated[bool, typer.Option("--progress/--no-progress", help="Show a progress bar.")]
HighRecallOpt = Annotated[
    bool, typer.Option("--high-recall", help="Lower thresholds and more context rules in every detector.")
]
SummaryOpt = Annotated[Path | None, typer.Option("--summary", help="Write the run summary as JSON here.")]
AllowOpt = Annotated[
    list[Path] | None,
    typer.Option("--allow-list", help="Terms never flagged (CSV term,label,match,case or .txt); repeatable."),
]
DenyOpt = Annotated[
    list[Path] | None, typer.Option("--deny-list", help="Terms always flagged (CSV with labels); repeatable.")
]
KnownFieldOpt = Annotated[
    list[str] | None,
    typer.Option("--known-field", help="FIELD=KIND: a record field holding a known identifier; repeatable."),
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
ProfileOpt = Annotated[
    str | None,
    typer.Option(
        "--profile",
        help=f"Privacy profile: {', '.join(profile_names())} (default {DEFAULT_PROFILE}; docs/profiles.md).",
    ),
]


def parse_operators(values: list[str] | None) -> dict[Label, str]:
    """``["NAME=tag", "DATE=dp_date"]`` -> {Label.NAME: "tag", ...}."""
    chosen: dict[Label, str] = {}
    for value in values or []:
        label, sep, name = value.partition("=")
        if not sep:
            raise ConfigError(f"--operator expects LABEL=OPERATOR, got {value!r}")
        chosen[label_key(label, "--operator")] = name
    return chosen


def parse_weights(values: list[str] | None) -> dict[str, float] | None:
    """``["LOCATION=2"]`` -> {"LOCATION": 2.0}; None when no weight is given."""
    weights: dict[str, float] = {}
    for value in values or []:
        label, sep, number = value.partition("=")
        try:
            weights[label.upper()] = float(number)
        except ValueError:
            sep = ""
        if not sep:
            raise ConfigError(f"--epsilon-weight expects LABEL=NUMBER, got {value!r}")
    return weights or None


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


def parse_known_fields(values: list[str] | None) -> dict[str, str] | None:
    """``["patient_name=NAME/patient"]`` -> {"patient_name": "NAME/patient"}; None when none is given."""
    fields: dict[str, str] = {}
    for value in values or []:
        name, sep, kind = value.partition("=")
        if not sep or not name.strip() or not kind.strip():
            raise ConfigError(f"--known-field expects FIELD=KIND (patient_name=NAME/patient), got {value!r}")
        fields[name.strip()] = kind.strip()
    return fields or None


def _site_overrides(base: PipelineConfig, overrides: dict[str, Any]) -> None:
    """Lists and known fields given on the command line, added to the file's."""
    allow, deny = overrides.pop("allow_lists", None) or [], overrides.pop("deny_lists", None) or []
    if allow or deny:
        overrides["lists"] = base.lists + read_lists(allow, deny)
    fields = overrides.pop("known_fields", None)
    if fields:
        overrides["known"] = dataclasses.replace(base.known, fields={**base.known.fields, **fields})


def build_config(config: Path | None, **overrides: Any) -> PipelineConfig:
    """Built-in defaults < the profile (``profile=`` or the file's) < the TOML file < command-line options."""
    base = PipelineConfig.from_toml(config) if config is not None else PipelineConfig()
    _site_overrides(base, overrides)
    operators = overrides.pop("operators", None)
    if operators:
        overrides["operators"] = {**base.operators, **operators}
    detectors = overrides.pop("detectors", None)
    if detectors:
        overrides["detectors"] = tuple(d.strip() for d in detectors.split(",") if d.strip())
    return base.replace(**overrides)


def deid(
    input: InputArg,
    output: OutputOpt,
    input_format: FormatOpt = None,
    output_format: Annotated[
        str | None, typer.Option("--output-format", help="Defaults to the input format.")
    ] = None,
    lang: LangOpt = None,
    config: ConfigOpt = None,
    profile: ProfileOpt = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Make the run reproducible (by anyone with the seed).")
    ] = None,
    operator: Annotated[
        list[str] | None, typer.Option("--operator", help="LABEL=OPERATOR, repeatable.")
    ] = None,
    detectors: DetectorsOpt = None,
    patient_key_file: Annotated[
        Path | None,
        typer.Option("--patient-key-file", help="Secret key: same surrogates across a patient's notes."),
    ] = None,
    text_field: TextFieldOpt = None,
    id_field: IdFieldOpt = None,
    strict: StrictOpt = False,
    progress: ProgressOpt = True,
    summary: SummaryOpt = None,
    verbose: Annotated[bool, typer.Option("--verbose")] = False,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    shard_size: ShardSizeOpt = SHARD_SIZE,
    workdir: WorkdirOpt = None,
    epsilon: Annotated[
        float | None, typer.Option("--epsilon", help="Per-document privacy budget for the dp_* operators.")
    ] = None,
    epsilon_weight: Annotated[
        list[str] | None, typer.Option("--epsilon-weight", help="LABEL=WEIGHT budget share, repeatable.")
    ] = None,
    privacy_report: Annotated[
        Path | None, typer.Option("--privacy-report", help="Write each document's privacy report (JSONL).")
    ] = None,
    high_recall: HighRecallOpt = False,
    allow_list: AllowOpt = None,
    deny_list: DenyOpt = None,
    known_field: KnownFieldOpt = None,
    patient_field: PatientFieldOpt = None,
    max_failures: MaxFailuresOpt = MAX_FAILURES,
    private: PrivateOpt = True,
) -> None:
    """Detect PHI and replace it with surrogates; one output record per input record, in order."""
    quiet_logging(verbose)
    with handled_errors():
        cfg = build_config(
            config,
            lang=lang,
            profile=profile,
            seed=seed,
            operators=parse_operators(operator),
            detectors=detectors,
            patient_key=read_patient_key(patient_key_file),
            epsilon=epsilon,
            epsilon_weights=parse_weights(epsilon_weight),
            high_recall=high_recall or None,
            allow_lists=allow_list,
            deny_lists=deny_list,
            known_fields=parse_known_fields(known_field),
        )
        spec = reader_spec(input, input_format, text_field, id_field, cfg.lang, patient_field)
        writer = with_privacy_report(open_output(output, output_format, like=spec.open()), privacy_report)
        options = batch_options(workers, scheduler, shard_size, workdir, strict, max_failures)
        method, seeded = ReplaceConfig(cfg), cfg.seed is not None
        run = run_command(
            spec, writer, method, options, command="deid", output=output, progress=progress, seeded=seeded
        )
        report = substitution_report(cfg, run.counters)
    print_substitution(report, report.get("checklist"))
    warn_patient_ids(cfg.patient_key is not None, run, patient_field or "patient_id")
    finish_run(summary, run, {"seeded": seeded, "substitution": report})


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


def detect(
    input: InputArg,
    output: Annotated[Path, typer.Option("-o", "--output", help="spans.jsonl to write.")],
    input_format: FormatOpt = None,
    lang: LangOpt = None,
    config: ConfigOpt = None,
    detectors: DetectorsOpt = None,
    text_field: TextFieldOpt = None,
    id_field: IdFieldOpt = None,
    strict: StrictOpt = False,
    progress: ProgressOpt = True,
    summary: SummaryOpt = None,
    verbose: Annotated[bool, typer.Option("--verbose")] = False,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    shard_size: ShardSizeOpt = SHARD_SIZE,
    workdir: WorkdirOpt = None,
    high_recall: HighRecallOpt = False,
    allow_list: AllowOpt = None,
    deny_list: DenyOpt = None,
    known_field: KnownFieldOpt = None,
    max_failures: MaxFailuresOpt = MAX_FAILURES,
    private: PrivateOpt = True,
) -> None:
    """Find PHI and write one JSON object per document: {"id", "spans": [{start, end, label, text}]}."""
    quiet_logging(verbose)
    with handled_errors():
        cfg = build_config(
            config,
            lang=lang,
            detectors=detectors,
            high_recall=high_recall or None,
            allow_lists=allow_list,
            deny_lists=deny_list,
            known_fields=parse_known_fields(known_field),
        )
        spec = reader_spec(input, input_format, text_field, id_field, cfg.lang)
        method = ReplaceConfig(cfg.replace(stages=("detect",)))
        options = batch_options(workers, scheduler, shard_size, workdir, strict, max_failures)
        writer = open_writer(output, "spans")
        run = run_command(spec, writer, method, options, command="detect", output=output, progress=progress)
    finish_run(summary, run)


def demo(
    seed: Annotated[int | None, typer.Option("--seed", help="Reproducible surrogates.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
    profile: ProfileOpt = None,
) -> None:
    """Anonymize the bundled sample notes with a profile (the default one) and print each before and after."""
    name = profile or DEFAULT_PROFILE
    with handled_errors():
        configs = {lang: PipelineConfig(lang=lang, seed=seed, profile=name) for lang in ("en", "fr")}
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
        table.add_row(doc.text, doc.result)
        out.print(table)
    description = configs["en"].substitution.profile.description
    console.print(f"profile: {name} ({description}); other profiles: --profile NAME, docs/profiles.md")
    console.print(f"sample: {SAMPLE}")


def register(app: typer.Typer) -> None:
    """Add the commands of this module to the main app."""
    app.command("deid")(deid)
    app.command("detect")(detect)
    app.command("demo")(demo)
