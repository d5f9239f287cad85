"""``anonymed keygen``: a new random key, 0600, never over an existing file, at least 16 bytes."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from typer.testing import CliRunner

from anonymed.cli import app
from anonymed.cli.deid import read_patient_key

runner = CliRunner()


def test_keygen_writes_a_fresh_owner_only_key_that_deid_accepts(tmp_path: Path) -> None:
    previous = os.umask(0)  # even a permissive umask gives 0600
    try:
        first, second = tmp_path / "a.key", tmp_path / "b.key"
        assert runner.invoke(app, ["keygen", str(first)]).exit_code == 0
        assert runner.invoke(app, ["keygen", str(second)]).exit_code == 0
    finally:
        os.umask(previous)
    assert stat.S_IMODE(first.stat().st_mode) == 0o600
    key = read_patient_key(first)
    assert key is not None and len(bytes.fromhex(key.decode())) == 32
    assert key != read_patient_key(second)


def test_keygen_never_replaces_a_key(tmp_path: Path) -> None:
    key = tmp_path / "k"
    key.write_text("the old key, still in use\n")
    result = runner.invoke(app, ["keygen", str(key)])
    assert result.exit_code == 2 and "exists" in result.output
    assert key.read_text() == "the old key, still in use\n"


def test_keygen_refuses_a_short_key_and_honours_a_longer_one(tmp_path: Path) -> None:
    result = runner.invoke(app, ["keygen", str(tmp_path / "short"), "--bytes", "15"])
    assert result.exit_code == 2 and "at least 16" in result.output and not (tmp_path / "short").exists()
    assert runner.invoke(app, ["keygen", str(tmp_path / "long"), "--bytes", "64"]).exit_code == 0
    assert len((tmp_path / "long").read_text().strip()) == 128
