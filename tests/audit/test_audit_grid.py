"""The grid trains each algorithm x window on each copy and attacks it with each metric."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from anonymed.audit.attacks import AttackConfig
from anonymed.audit.data import AuditData, Patient
from anonymed.audit.grid import Copy, GridConfig, names_can_appear, run_grid
from anonymed.audit.models import ModelSpec, write_corpus
from anonymed.errors import ConfigError

DATA = AuditData(
    (Patient(("zorba", "quill"), frozenset({"fever"})), Patient(("myra", "vost"), frozenset({"cough"})))
)
FAST = AttackConfig(permutations=20, target_sets=5, targets=2, min_patients=1)
GRID = GridConfig(algorithms=("cbow", "skipgram"), windows=(1, 3), workers=1, min_count=2, attack=FAST)


def test_a_copy_without_names_is_attacked_without_training() -> None:
    copies = {"words": Copy(("the patient has a fever and a cough",) * 20, DATA)}
    rows = run_grid(copies, GRID)
    assert [(r.algorithm, r.window, r.result.metric) for r in rows] == [
        (a, w, m) for a in ("cbow", "skipgram") for w in (1, 3) for m in ("cosine", "cityblock")
    ]
    assert not any(r.trained for r in rows)
    assert all(r.result.names.tokens == 0 and r.vocabulary == 0 for r in rows)


def test_a_copy_with_names_is_trained_and_its_names_reach_the_vocabulary() -> None:
    texts = ("Zorba Quill has a fever today", "Myra Vost has a cough today") * 10
    rows = run_grid({"removal": Copy(texts, DATA)}, GRID, progress=lambda *_: None)
    assert all(r.trained for r in rows) and len(rows) == 8
    assert all(r.result.names.tokens == 4 and r.result.names.true_pairs == 2 for r in rows)


def test_names_can_appear_counts_only_the_attackers_tokens() -> None:
    assert names_can_appear(("zorba " * 5,), DATA, min_count=5)
    assert not names_can_appear(("zorba " * 4,), DATA, min_count=5)


@pytest.mark.parametrize(
    "make",
    [
        lambda: GridConfig(metrics=("euclidean",)),  # not one of the paper's metrics
        lambda: GridConfig(workers=0),  # no worker
        lambda: ModelSpec("bert", 5),  # unknown algorithm
        lambda: ModelSpec("cbow", 0),  # empty window
    ],
)
def test_invalid_grid_settings_are_refused(make) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError):
        make()


def test_training_gives_the_same_vectors_in_every_process(tmp_path: Path) -> None:
    corpus = write_corpus(
        ["zorba quill has a fever today and myra vost has a cough"] * 20, tmp_path / "c.txt"
    )
    code = (
        "import sys, hashlib; from anonymed.audit.models import ModelSpec, train; "
        f"e = train(__import__('pathlib').Path({str(corpus)!r}), ModelSpec('cbow', 3, 16, min_count=2)); "
        "print(hashlib.sha256(e.vectors.tobytes()).hexdigest())"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": salt},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for salt in ("1", "2")
    }
    assert len(digests) == 1
