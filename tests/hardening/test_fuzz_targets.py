"""The atheris fuzz targets (``fuzz/``), run for a bounded number of iterations; hypothesis drives them too.

The long run is documented in SECURITY.md. Without atheris (it has no wheel for some platforms), the
atheris test drives the same targets with hypothesis instead of skipping.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FUZZ = Path(__file__).resolve().parents[2] / "fuzz"
sys.path.insert(0, str(FUZZ))
import fuzz_targets  # noqa: E402  (lives in fuzz/, next to the atheris scripts)

HAVE_ATHERIS = importlib.util.find_spec("atheris") is not None
#: script, seed corpus, runs in CI, longest input
TARGETS = [
    ("fuzz_readers.py", "readers", 3000, 4096, fuzz_targets.read_any),
    ("fuzz_pipeline.py", "pipeline", 2000, 2048, fuzz_targets.deid_any),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("script", "corpus", "runs", "max_len", "target"), TARGETS, ids=["readers", "pipeline"]
)
def test_the_fuzz_target_runs_clean(
    script: str, corpus: str, runs: int, max_len: int, target: object, tmp_path: Path
) -> None:
    if not HAVE_ATHERIS:  # same target, driven by hypothesis (no coverage guidance)
        drive = settings(max_examples=runs // 5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
        drive(given(st.binary(max_size=max_len))(target))()  # type: ignore[arg-type]
        return
    seeds = tmp_path / "corpus"
    shutil.copytree(FUZZ / "corpus" / corpus, seeds)  # libFuzzer adds new inputs to it: keep the repo clean
    done = subprocess.run(
        [
            sys.executable,
            str(FUZZ / script),
            f"-runs={runs}",
            "-seed=1",
            f"-max_len={max_len}",
            f"-dict={FUZZ / corpus}.dict",
            f"-artifact_prefix={tmp_path}/",
            str(seeds),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    crashes = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(("crash-", "timeout-", "oom-")))
    assert done.returncode == 0 and not crashes, done.stderr[-3000:]
    assert re.search(rf"Done {runs} runs", done.stderr)


@pytest.mark.parametrize(
    "target", [fuzz_targets.read_any, fuzz_targets.deid_any], ids=["readers", "pipeline"]
)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=512))
def test_the_fuzz_targets_hold_on_random_bytes(target: object, data: bytes) -> None:
    target(data)  # type: ignore[operator]


def test_the_seed_corpora_pass() -> None:
    for name, target in (("readers", fuzz_targets.read_any), ("pipeline", fuzz_targets.deid_any)):
        seeds = sorted((FUZZ / "corpus" / name).iterdir())
        assert seeds
        for seed in seeds:
            target(seed.read_bytes())
