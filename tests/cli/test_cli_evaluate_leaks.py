"""``anonymed evaluate leaks`` on a tiny PhysioNet folder: a file (with or without spans), or profiles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anonymed.cli import evaluate_app as app

runner = CliRunner()

NOTE = "Seen by Dr John Smith on 12/03/2020.\n"
ID_TEXT = f"START_OF_RECORD=1||||1||||\n{NOTE}||||END_OF_RECORD\n\n"
PHRASES = "1 1 11 21 HCPName John Smith\n1 1 25 35 Date 12/03/2020\n"


@pytest.fixture
def gold(tmp_path: Path) -> Path:
    """A one-note PhysioNet deid folder with two gold entities."""
    folder = tmp_path / "gold"
    folder.mkdir()
    (folder / "id.text").write_text(ID_TEXT, encoding="utf-8")
    (folder / "id-phi.phrase").write_text(PHRASES, encoding="utf-8")
    return folder


def _anonymized(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "anon"
    folder.mkdir()
    (folder / "id.text").write_text(ID_TEXT.replace(NOTE, text), encoding="utf-8")
    return folder


def test_leaks_of_a_file_split_by_the_detected_spans(gold: Path, tmp_path: Path) -> None:
    anonymized = _anonymized(tmp_path, "Seen by Dr Paul Brown on 12/03/2020.\n")
    spans = tmp_path / "spans.jsonl"
    detected = [{"start": 11, "end": 21, "label": "NAME", "text": "John Smith"}]
    detected.append({"start": 25, "end": 35, "label": "DATE", "text": "12/03/2020"})
    spans.write_text(json.dumps({"id": "1-1", "spans": detected}) + "\n", encoding="utf-8")
    out = tmp_path / "leaks.json"
    args = ["leaks", str(gold), "--anonymized", str(anonymized), "--spans", str(spans), "-o", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    overall = json.loads(out.read_text(encoding="utf-8"))["anon"]["overall"]
    assert overall == {
        "items": 2, "leaked": 1, "leak_rate": 0.5, "missed": 0, "written_back": 1, "generic": 0, "unknown": 0
    }  # fmt: skip


def test_leaks_of_a_file_without_spans_say_the_cause_is_unknown(gold: Path, tmp_path: Path) -> None:
    anonymized = _anonymized(tmp_path, "Seen by Dr John Smith on 01/01/1999.\n")
    out = tmp_path / "leaks.json"
    result = runner.invoke(app, ["leaks", str(gold), "--anonymized", str(anonymized), "-o", str(out)])
    assert result.exit_code == 0, result.output
    overall = json.loads(out.read_text(encoding="utf-8"))["anon"]["overall"]
    assert overall["leaked"] == 1 and overall["unknown"] == 1
    assert "--spans" in result.output


def test_leaks_of_profiles_run_now(gold: Path, tmp_path: Path) -> None:
    out = tmp_path / "leaks.json"
    args = ["leaks", str(gold), "--profile", "pseudonymise", "--profile", "hipaa-safe-harbor", "-o", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["pseudonymise"]["overall"]["leaked"] == 0
    assert data["hipaa-safe-harbor"]["overall"]["items"] == 2
    assert "John Smith" not in out.read_text(encoding="utf-8")


def test_leaks_need_something_to_score(gold: Path) -> None:
    result = runner.invoke(app, ["leaks", str(gold)])
    assert result.exit_code == 2
