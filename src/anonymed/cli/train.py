"""``anonymed train recognizer``: rebuild the PHI tagger model of a language from the repository's data
(and reviewed notes given with ``--extra``)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from anonymed.cli.common import console, handled_errors
from anonymed.detect.tagger.model import TrainingParams
from anonymed.train.fingerprint import write_fingerprint
from anonymed.train.recipe import RecognizerRecipe, document_count, real_documents, train_recognizer

app = typer.Typer(help="Train anonymed's models.", no_args_is_help=True, add_completion=False)

LangOpt = Annotated[str, typer.Option("--lang", help="Language of the model: en or fr.")]
OutOpt = Annotated[
    Path | None, typer.Option("--out", help="Model folder to write (default: ./models/tagger-<lang>).")
]
DataOpt = Annotated[
    Path | None,
    typer.Option(
        "--data", help="Training data folder (default: the copy shipped in anonymed/resources/training)."
    ),
]
CopiesOpt = Annotated[
    int, typer.Option("--synthetic-copies", help="Surrogate-filled copies of each annotated note.")
]
WikiOpt = Annotated[
    int, typer.Option("--wikiann-sentences", help="WikiANN sentences added to the training set.")
]
IterOpt = Annotated[int, typer.Option("--iterations", help="L-BFGS iterations of the CRF.")]
SeedOpt = Annotated[
    int, typer.Option("--seed", help="Seed of the synthetic notes (the shipped model uses 0).")
]
ProgressOpt = Annotated[bool, typer.Option("--progress/--no-progress", help="Show a progress bar.")]
FamilyOpt = Annotated[
    str,
    typer.Option(
        "--family", help="crf (shipped), cnn (needs torch) or ensemble of both; see docs/detection.md."
    ),
]
ExtraOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--extra",
        help="Annotated notes added to the training data (JSONL {id,text,lang,spans}, as `anonymed review "
        "export` writes annotations.jsonl); repeatable; notes of other languages are skipped.",
    ),
]
CnnWeightOpt = Annotated[float, typer.Option("--cnn-weight", help="The CNN's weight in an ensemble.")]


@app.callback()
def train() -> None:
    """Train anonymed's models from the data shipped in the repository."""


@app.command("recognizer")
def recognizer(
    lang: LangOpt = "en",
    out: OutOpt = None,
    data: DataOpt = None,
    extra: ExtraOpt = None,
    synthetic_copies: CopiesOpt = RecognizerRecipe.synthetic_copies,
    wikiann_sentences: WikiOpt = RecognizerRecipe.wikiann_sentences,
    iterations: IterOpt = TrainingParams.max_iterations,
    seed: SeedOpt = RecognizerRecipe.seed,
    family: FamilyOpt = "crf",
    cnn_weight: CnnWeightOpt = 0.3,
    progress: ProgressOpt = True,
) -> None:
    """Train the PHI tagger; with the defaults this reproduces the CRF shipped with anonymed."""
    with handled_errors():
        recipe = RecognizerRecipe(
            lang,
            data=data,
            synthetic_copies=synthetic_copies,
            wikiann_sentences=wikiann_sentences,
            seed=seed,
            training=TrainingParams(max_iterations=iterations),
            extra=tuple(extra or ()),
        )
        target = out if out is not None else Path("models") / f"tagger-{lang}"
        started = time.perf_counter()
        bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            disable=not progress,
        )
        with bar:
            features = bar.add_task("features", total=document_count(recipe))
            fitting = bar.add_task("L-BFGS iterations", total=iterations)
            train_recognizer(
                recipe,
                target,
                family=family,
                cnn_weight=cnn_weight,
                on_document=lambda: bar.advance(features),
                on_iteration=lambda n: bar.update(fitting, completed=min(n, iterations)),
            )
            bar.update(fitting, completed=iterations)
        size = sum(p.stat().st_size for p in target.iterdir() if p.is_file())
        console.print(
            f"model written to {target} ({size / 1e6:.1f} MB) in {time.perf_counter() - started:.0f} s; "
            f'use it with detector option model="{target}" or copy it over '
            f"anonymed/resources/models/tagger-{lang} to ship it"
        )


@app.command("fingerprint")
def fingerprint(lang: LangOpt = "en", out: OutOpt = None, data: DataOpt = None) -> None:
    """Write the digests of the recipe's training notes into a model folder, without retraining.

    ``anonymed evaluate detection`` warns when gold notes are among them; to refresh a shipped model's:
    ``anonymed train fingerprint --lang en --out src/anonymed/resources/models/tagger-en``.
    """
    with handled_errors():
        target = out if out is not None else Path("models") / f"tagger-{lang}"
        notes = real_documents(RecognizerRecipe(lang, data=data))
        path = write_fingerprint(target, notes)
    console.print(f"fingerprint of {len(notes)} training notes written to {path}")
