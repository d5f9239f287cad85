"""``anonymed obfuscate words``: replace every token of every note with a random near neighbour (KNEO)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from anonymed.cli import sentences as sentence_commands
from anonymed.cli.common import console, handled_errors, quiet_logging
from anonymed.cli.options import WORDS, Choices, configured
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
from anonymed.cli.sentences import IdFieldOpt, TextFieldOpt, VerboseOpt
from anonymed.methods import build_method

app = typer.Typer(help="Obfuscate whole notes: word (or sentence) substitution.", no_args_is_help=True)


@app.callback()
def obfuscate() -> None:
    """Obfuscate whole notes so that no original token survives."""


app.command("sentences")(sentence_commands.sentences)
app.command("hybrid")(sentence_commands.hybrid)


@app.command("words")
@configured(WORDS, stage="words")
def words(
    input: Annotated[Path, typer.Argument(help="Input file or folder (format from the extension).")],
    output: Annotated[
        str, typer.Option("-o", "--output", help="Output file or folder (a trailing slash: a folder).")
    ],
    paper_preprocessing: Annotated[
        bool, typer.Option("--paper-preprocessing", help="Papers' output: lower case, words only.")
    ] = False,
    input_format: Annotated[
        str | None, typer.Option("--input-format", help="txt | jsonl | csv | ...")
    ] = None,
    output_format: Annotated[
        str | None, typer.Option("--output-format", help="Defaults to the input's.")
    ] = None,
    lang: Annotated[
        str, typer.Option("--lang", help="Language of the notes (carried to the output).")
    ] = "en",
    text_field: TextFieldOpt = None,
    id_field: IdFieldOpt = None,
    encoding: EncodingOpt = None,
    strict: Annotated[bool, typer.Option("--strict", help="Stop at the first failed record.")] = False,
    progress: Annotated[bool, typer.Option("--progress/--no-progress", help="Show a progress bar.")] = True,
    summary: Annotated[Path | None, typer.Option("--summary", help="Write the run summary as JSON.")] = None,
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
    """Replace every word with a random one of its N nearest neighbours; numbers with random digits.

    A configuration file gives [pipeline] seed and a [words] table (n, space)."""
    quiet_logging(verbose)
    with handled_errors():
        chosen = choices.configured()
        method = chosen.words(paper_preprocessing=paper_preprocessing)
        seed = method.seed
        build_method(method)  # a bad space or N fails here, before any worker starts
        spec = reader_spec(input, input_format, text_field, id_field, lang, encoding=encoding)
        writer = open_output(output, output_format, like=spec.open())
        options = batch_options(workers, scheduler, shard_size, workdir, strict, max_failures)
        result = run_command(
            spec,
            writer,
            method,
            options,
            command="obfuscate words",
            output=output,
            progress=progress,
            seeded=seed is not None,
        )
    counts = result.counters
    rate = counts["tokens"] / result.seconds if result.seconds > 0 else 0.0
    console.print(
        f"{counts['tokens']} tokens replaced ({counts['unseen']} unseen words, {counts['numbers']} numbers), "
        f"{rate:,.0f} tokens/s"
    )
    tokens = {"tokens": counts["tokens"], "unseen": counts["unseen"], "numbers": counts["numbers"]}
    configuration = chosen.effective.only(("pipeline.seed", "words")).to_json()
    finish_run(
        summary, result, {**tokens, "n": method.n, "seeded": seed is not None, "configuration": configuration}
    )
