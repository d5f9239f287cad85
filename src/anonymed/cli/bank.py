"""``anonymed bank build``: replacement banks for sentence substitution (split, scrub, encode, index)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from anonymed.cli.common import console, handled_errors, quiet_logging, stage_progress
from anonymed.config import PipelineConfig
from anonymed.errors import ConfigError
from anonymed.io.base import ReadFailure
from anonymed.io.corpus import MTSAMPLES, MTSAMPLES_OPTIONS, documents, open_corpus
from anonymed.sentences.bank_build import DEFAULT_BANK, BankParams, build_bank, build_default_bank
from anonymed.sentences.banks import Bank, IndexParams, load_bank
from anonymed.sentences.encoders import Doc2VecParams

app = typer.Typer(help="Build replacement banks for sentence substitution.", no_args_is_help=True)


@app.callback()
def bank() -> None:
    """Replacement banks: scrubbed, de-duplicated sentences with their vectors and a faiss index."""


@app.command("build")
def build(
    corpus: Annotated[
        Path | None,
        typer.Argument(help="De-identified corpus (any input format, may be .xz/.gz); default: MTSamples."),
    ] = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Bank folder to write.")] = None,
    default: Annotated[
        bool,
        typer.Option(
            "--default", help="Rebuild the shipped default bank (Doc2Vec on MTSamples, packed) into -o."
        ),
    ] = False,
    encoder: Annotated[
        str, typer.Option("--encoder", help="doc2vec | minilm | a local sentence-transformers folder.")
    ] = "doc2vec",
    index: Annotated[str, typer.Option("--index", help="auto | flat | ivf | hnsw")] = "auto",
    exact_max: Annotated[
        int, typer.Option("--exact-max", help="auto: exact search up to this size, HNSW above.")
    ] = 10_000,
    nprobe: Annotated[int, typer.Option("--nprobe", help="IVF lists searched per query.")] = 16,
    vector_size: Annotated[int, typer.Option("--vector-size", help="Doc2Vec dimensions.")] = 256,
    epochs: Annotated[int, typer.Option("--epochs", help="Doc2Vec training epochs.")] = 100,
    infer_epochs: Annotated[int, typer.Option("--infer-epochs", help="Doc2Vec inference epochs.")] = 20,
    workers: Annotated[
        int, typer.Option("--workers", help="Doc2Vec training threads (1: reproducible).")
    ] = 1,
    seed: Annotated[int, typer.Option("--seed", help="Seed of training and of the IVF clustering.")] = 0,
    scrub: Annotated[
        bool, typer.Option("--scrub/--no-scrub", help="Drop sentences in which PHI is detected.")
    ] = True,
    config: Annotated[
        Path | None, typer.Option("--config", help="TOML pipeline configuration for the scrubbing detectors.")
    ] = None,
    max_chars: Annotated[int, typer.Option("--max-chars", help="Drop longer sentences.")] = 400,
    input_format: Annotated[
        str | None, typer.Option("--input-format", help="txt | jsonl | csv | ...")
    ] = None,
    text_field: Annotated[str | None, typer.Option("--text-field", help="Text field / column.")] = None,
    id_field: Annotated[str | None, typer.Option("--id-field", help="Id field / column.")] = None,
    progress: Annotated[bool, typer.Option("--progress/--no-progress")] = True,
) -> None:
    """Split CORPUS into sentences, drop those with PHI, de-duplicate, encode and index them into BANK."""
    quiet_logging(False)
    started = time.perf_counter()
    failures: list[ReadFailure] = []
    with handled_errors():
        if output is None:
            raise ConfigError("give -o/--output BANK (also with --default)")
        if default:
            with stage_progress(progress) as update:
                path = build_default_bank(output, update)
            _report(load_bank(path), path, started, failures)
            return
        params = BankParams(
            encoder=encoder,
            doc2vec=Doc2VecParams(
                vector_size=vector_size, epochs=epochs, workers=workers, seed=seed, infer_epochs=infer_epochs
            ),
            index=IndexParams(kind=index, exact_max=exact_max, nprobe=nprobe),  # type: ignore[arg-type]
            scrub=scrub,
            max_chars=max_chars,
            seed=seed,
        )
        scrubbing = PipelineConfig.from_toml(config) if config is not None else None
        options = {k: v for k, v in {"text_field": text_field, "id_field": id_field}.items() if v}
        if corpus is None:
            corpus, input_format, options = MTSAMPLES, "csv", dict(MTSAMPLES_OPTIONS)
        with open_corpus(corpus, input_format, **options) as reader, stage_progress(progress) as update:
            built = build_bank(documents(reader, failures), params, config=scrubbing, progress=update)
        built.save(output)
    _report(built, output, started, failures)


def _report(built: Bank, path: Path, started: float, failures: list[ReadFailure]) -> None:
    counts = built.meta.get("counts", {})
    dropped = ", ".join(f"{k} {v}" for k, v in sorted(built.meta.get("dropped_labels", {}).items()))
    console.print(
        f"bank {path}: {len(built)} sentences ({built.kind} index, {built.encoder.dim} dimensions) from "
        f"{counts.get('notes', 0)} notes; {counts.get('sentences', 0)} sentences read, "
        f"{counts.get('duplicates', 0)} duplicates, {counts.get('dropped_phi', 0)} dropped for PHI "
        f"({dropped or 'none'}), {counts.get('dropped_length', 0)} too long; "
        f"{len(failures)} records failed; {time.perf_counter() - started:.1f} s"
    )
    if path.resolve() == DEFAULT_BANK:
        console.print(
            "this is the default bank: `anonymed obfuscate sentences` uses it when --bank is not given"
        )
