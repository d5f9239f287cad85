"""The two audits end to end: one user's embedding, and the benchmark grid (make or load, train, report)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from anonymed.audit.attacks import AttackConfig, run_attacks
from anonymed.audit.benchmark import Benchmark, make_benchmark
from anonymed.audit.benchmark_store import load_benchmark, save_benchmark
from anonymed.audit.data import AuditData
from anonymed.audit.embedding import Embedding
from anonymed.audit.grid import Copy, GridRow, Progress, run_grid
from anonymed.audit.paper import side_by_side
from anonymed.audit.presets import Preset, default_preset, quick_preset
from anonymed.audit.report import Report, build_report
from anonymed.audit.report_tables import markdown
from anonymed.errors import ConfigError
from anonymed.randomness import check_random_state


def audit_embedding(
    embedding: Embedding,
    data: AuditData,
    metrics: Sequence[str] = ("cosine", "cityblock"),
    config: AttackConfig | None = None,
    random_state: int | None = None,
) -> Report:
    """All attacks on one embedding, once per metric; Holm across the metrics; one verdict."""
    config = config or AttackConfig()
    rng = check_random_state(random_state)
    rows = []
    for metric in metrics:
        started = time.perf_counter()
        result = run_attacks(embedding, data, metric, config, rng.spawn(metric))
        rows.append(GridRow("model", "model", 0, result, len(embedding.words), time.perf_counter() - started))
    return build_report(rows, config.alpha)


def _preset(
    quick: bool,
    algorithms: Sequence[str],
    windows: Sequence[int],
    metrics: Sequence[str],
    workers: int | None,
) -> Preset:
    preset = quick_preset() if quick else default_preset()
    changes: dict[str, Any] = {
        "algorithms": tuple(algorithms),
        "windows": tuple(windows),
        "metrics": tuple(metrics),
    }
    grid = dataclasses.replace(preset.grid, **{k: v for k, v in changes.items() if v})
    if workers is not None:
        grid = dataclasses.replace(grid, workers=workers)
    return Preset(preset.benchmark, grid)


def benchmark_for(folder: Path | None, preset: Preset, progress: Progress | None = None) -> Benchmark:
    """The benchmark in ``folder`` if there is one; else made with the preset (and saved there if given)."""
    if folder is not None and (Path(folder) / "benchmark.json").exists():
        return load_benchmark(folder)
    bench = make_benchmark(preset.benchmark, progress)
    if folder is not None:
        save_benchmark(bench, folder)
    return bench


def run_benchmark(
    folder: Path | None = None,
    *,
    quick: bool = False,
    algorithms: Sequence[str] = (),
    windows: Sequence[int] = (),
    metrics: Sequence[str] = (),
    protections: Sequence[str] = (),
    workers: int | None = None,
    progress: Progress | None = None,
) -> tuple[Report, str]:
    """Make or load the benchmark, run the grid on its copies, and return the report and its markdown."""
    preset = _preset(quick, algorithms, windows, metrics, workers)
    bench = benchmark_for(folder, preset, progress)
    chosen = tuple(protections) or bench.available
    unknown = set(chosen) - set(bench.available)
    if unknown:
        raise ConfigError(f"protections {sorted(unknown)} are not in this benchmark: {list(bench.available)}")
    copies = {p: Copy(bench.corpus(p), bench.audit_data(p)) for p in chosen}
    rows: list[GridRow] = run_grid(copies, preset.grid, progress)
    report = build_report(rows, preset.grid.attack.alpha)
    trained = list(dict.fromkeys(r.protection for r in rows if r.trained))
    comparison = (
        f"\n## Side by side with Abdalla et al.\n\n{side_by_side(report, trained)}\n" if trained else ""
    )
    return report, markdown(report) + comparison + _notes(bench, preset)


def _notes(bench: Benchmark, preset: Preset) -> str:
    config = bench.config
    missed = sum(p.missed for p in bench.patients)
    lines = [
        "",
        "## Benchmark",
        "",
        f"{len(bench.patients)} synthetic patients, {len(bench.documents)} notes "
        f"({config.min_notes}-{config.max_notes} per patient), names of {missed} patients "
        f"({100 * config.miss_rate:.0f}%) missed by the simulated detector; seed {config.seed}. Models: "
        f"{', '.join(preset.grid.algorithms)}; windows {', '.join(map(str, preset.grid.windows))}; "
        f"vector size {preset.grid.vector_size}, {preset.grid.epochs} epochs, "
        f"min_count {preset.grid.min_count}.",
    ]
    lines.extend(f"\nSkipped copy {name}: {reason}." for name, reason in bench.skipped.items())
    return "\n".join(lines) + "\n"
