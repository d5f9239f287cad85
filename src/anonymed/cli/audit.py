"""``anonymed audit``: attack a released embedding the way Abdalla et al. do, or run the whole benchmark."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from anonymed.cli.common import console, handled_errors, out, quiet_logging, stage_progress, write_json

if TYPE_CHECKING:
    from anonymed.audit.report import Report

app = typer.Typer(help="Privacy audit of released embeddings and corpora.", no_args_is_help=True)


@app.callback()
def audit() -> None:
    """Attack embeddings the way Abdalla et al. (JMIR 2020) do: names, diagnoses, scenario."""


def _split(value: str | None) -> tuple[str, ...]:
    return tuple(v.strip() for v in (value or "").split(",") if v.strip())


@app.command("make-benchmark")
def make_benchmark_command(
    output: Annotated[Path, typer.Option("-o", "--output", help="Benchmark folder to write.")],
    quick: Annotated[bool, typer.Option("--quick", help="The small test preset (60 patients).")] = False,
    patients: Annotated[int | None, typer.Option("--patients", help="Synthetic patients.")] = None,
    min_notes: Annotated[int | None, typer.Option("--min-notes", help="Notes per patient, at least.")] = None,
    max_notes: Annotated[int | None, typer.Option("--max-notes", help="Notes per patient, at most.")] = None,
    miss_rate: Annotated[
        float | None, typer.Option("--miss-rate", help="Share of patients whose name the detector misses.")
    ] = None,
    protections: Annotated[
        str | None,
        typer.Option(
            "--protections",
            help="Comma list: removal,replacement,words,sentences,hybrid,hybrid-sentences,none",
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the whole benchmark.")] = None,
    progress: Annotated[bool, typer.Option("--progress/--no-progress")] = True,
) -> None:
    """Build a corpus with known names and diagnoses from MTSamples, and its protected copies."""
    from anonymed.audit.benchmark import make_benchmark
    from anonymed.audit.benchmark_store import save_benchmark
    from anonymed.audit.presets import default_preset, quick_preset

    quiet_logging(False)
    started = time.perf_counter()
    with handled_errors():
        config = (quick_preset() if quick else default_preset()).benchmark
        changes: dict[str, Any] = dict(
            patients=patients,
            min_notes=min_notes,
            max_notes=max_notes,
            miss_rate=miss_rate,
            protections=_split(protections) or None,
            seed=seed,
        )
        config = dataclasses.replace(config, **{k: v for k, v in changes.items() if v is not None})
        with stage_progress(progress, width=12) as update:
            bench = make_benchmark(config, progress=update)
        save_benchmark(bench, output)
    missed = sum(p.missed for p in bench.patients)
    console.print(
        f"benchmark {output}: {len(bench.patients)} patients ({missed} missed by the detector), "
        f"{len(bench.documents)} notes, copies: {', '.join(bench.copies) or 'none'}; "
        f"{time.perf_counter() - started:.1f} s"
    )
    for name, reason in bench.skipped.items():
        console.print(f"[yellow]skipped[/yellow] {name}: {reason}")


@app.command("embeddings")
def embeddings_command(
    model: Annotated[
        Path,
        typer.Argument(
            help="gensim KeyedVectors/Word2Vec/FastText file, word2vec "
            ".txt/.vec/.bin, or an anonymed space folder."
        ),
    ],
    names: Annotated[Path, typer.Option("--names", help="True full names, one per line.")],
    diagnoses: Annotated[
        Path | None, typer.Option("--diagnoses", help="Per patient: 'name<TAB>diag; diag' or JSONL.")
    ] = None,
    decoys: Annotated[
        Path | None, typer.Option("--decoys", help="Other name-looking tokens the attacker also has.")
    ] = None,
    metrics: Annotated[str, typer.Option("--metrics", help="cosine,cityblock")] = "cosine,cityblock",
    expected_names: Annotated[int | None, typer.Option("--expected-names", help="Pairs claimed.")] = None,
    permutations: Annotated[int, typer.Option("--permutations", help="2b: random in-groups.")] = 1000,
    target_sets: Annotated[int, typer.Option("--target-sets", help="3: random target sets.")] = 1000,
    targets: Annotated[int, typer.Option("--targets", help="3: diagnoses per target set.")] = 30,
    min_patients: Annotated[int, typer.Option("--min-patients", help="3: targets held by >= k.")] = 10,
    target: Annotated[
        list[str] | None, typer.Option("--target", help="3: a fixed target diagnosis (repeatable).")
    ] = None,
    alpha: Annotated[float, typer.Option("--alpha")] = 0.05,
    seed: Annotated[int | None, typer.Option("--seed", help="Reproducible resampling.")] = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write the results as JSON.")] = None,
) -> None:
    """Run experiments 1, 2a, 2b and 3 on MODEL with the given names and diagnoses."""
    from anonymed.audit.attacks import AttackConfig
    from anonymed.audit.data import AuditData, merge_patients, read_diagnoses, read_names, read_tokens
    from anonymed.audit.embedding import load_embedding
    from anonymed.audit.runs import audit_embedding

    quiet_logging(False)
    with handled_errors():
        patients = merge_patients(read_names(names), read_diagnoses(diagnoses) if diagnoses else [])
        data = AuditData(patients, read_tokens(decoys) if decoys else frozenset())
        config = AttackConfig(
            expected_names,
            permutations,
            alpha,
            target_sets,
            targets,
            min_patients,
            fixed_targets=tuple(target or ()),
        )
        embedding = load_embedding(model)
        report = audit_embedding(embedding, data, _split(metrics), config, seed)
    out.print(_embedding_table(report))
    console.print(f"verdict: {report.verdicts[0].verdict}")
    if output is not None:
        write_json(output, report.to_json())


def _embedding_table(report: Report) -> Table:
    table = Table(title="Attacks on the embedding")
    for column in (
        "metric",
        "1: names found / claimed (chance, p)",
        "2a: in - out (n, p)",
        "2b: patients significant",
        "3: A@1, A@5 far / near / majority / chance",
    ):
        table.add_column(column)
    for row, names_ok, population_ok in zip(
        report.rows, report.names_rejected, report.population_rejected, strict=True
    ):
        r = row.result
        s = r.scenario
        guesses = (s.farthest, s.nearest, s.majority, s.chance)
        scenario = " / ".join(f"{a.top1:.2f}, {a.top5:.2f}" for a in guesses) if s.sets else "-"
        table.add_row(
            r.metric,
            f"{r.names.found}/{r.names.expected} ({r.names.chance:.1f}, p={r.names.p_value:.2g})"
            + ("" if names_ok else " †"),
            f"{r.population.difference:+.4f} ({r.population.subjects}, p={r.population.p_value:.2g})"
            + ("" if population_ok else " †"),
            f"{r.patients.significant}/{r.patients.subjects}",
            scenario,
        )
    return table


@app.command("benchmark")
def benchmark_command(
    bench: Annotated[
        Path | None, typer.Option("--bench", help="Benchmark folder (made there first if missing).")
    ] = None,
    quick: Annotated[bool, typer.Option("--quick", help="The quick preset (a few seconds).")] = False,
    algorithms: Annotated[
        str | None, typer.Option("--algorithms", help="cbow,skipgram,fasttext,glove")
    ] = None,
    windows: Annotated[str | None, typer.Option("--windows", help="1,3,5,7,9")] = None,
    metrics: Annotated[str | None, typer.Option("--metrics", help="cosine,cityblock")] = None,
    protections: Annotated[str | None, typer.Option("--protections", help="Subset of the copies.")] = None,
    workers: Annotated[int | None, typer.Option("--workers", help="Training processes.")] = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Markdown report.")] = None,
    json_output: Annotated[Path | None, typer.Option("--json", help="JSON report.")] = None,
    progress: Annotated[bool, typer.Option("--progress/--no-progress")] = True,
) -> None:
    """Train every algorithm x window on every protected copy, attack, and report a verdict per protection."""
    from anonymed.audit.runs import run_benchmark

    quiet_logging(False)
    started = time.perf_counter()
    with handled_errors(), stage_progress(progress, width=12) as update:
        report, text = run_benchmark(
            bench,
            quick=quick,
            algorithms=_split(algorithms),
            windows=tuple(int(w) for w in _split(windows)),
            metrics=_split(metrics),
            protections=_split(protections),
            workers=workers,
            progress=update,
        )
    if output is not None:
        output.write_text(text, encoding="utf-8")
    else:
        typer.echo(text, nl=False)
    if json_output is not None:
        write_json(json_output, report.to_json())
    console.print(
        f"audit benchmark: {len(report.rows)} configurations, {time.perf_counter() - started:.0f} s"
    )
