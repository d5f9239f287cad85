"""``anonymed embed``: train embedding spaces (with their hygienic neighbour tables) for word substitution."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from anonymed.cli.common import console, failed_record, handled_errors, quiet_logging, stage_progress
from anonymed.embeddings.training import PAPER_PARAMS, TrainParams, train_space, with_overrides
from anonymed.embeddings.vocab import Hygiene
from anonymed.io.base import ReadFailure
from anonymed.io.corpus import documents, open_corpus

app = typer.Typer(help="Train embedding spaces for word substitution.", no_args_is_help=True)


@app.callback()
def embed() -> None:
    """Train embedding spaces (Word2Vec or fastText) with hygienic neighbour tables for word substitution."""


@app.command("train")
def train(
    corpus: Annotated[
        Path, typer.Argument(help="De-identified corpus: any input format, may be .xz/.gz/.bz2.")
    ],
    output: Annotated[Path, typer.Option("-o", "--output", help="Space folder to write.")],
    input_format: Annotated[
        str | None, typer.Option("--input-format", help="txt | jsonl | csv | ...")
    ] = None,
    text_field: Annotated[str | None, typer.Option("--text-field", help="Text field / column.")] = None,
    id_field: Annotated[str | None, typer.Option("--id-field", help="Id field / column.")] = None,
    paper: Annotated[
        bool, typer.Option("--paper", help="Papers' settings: Word2Vec 256d, window 15, 100 epochs.")
    ] = False,
    algorithm: Annotated[
        str | None, typer.Option("--algorithm", help="fasttext (default) | word2vec")
    ] = None,
    sg: Annotated[
        bool | None, typer.Option("--skip-gram/--cbow", help="Skip-gram or CBOW (default).")
    ] = None,
    vector_size: Annotated[int | None, typer.Option("--vector-size")] = None,
    window: Annotated[int | None, typer.Option("--window")] = None,
    epochs: Annotated[int | None, typer.Option("--epochs")] = None,
    min_count: Annotated[int | None, typer.Option("--min-count", help="gensim: ignore rarer words.")] = None,
    bucket: Annotated[int | None, typer.Option("--bucket", help="fastText n-gram buckets.")] = None,
    workers: Annotated[int | None, typer.Option("--workers")] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="gensim's seed (training).")] = None,
    n_max: Annotated[int | None, typer.Option("--n-max", help="Neighbours stored per word.")] = None,
    dtype: Annotated[str | None, typer.Option("--dtype", help="float32 | float16 (half the size).")] = None,
    keep_duplicates: Annotated[
        bool, typer.Option("--keep-duplicates", help="Do not skip identical notes.")
    ] = False,
    hygiene_count: Annotated[
        int, typer.Option("--hygiene-min-count", help="Candidates: seen >= k times.")
    ] = 5,
    hygiene_docs: Annotated[int, typer.Option("--hygiene-min-docs", help="... in >= m documents.")] = 3,
    hygiene_by: Annotated[str, typer.Option("--hygiene-by", help="document | patient")] = "document",
    progress: Annotated[bool, typer.Option("--progress/--no-progress")] = True,
) -> None:
    """Train Word2Vec or fastText on CORPUS and save a space with its neighbour table."""
    quiet_logging(False)
    options = {k: v for k, v in {"text_field": text_field, "id_field": id_field}.items() if v}
    failures: list[ReadFailure] = []
    started = time.perf_counter()
    with handled_errors():
        params = with_overrides(
            PAPER_PARAMS if paper else TrainParams(),
            algorithm=algorithm,
            sg=sg,
            vector_size=vector_size,
            window=window,
            epochs=epochs,
            min_count=min_count,
            bucket=bucket,
            workers=workers,
            seed=seed,
            n_max=n_max,
            dtype=dtype,
            dedupe=False if keep_duplicates else None,
        )
        hygiene = Hygiene(hygiene_count, hygiene_docs, hygiene_by)
        with open_corpus(corpus, input_format, **options) as reader, stage_progress(progress) as update:
            space = train_space(documents(reader, failures), params, hygiene, progress=update)
        space.save(output)
    stats = space.meta["corpus"]
    console.print(
        f"space {output}: {len(space.tokens)} words, {len(space.candidates)} replacement candidates, "
        f"{space.n_max} neighbours each; {stats['documents']} documents "
        f"({stats['duplicates_skipped']} duplicates "
        f"skipped, {len(failures)} failed), {stats['tokens']} tokens, {time.perf_counter() - started:.1f} s"
    )
    for failure in failures[:20]:
        console.print(f"[yellow]failed:[/yellow] {escape(failed_record(failure))}")
