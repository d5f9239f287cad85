"""``anonymed evaluate anonymity|retention|extrinsic|intrinsic|train-classifier|report``.

Thin commands over ``anonymed.evaluate``: they read corpora, call the library and print tables. The
scikit-learn / matplotlib / rapidfuzz parts are imported inside each command (extra ``evaluate``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from anonymed.cli.common import console, handled_errors, needs_extra, out, stage_progress, write_json
from anonymed.document import Document
from anonymed.errors import ConfigError, InputError, OutputError

MethodOpt = Annotated[
    list[str] | None,
    typer.Option("--method", "-m", help="replace | words:N | hybrid:N | sentences (repeatable)."),
]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed of the anonymization runs.")]
JsonOpt = Annotated[Path | None, typer.Option("-o", "--output", help="Write the results as JSON here.")]
CorpusOpt = Annotated[
    Path | None, typer.Option("--corpus", help="MTSamples-style CSV (default: the shipped MTSamples).")
]
ProgressOpt = Annotated[bool, typer.Option("--progress/--no-progress", help="Show progress bars.")]
MinClassOpt = Annotated[
    int, typer.Option("--min-class-size", help="Specialties with fewer labelled notes are dropped.")
]


def _documents(path: Path, fmt: str | None) -> list[Document]:
    from anonymed.io.registry import open_reader

    return [r for r in open_reader(path, fmt) if isinstance(r, Document)]


def _paired(gold: list[Document], anonymized: Path, fmt: str | None) -> list[tuple[Document, str]]:
    """Gold documents with the text of the anonymized record of the same id."""
    texts: dict[str, str] = {}
    for doc in _documents(anonymized, fmt):
        texts.setdefault(doc.id, doc.text)
    missing = [d.id for d in gold if d.id not in texts]
    if missing:
        raise InputError(missing[0], f"no anonymized record for {len(missing)} document(s), e.g. this one")
    return [(d, texts[d.id]) for d in gold]


def _methods(specs: Sequence[str] | None) -> list[Any]:
    from anonymed.evaluate.methods import build_method

    methods = [build_method(spec) for spec in (specs or ())]
    for method in methods:
        reason = method.unavailable()
        if reason is not None:
            raise ConfigError(reason)
    return methods


def _save(path: Path | None, data: Any) -> None:
    if path is None:
        return
    try:
        write_json(path, data)
    except OSError as exc:
        raise OutputError(f"cannot write {str(path)!r}: {exc.strerror}") from None
    console.print(f"results: {path}")


def _table(title: str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> Table:
    table = Table(title=title)
    for i, name in enumerate(header):
        table.add_column(name, justify="left" if i == 0 else "right")
    for row in rows:
        table.add_row(*row)
    return table


def _f(value: Any) -> str:
    return "—" if value is None else f"{value:.3f}"


def anonymity(
    gold: Annotated[Path, typer.Argument(help="Annotated corpus (PhysioNet deid folder, EDS-pseudo...).")],
    anonymized: Annotated[
        Path | None, typer.Option("--anonymized", help="Anonymized corpus, paired with the gold by id.")
    ] = None,
    method: MethodOpt = None,
    gold_format: Annotated[str | None, typer.Option("--gold-format")] = None,
    anonymized_format: Annotated[str | None, typer.Option("--anonymized-format")] = None,
    tau: Annotated[float, typer.Option("--tau", help="Levenshtein threshold of LR.")] = 0.85,
    whole_words: Annotated[bool, typer.Option("--whole-words", help="SMR matches whole words only.")] = False,
    seed: SeedOpt = 13,
    output: JsonOpt = None,
) -> None:
    """SMR, ALID, LR, LRDI, LRQI of anonymized notes against the gold PHI (a file, or methods run now)."""
    from anonymed.evaluate.anonymity import AnonymityParams, evaluate_anonymity

    with handled_errors():
        params = AnonymityParams(tau=tau, whole_words=whole_words)
        docs = _documents(gold, gold_format)
        runs: dict[str, list[tuple[Document, str]]] = {}
        if anonymized is not None:
            runs[anonymized.name] = _paired(docs, anonymized, anonymized_format)
        for m in _methods(method):
            runs[m.name] = [(d, a.result) for d, a in zip(docs, m.anonymize(docs, seed), strict=True)]
        if not runs:
            raise ConfigError("give --anonymized PATH or at least one --method")
        reports = {name: evaluate_anonymity(pairs, params).to_json() for name, pairs in runs.items()}
    rows = [
        [name, *(_f(r["macro"][k]) for k in ("smr", "alid", "lr", "lrdi", "lrqi"))]
        for name, r in reports.items()
    ]
    out.print(
        _table(
            f"anonymity ({len(docs)} notes, tau={tau})", ["method", "SMR", "ALID", "LR", "LRDI", "LRQI"], rows
        )
    )
    _save(output, reports)


def retention(
    method: MethodOpt = None,
    corpus: CorpusOpt = None,
    classifier: Annotated[Path | None, typer.Option("--classifier", help="Classifier folder.")] = None,
    k: Annotated[int, typer.Option("--k", help="Top-k of JSC.")] = 3,
    seed: SeedOpt = 13,
    output: JsonOpt = None,
) -> None:
    """JSC and NSDCG of each method on the MTSamples test split, with anonymed's specialty classifier."""
    from anonymed.evaluate.classifier import load_classifier
    from anonymed.evaluate.mtsamples import load_task
    from anonymed.evaluate.retention import RetentionParams, evaluate_retention

    with handled_errors():
        model = load_classifier(classifier)
        notes = [n for n in load_task(corpus) if n.metadata["split"] == "test"]
        reports = {}
        for m in _methods(method or ["words:5"]):
            texts = [d.result for d in m.anonymize(notes, seed)]
            reports[m.name] = evaluate_retention(
                model, [n.text for n in notes], texts, RetentionParams(k=k)
            ).to_json()
    rows = [[name, _f(r["jsc"]), _f(r["nsdcg"]), _f(r["top1"])] for name, r in reports.items()]
    out.print(_table(f"retention ({len(notes)} test notes)", ["method", f"JSC@{k}", "NSDCG", "top-1"], rows))
    _save(output, reports)


def extrinsic(
    method: MethodOpt = None,
    corpus: CorpusOpt = None,
    folds: Annotated[int, typer.Option("--folds")] = 5,
    min_class_size: MinClassOpt = 40,
    seed: SeedOpt = 13,
    output: JsonOpt = None,
) -> None:
    """Specialty macro-F1 (logistic regression, linear SVM) on original vs anonymized MTSamples."""
    from anonymed.evaluate.extrinsic import ExtrinsicParams, evaluate_extrinsic
    from anonymed.evaluate.mtsamples import TaskParams, labelled, load_task

    with handled_errors():
        notes = labelled(load_task(corpus, TaskParams(min_class_size=min_class_size)))
        versions = {
            m.name: [d.result for d in m.anonymize(notes, seed)] for m in _methods(method or ["words:5"])
        }
        report = evaluate_extrinsic(
            [n.text for n in notes],
            [str(n.metadata["label"]) for n in notes],
            versions,
            ExtrinsicParams(folds=folds),
        ).to_json()
    models = list(report["original"])
    rows = [["original", *(_f(report["original"][m]["f1"]) for m in models), *("" for _ in models)]]
    for name, scores in report["methods"].items():
        rows.append(
            [name, *(_f(scores[m]["f1"]) for m in models), *(f"{scores[m]['change']:+.2f}" for m in models)]
        )
    header = ["method", *(f"{m} F1" for m in models), *(f"{m} change" for m in models)]
    out.print(_table(f"extrinsic ({report['notes']} notes, {report['classes']} classes)", header, rows))
    _save(output, report)


def intrinsic(
    method: MethodOpt = None,
    corpus: CorpusOpt = None,
    runs: Annotated[int, typer.Option("--runs")] = 5,
    epochs: Annotated[int, typer.Option("--epochs", help="fastText epochs.")] = 5,
    seed: SeedOpt = 13,
    progress: ProgressOpt = True,
    output: JsonOpt = None,
) -> None:
    """Word-pair correlations of embeddings trained on original vs anonymized MTSamples (mean, 90% CI)."""
    from anonymed.evaluate.report import Evaluation
    from anonymed.evaluate.report_config import IntrinsicSection, ReportConfig

    with handled_errors():
        from anonymed.evaluate.intrinsic import EmbeddingParams

        section = IntrinsicSection(
            tuple(method or ["words:5"]), runs, embedding=EmbeddingParams(epochs=epochs)
        )
        config = ReportConfig(seed=seed, methods=(), mtsamples=corpus, intrinsic=section)
        with stage_progress(progress) as update:
            data = Evaluation(config, update).intrinsic()
    settings = data["settings"]
    rows = []
    for bench in next(iter(settings.values())):
        cells = [settings[s][bench]["pearson"] for s in settings]
        rows.append([bench, *(f"{_f(c['mean'])} ({_f(c['low'])}, {_f(c['high'])})" for c in cells)])
    out.print(_table(f"intrinsic: Pearson, {runs} runs, 90% CI", ["benchmark", *settings], rows))
    _save(output, data)


def train_classifier(
    output: Annotated[Path, typer.Option("-o", "--output", help="Classifier folder to write.")],
    corpus: CorpusOpt = None,
    min_class_size: MinClassOpt = 40,
) -> None:
    """Train the specialty classifier used by the retention metrics (TF-IDF + logistic regression)."""
    from anonymed.evaluate.classifier import train_on_mtsamples
    from anonymed.evaluate.mtsamples import TaskParams

    with handled_errors():
        model = train_on_mtsamples(corpus, TaskParams(min_class_size=min_class_size))
        model.save(output)
    meta = model.meta or {}
    console.print(
        f"{len(model.classes)} classes, {len(model.vocabulary)} features; held-out macro-F1 "
        f"{meta.get('test_macro_f1')} on {meta.get('test_size')} notes; written to {output}"
    )


def report(
    config: Annotated[Path, typer.Argument(help="Report configuration (TOML).", exists=True, dir_okay=False)],
    output: Annotated[Path, typer.Option("-o", "--output", help="Folder for report.html/.md/.json.")],
    quick: Annotated[bool, typer.Option("--quick", help="A small run (few notes, short training).")] = False,
    progress: ProgressOpt = True,
) -> None:
    """Run the configured methods on the corpora and write the HTML, Markdown and JSON report."""
    with needs_extra("evaluate,embed"), handled_errors():
        from anonymed.evaluate.report import build_report
        from anonymed.evaluate.report_config import load_config

        settings = load_config(config)
        if quick:
            settings = settings.quick()
        with stage_progress(progress) as update:
            data = build_report(settings, output, update)
    for note in data.get("notes", []):
        console.print(f"[yellow]note:[/yellow] {note}")
    console.print(f"report: {output / 'report.html'} (and report.md, report.json)")


def register(app: typer.Typer) -> None:
    """Add the commands to the ``anonymed evaluate`` app."""
    app.command("anonymity")(anonymity)
    app.command("retention")(retention)
    app.command("extrinsic")(extrinsic)
    app.command("intrinsic")(intrinsic)
    app.command("train-classifier")(train_classifier)
    app.command("report")(report)
