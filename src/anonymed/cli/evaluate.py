"""``anonymed evaluate detection``: score the spans of ``anonymed detect`` against gold annotations."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from anonymed.cli.common import console, failed_record, handled_errors, out, write_json
from anonymed.document import Document, Span
from anonymed.errors import OutputError
from anonymed.evaluate import DetectionReport, Scores, evaluate_detection, pair_by_id
from anonymed.evaluate.overlap import TrainingOverlap, training_overlaps
from anonymed.io.base import ReadFailure, Record
from anonymed.io.registry import open_reader
from anonymed.io.spans import SpansReader


def load_predictions(path: Path) -> tuple[list[tuple[str, tuple[Span, ...]]], list[ReadFailure]]:
    """(document id, predicted spans) records in file order, and the records that failed."""
    predictions: list[tuple[str, tuple[Span, ...]]] = []
    failures: list[ReadFailure] = []
    for item in SpansReader(path):
        if isinstance(item, ReadFailure):
            failures.append(item)
        else:
            predictions.append((item.id, item.spans))
    return predictions, failures


def _split(records: Iterable[Record]) -> tuple[list[Document], list[ReadFailure]]:
    documents: list[Document] = []
    failures: list[ReadFailure] = []
    for record in records:
        if isinstance(record, Document):
            documents.append(record)
        else:
            failures.append(record)
    return documents, failures


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def _add_row(table: Table, scores: Scores, *, style: str | None = None) -> None:
    tokens, entities = scores.tokens, scores.entities
    table.add_row(
        scores.key,
        _fmt(tokens.precision),
        _fmt(tokens.recall),
        _fmt(tokens.f1),
        _fmt(entities.recall),
        f"{entities.found}/{entities.total}",
        str(tokens.support),
        str(tokens.fp),
        style=style,
    )


CAPTION = (
    "P R F1: tokens (label-blind matches); ent R: strict entity recall; ent: entities found/total; "
    "gold: gold tokens; FP: false-positive tokens"
)


def render_table(
    title: str, rows: Iterable[Scores], overall: Scores | None = None, caption: str | None = None
) -> Table:
    """A rich table of token precision / recall / F1, entity recall and support, one row per key."""
    table = Table(title=title, caption=caption)
    table.add_column("label", no_wrap=True)
    for name in ("P", "R", "F1", "ent R", "ent", "gold", "FP"):
        table.add_column(name, justify="right", no_wrap=True)
    if overall is not None:
        _add_row(table, overall, style="bold")
    for scores in rows:
        _add_row(table, scores)
    return table


def _warnings(report: DetectionReport, gold_failures: int, prediction_failures: int) -> Iterator[str]:
    if report.overall.entities.total == 0 and report.overall.tokens.support == 0:
        yield "the gold input holds no annotation: recall is undefined"
    if report.missing_predictions:
        yield f"{report.missing_predictions} gold document(s) lack a prediction record: all missed"
    if report.unknown_predictions:
        yield f"{report.unknown_predictions} prediction record(s) match no gold document: ignored"
    if gold_failures:
        yield f"{gold_failures} gold record(s) could not be read: left out"
    if prediction_failures:
        yield f"{prediction_failures} prediction record(s) failed: their documents count as missing"
    if report.ignored_gold_spans:
        yield f"{report.ignored_gold_spans} gold span(s) without any letter or digit: not counted"


PredictedArg = Annotated[
    Path, typer.Argument(help="spans.jsonl written by `anonymed detect`.", exists=True, dir_okay=False)
]
GoldOpt = Annotated[Path, typer.Option("--gold", help="Gold corpus (file or folder).", exists=True)]
GoldFormatOpt = Annotated[
    str | None,
    typer.Option("--gold-format", help="physionet-deid | eds-pseudo | presidio (default: guessed)."),
]
OutputOpt = Annotated[Path | None, typer.Option("-o", "--output", help="Write the report as JSON here.")]
ModelOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--model",
        help="A model folder whose training notes are checked against the gold too (the shipped "
        "models always are); repeatable.",
    ),
]


def _print_overlaps(overlaps: list[TrainingOverlap]) -> None:
    for found in overlaps:
        console.print(
            f"[yellow]warning:[/yellow] {len(found.ids)} of {found.gold} gold notes ({found.share:.0%}) "
            f"were training notes of the model {found.model}: scores of a detector that uses it are "
            "optimistic on them (it has seen their annotations); evaluate on notes it was not trained on"
        )


def _print_failures(kind: str, failures: list[ReadFailure], shown: int = 10) -> None:
    for item in failures[:shown]:
        console.print(f"[yellow]{kind} failed:[/yellow] {escape(failed_record(item))}")
    if len(failures) > shown:
        console.print(f"... and {len(failures) - shown} more {kind} failures")


def detection(
    predicted: PredictedArg,
    gold: GoldOpt,
    gold_format: GoldFormatOpt = None,
    output: OutputOpt = None,
    model: ModelOpt = None,
) -> None:
    """Token precision / recall / F1 and strict entity recall of predicted spans, overall and per label."""
    with handled_errors():
        predictions, prediction_failures = load_predictions(predicted)
        documents, gold_failures = _split(open_reader(gold, gold_format))
        pairs, unknown = pair_by_id(documents, predictions)
        unmatched = Counter(unknown) - Counter(failure.record_id for failure in gold_failures)
        report = evaluate_detection(pairs, unknown_predictions=unmatched.total())
        overlaps = training_overlaps(documents, model or ())
    out.print(render_table("detection by label", report.by_label, report.overall))
    out.print(render_table("detection by label/subtype", report.by_full_label, caption=CAPTION))
    _print_failures("gold", gold_failures)
    _print_failures("prediction", prediction_failures)
    for warning in _warnings(report, len(gold_failures), len(prediction_failures)):
        console.print(f"[yellow]warning:[/yellow] {warning}")
    _print_overlaps(overlaps)
    if output is not None:
        extra = {
            "gold_read_failures": len(gold_failures),
            "prediction_failures": len(prediction_failures),
            "trained_on_gold": {str(found.model): len(found.ids) for found in overlaps},
        }
        with handled_errors():
            try:
                write_json(output, {**report.to_json(), **extra})
            except OSError as exc:
                raise OutputError(f"cannot write the report to {str(output)!r}: {exc.strerror}") from None
        console.print(f"report: {output}")


def register(app: typer.Typer) -> None:
    """Add the command of this module to the ``anonymed evaluate`` app."""
    app.command("detection")(detection)
