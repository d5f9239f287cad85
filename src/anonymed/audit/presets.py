"""Benchmark presets: the default grid (well under an hour on two cores) and a quick one for tests."""

from __future__ import annotations

from dataclasses import dataclass

from anonymed.audit.attacks import AttackConfig
from anonymed.audit.benchmark import BenchmarkConfig
from anonymed.audit.grid import GridConfig


@dataclass(frozen=True)
class Preset:
    """A benchmark corpus and the grid run on it."""

    benchmark: BenchmarkConfig
    grid: GridConfig


def default_preset() -> Preset:
    """300 patients, about 1,500 notes, 20% of names missed; CBOW, skip-gram and fastText x windows 1-9 x
    cosine and cityblock; the paper's attack settings except targets held by 3+ subjects. GloVe is opt-in
    (``--algorithms cbow,skipgram,fasttext,glove``): it needs bicleaner-ai-glove and trains slowest."""
    return Preset(BenchmarkConfig(), GridConfig())


def quick_preset() -> Preset:
    """A few seconds: 60 patients, half of the names missed, CBOW window 5 only, fewer resamples."""
    benchmark = BenchmarkConfig(
        patients=60, min_notes=3, max_notes=4, miss_rate=0.5, protections=("removal", "replacement", "words")
    )
    attack = AttackConfig(permutations=200, target_sets=100, targets=10, min_patients=2)
    grid = GridConfig(algorithms=("cbow",), windows=(5,), workers=1, attack=attack)
    return Preset(benchmark, grid)
