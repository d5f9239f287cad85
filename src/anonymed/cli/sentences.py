"""``anonymed obfuscate sentences`` and ``anonymed obfuscate hybrid``: sentence substitution, and
detect-and-replace followed by word or sentence substitution (registered on the ``obfuscate`` sub-app)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Annotated

import typer

from anonymed.cli.common import console, handled_errors, quiet_logging
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
from anonymed.methods import HybridConfig, SentencesConfig, build_method
from anonymed.runner.batch import BatchSummary

InputArg = Annotated[Path, typer.Argument(help="Input file or folder (format from the extension).")]
OutputOpt = Annotated[
    str, typer.Option("-o", "--output", help="Output file or folder (a trailing slash: a folder).")
]
BankOpt = Annotated[
    Path | None, typer.Option("--bank", help="Bank folder (default: the shipped MTSamples bank).")
]
KOpt = Annotated[int, typer.Option("--k", help="Draw each replacement from the k nearest sentences (>= 2).")]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Reproducible (by anyone with the seed).")]
InFormatOpt = Annotated[str | None, typer.Option("--input-format", help="txt | jsonl | csv | ...")]
OutFormatOpt = Annotated[str | None, typer.Option("--output-format", help="Defaults to the input's.")]
LangOpt = Annotated[str, typer.Option("--lang", help="Language of the notes.")]
TextFieldOpt = Annotated[str | None, typer.Option("--text-field", help="Text field / column.")]
IdFieldOpt = Annotated[str | None, typer.Option("--id-field", help="Id field / column.")]
StrictOpt = Annotated[bool, typer.Option("--strict", help="Stop at the first failed record.")]
ProgressOpt = Annotated[bool, typer.Option("--progress/--no-progress", help="Show progress bars.")]
SummaryOpt = Annotated[Path | None, typer.Option("--summary", help="Write the run summary as JSON.")]
VerboseOpt = Annotated[bool, typer.Option("--verbose")]


def sentences(
    input: InputArg,
    output: OutputOpt,
    bank: BankOpt = None,
    k: KOpt = 5,
    seed: SeedOpt = None,
    input_format: InFormatOpt = None,
    output_format: OutFormatOpt = None,
    lang: LangOpt = "en",
    text_field: TextFieldOpt = None,
    id_field: IdFieldOpt = None,
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
) -> None:
    """Replace every sentence with a random one of its k nearest bank sentences (never an identical one)."""
    quiet_logging(verbose)
    with handled_errors():
        method = SentencesConfig(bank, k, seed)
        build_method(method)  # a bad bank or k fails here, before any worker starts
        options = batch_options(workers, scheduler, shard_size, workdir, strict, max_failures)
        spec = reader_spec(input, input_format, text_field, id_field, lang)
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
    _present(result, summary, {"k": k, "seeded": seed is not None})


def hybrid(
    input: InputArg,
    output: OutputOpt,
    then: Annotated[str, typer.Option("--then", help="sentences | words: the second stage.")] = "sentences",
    config: Annotated[
        Path | None, typer.Option("--config", help="TOML: pipeline tables plus a [hybrid] table.")
    ] = None,
    bank: BankOpt = None,
    k: Annotated[int | None, typer.Option("--k", help="Sentences: the k nearest (default 5).")] = None,
    space: Annotated[Path | None, typer.Option("--space", help="Words: space folder.")] = None,
    n: Annotated[str | None, typer.Option("--n", help="Words: degree of obfuscation (5 or 3-14).")] = None,
    seed: SeedOpt = None,
    input_format: InFormatOpt = None,
    output_format: OutFormatOpt = None,
    lang: Annotated[str | None, typer.Option("--lang", help="Language of the notes (en, fr).")] = None,
    text_field: TextFieldOpt = None,
    id_field: IdFieldOpt = None,
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
) -> None:
    """Detect and replace PHI, then replace every sentence (or word) of the result: maximum security."""
    quiet_logging(verbose)
    with handled_errors():
        overrides = {"then": then, "bank": bank, "k": k, "space": space, "n": n}
        chosen = (
            HybridConfig.from_toml(config, **overrides)
            if config
            else HybridConfig.from_mapping({}, **overrides)
        )
        method = dataclasses.replace(chosen, pipeline=chosen.pipeline.replace(seed=seed, lang=lang))
        build_method(method)  # a bad configuration, bank or space fails here, before any worker starts
        options = batch_options(workers, scheduler, shard_size, workdir, strict, max_failures)
        spec = reader_spec(input, input_format, text_field, id_field, method.pipeline.lang)
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
    _present(result, summary, {"then": method.then, "seeded": seeded})


def _present(result: BatchSummary, summary: Path | None, extra: dict[str, object]) -> None:
    counts = dict(result.counters)
    if "sentences" in counts:
        rate = counts["sentences"] / result.seconds if result.seconds > 0 else 0.0
        console.print(f"{counts['sentences']} sentences replaced, {rate:,.0f} sentences/s")
    finish_run(summary, result, {**counts, **extra})
