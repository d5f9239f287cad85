"""benchmarks/fhir_sql.py's switches on the trimmed Synthea sample (what it runs, never how fast)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from fhir_support import SYNTHEA

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "fhir_sql.py"


def run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--synthea", str(SYNTHEA), *args],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_notes_zero_skips_the_notes_section_as_rows_zero_skips_postgres() -> None:
    out = run("--notes", "0", "--rows", "0")
    assert "structured pass:" in out
    assert "notes:" not in out and "postgres:" not in out


def test_notes_runs_both_paths_on_that_many_notes() -> None:
    out = run("--notes", "2", "--rows", "0")
    assert "notes: 2 notes" in out and "plain-text path:" in out and "FHIR path:" in out
