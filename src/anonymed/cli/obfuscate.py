"""``anonymed obfuscate words``: replace every token of every note with a random near neighbour (KNEO)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from anonymed.cli import sentences as sentence_commands
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
from anonymed.methods import WordsConfig, build_method

app = typer.Typer(help="Obfuscate whole notes: word (or sentence) substitution.", no_args_is_help=True)


@app.callback()
def obfuscate() -> None:
    """Obfuscate whole notes so that no original token survives."""


app.command("sentences")(sentence_commands.sentences)
app.command("hybrid")(sentence_commands.hybrid)


@app.command("words")
def words(
    input: Annotated[Path, typer.Argument(help="Input file or folder (format from the extension).")],
    output: Annotated[
        str, typer.Option("-o", "--output", help="Output file or folder (a trailing slash: a folder).")
    ],
    space: Annotated[
        Path | None, typer.Option("--space", help="Space folder (default: the shipped MTSamples space).")
    ] = None,
    n: Annotated[
        str, typer.Option("--n", help="Degree of obfuscation: 5, or 3-14 for a random N per token.")
    ] = "5",
    seed: Annotated[
        int | None, typer.Option("--seed", help="Reproducible (by anyone with the seed).")
    ] = None,
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
    text_field: Annotated[str | None, typer.Option("--text-field", help="Text field / column.")] = None,
    id_field: Annotated[str | None, typer.Option("--id-field", help="Id field / column.")] = None,
    strict: Annotated[bool, typer.Option("--strict", help="Stop at the first failed record.")] = False,
    progress: Annotated[bool, typer.Option("--progress/--no-progress", help="Show a progress bar.")] = True,
    summary: Annotated[Path | None, typer.Option("--summary", help="Write the run summary as JSON.")] = None,
    verbose: Annotated[bool, typer.Option("--verbose")] = False,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    shard_size: ShardSizeOpt = SHARD_SIZE,
    workdir: WorkdirOpt = None,
    max_failures: MaxFailuresOpt = MAX_FAILURES,
    private: PrivateOpt = True,
) -> None:
    """Replace every word with a random one of its N nearest neighbours; numbers with random digits."""
    quiet_logging(verbose)
    with handled_errors():
        method = WordsConfig(space, n, seed, paper_preprocessing)
        build_method(method)  # a bad space or N fails here, before any worker starts
        spec = reader_spec(input, input_format, text_field, id_field, lang)
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
    finish_run(summary, result, {**tokens, "n": method.n, "seeded": seed is not None})
