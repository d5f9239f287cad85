"""``anonymed obfuscate sentences`` and ``anonymed obfuscate hybrid``: sentence substitution, and
detect-and-replace followed by word or sentence substitution (registered on the ``obfuscate`` sub-app)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from anonymed.cli.common import console, handled_errors, quiet_logging
from anonymed.cli.deid import seed_note
from anonymed.cli.options import HYBRID, PIPELINE, SENTENCES, Choices, configured
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
from anonymed.methods import build_method
from anonymed.runner.batch import BatchSummary

InputArg = Annotated[Path, typer.Argument(help="Input file or folder (format from the extension).")]
OutputOpt = Annotated[
    str, typer.Option("-o", "--output", help="Output file or folder (a trailing slash: a folder).")
]
InFormatOpt = Annotated[str | None, typer.Option("--input-format", help="txt | jsonl | csv | ...")]
OutFormatOpt = Annotated[str | None, typer.Option("--output-format", help="Defaults to the input's.")]
LangOpt = Annotated[str, typer.Option("--lang", help="Language of the notes.")]
TextFieldOpt = Annotated[
    str | None, typer.Option("--text-field", help="Text field / column (jsonl, csv).", show_default="text")
]
IdFieldOpt = Annotated[
    str | None, typer.Option("--id-field", help="Id field / column (jsonl, csv).", show_default="id")
]
StrictOpt = Annotated[bool, typer.Option("--strict", help="Stop at the first failed record.")]
ProgressOpt = Annotated[bool, typer.Option("--progress/--no-progress", help="Show progress bars.")]
SummaryOpt = Annotated[Path | None, typer.Option("--summary", help="Write the run summary as JSON.")]
VerboseOpt = Annotated[
    bool, typer.Option("--verbose", help="Log each failed record's id and reason, and what loads (stderr).")
]


@configured(SENTENCES, stage="sentences")
def sentences(
    input: InputArg,
    output: OutputOpt,
    input_format: InFormatOpt = None,
    output_format: OutFormatOpt = None,
    lang: LangOpt = "en",
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
    *,
    choices: Choices,
) -> None:
    """Replace every sentence with a random one of its k nearest bank sentences (never an identical one).

    A configuration file gives [pipeline] seed and a [sentences] table (k, bank)."""
    quiet_logging(verbose)
    with handled_errors():
        chosen = choices.configured()
        method = chosen.sentences()
        seed = method.seed
        build_method(method)  # a bad bank or k fails here, before any worker starts
        options = batch_options(workers, scheduler, shard_size, workdir, strict, max_failures)
        spec = reader_spec(input, input_format, text_field, id_field, lang, encoding=encoding)
        writer = open_output(output, output_format, like=spec.open())
        result = run_command(
            spec,
            writer,
            method,
            options,
            command="obfuscate sentences",
            output=output,
            progress=progress,
            seeded=seed is not None,
        )
    configuration = chosen.effective.only(("pipeline.seed", "sentences")).to_json()
    _present(result, summary, {"k": method.k, "seeded": seed is not None, "configuration": configuration})


@configured(PIPELINE, HYBRID)
def hybrid(
    input: InputArg,
    output: OutputOpt,
    input_format: InFormatOpt = None,
    output_format: OutFormatOpt = None,
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
    *,
    choices: Choices,
) -> None:
    """Detect and replace PHI, then replace every sentence (or word) of the result: maximum security.

    Takes every option of ``anonymed deid`` that chooses the pipeline, plus the second stage's; a
    configuration file adds a [hybrid] table (then, k, n, bank, space) to the pipeline's tables.
    """
    quiet_logging(verbose)
    with handled_errors():
        chosen = choices.configured()
        method = chosen.hybrid()
        build_method(method)  # a bad configuration, bank or space fails here, before any worker starts
        options = batch_options(workers, scheduler, shard_size, workdir, strict, max_failures)
        spec = reader_spec(input, input_format, text_field, id_field, method.pipeline.lang, encoding=encoding)
        writer = open_output(output, output_format, like=spec.open())
        seeded = method.seed is not None
        result = run_command(
            spec,
            writer,
            method,
            options,
            command="obfuscate hybrid",
            output=output,
            progress=progress,
            seeded=seeded,
        )
    seed_note(method.pipeline)
    configuration = chosen.effective.to_json()
    _present(result, summary, {"then": method.then, "seeded": seeded, "configuration": configuration})


def _present(result: BatchSummary, summary: Path | None, extra: dict[str, object]) -> None:
    counts = dict(result.counters)
    if "sentences" in counts:
        rate = counts["sentences"] / result.seconds if result.seconds > 0 else 0.0
        console.print(f"{counts['sentences']} sentences replaced, {rate:,.0f} sentences/s")
    finish_run(summary, result, {**counts, **extra})
