"""``anonymed evaluate leaks``: which gold PHI items survive at their place, missed or written back."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from anonymed.cli.common import console, handled_errors, out, write_json
from anonymed.cli.evaluate import load_predictions
from anonymed.document import Document
from anonymed.errors import ConfigError, InputError, OutputError
from anonymed.evaluate.leaks import (
    UNKNOWN,
    Anonymized,
    LeakParams,
    LeakReport,
    evaluate_leaks,
    from_run,
)


def _documents(path: Path, fmt: str | None) -> list[Document]:
    from anonymed.io.registry import open_reader

    return [r for r in open_reader(path, fmt) if isinstance(r, Document)]


def _from_file(gold: list[Document], path: Path, fmt: str | None, spans: Path | None) -> list[Anonymized]:
    """Gold notes paired by id with their anonymized text (and detected spans, if given)."""
    texts: dict[str, str] = {}
    for doc in _documents(path, fmt):
        texts.setdefault(doc.id, doc.text)
    detected = dict(load_predictions(spans)[0]) if spans is not None else {}
    missing = [d.id for d in gold if d.id not in texts or (spans is not None and d.id not in detected)]
    if missing:
        raise InputError(missing[0], f"no anonymized record (or spans) for {len(missing)} document(s)")
    return [Anonymized(d, texts[d.id], detected.get(d.id) if spans is not None else None) for d in gold]


def _from_profile(gold: list[Document], profile: str, seed: int | None) -> list[Anonymized]:
    """The gold notes anonymized now with ``profile`` (a fresh patient key: consistent per patient)."""
    from anonymed.config import PipelineConfig
    from anonymed.pipeline import Pipeline

    pipelines: dict[str, Pipeline] = {}
    key = secrets.token_bytes(32)
    found = []
    for doc in gold:
        if doc.lang not in pipelines:
            config = PipelineConfig(lang=doc.lang, profile=profile, seed=seed, patient_key=key)
            pipelines[doc.lang] = Pipeline(config)
        found.append(from_run(doc, pipelines[doc.lang].run(doc.evolve(spans=()))))
    return found


def leak_table(reports: dict[str, LeakReport]) -> Table:
    """One row per category; per run the leak rate and its causes: missed by detection / written back."""
    table = Table(
        title="leaks: gold PHI items still readable at their place",
        caption="per run: leaked share (missed by detection / detected but written back)",
    )
    table.add_column("category")
    table.add_column("items", justify="right")
    for name in reports:
        table.add_column(name, justify="right")
    keys: list[str] = []
    for report in reports.values():
        keys += [k for k in report.categories() if k not in keys]
    for key in keys:
        found = [report.category(key) for report in reports.values()]
        items = next((str(c.items) for c in found if c is not None), "")
        table.add_row(key, items, *("-" if c is None else c.cell() for c in found))
    return table


def leaks(
    gold: Annotated[Path, typer.Argument(help="Annotated corpus (PhysioNet deid folder, EDS-pseudo...).")],
    anonymized: Annotated[
        Path | None, typer.Option("--anonymized", help="Anonymized corpus, paired with the gold by id.")
    ] = None,
    spans: Annotated[
        Path | None,
        typer.Option(
            "--spans", help="spans.jsonl of `anonymed detect` on the gold notes: splits the causes."
        ),
    ] = None,
    profile: Annotated[
        list[str] | None, typer.Option("--profile", help="Anonymize the gold notes now with this profile.")
    ] = None,
    gold_format: Annotated[str | None, typer.Option("--gold-format")] = None,
    anonymized_format: Annotated[str | None, typer.Option("--anonymized-format")] = None,
    slack: Annotated[int, typer.Option("--slack", help="Characters around the item's place.")] = 15,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the --profile runs.")] = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write the reports as JSON.")] = None,
) -> None:
    """Leak rate per category: gold items whose text survives at their place, missed or written back."""
    with handled_errors():
        params = LeakParams(slack=slack)
        docs = _documents(gold, gold_format)
        runs: dict[str, list[Anonymized]] = {}
        if anonymized is not None:
            runs[anonymized.name] = _from_file(docs, anonymized, anonymized_format, spans)
        for name in profile or ():
            runs[name] = _from_profile(docs, name, seed)
        if not runs:
            raise ConfigError("give --anonymized PATH or at least one --profile NAME")
        reports = {name: evaluate_leaks(notes, params) for name, notes in runs.items()}
    out.print(leak_table(reports))
    if any(report.overall.causes[UNKNOWN] for report in reports.values()):
        console.print("causes unknown (?): give --spans with the detected spans to split them")
    if output is not None:
        data: dict[str, Any] = {name: report.to_json() for name, report in reports.items()}
        with handled_errors():
            try:
                write_json(output, data)
            except OSError as exc:
                raise OutputError(f"cannot write {str(output)!r}: {exc.strerror}") from None
        console.print(f"results: {output}")


def register(app: typer.Typer) -> None:
    """Add ``leaks`` to the ``anonymed evaluate`` app."""
    app.command("leaks")(leaks)
