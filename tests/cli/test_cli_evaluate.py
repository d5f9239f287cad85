"""``anonymed evaluate detection`` on tiny PhysioNet-format gold files and spans files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from anonymed.cli import evaluate_app as app
from anonymed.cli.evaluate import load_predictions
from anonymed.document import Span
from anonymed.train.recipe import training_root

runner = CliRunner()

NOTE = "Seen by Dr John Smith on 12/03/2020.\n"

ID_TEXT = (
    f"START_OF_RECORD=1||||1||||\n{NOTE}||||END_OF_RECORD\n\n"
    "START_OF_RECORD=1||||2||||\nSmith left.\n||||END_OF_RECORD\n\n"
    "START_OF_RECORD=1||||3||||\nNothing here.\n||||END_OF_RECORD\n\n"
)
PHRASES = (
    "1 1 11 21 HCPName John Smith\n"
    "1 1 25 35 Date 12/03/2020\n"
    "1 2 0 5 HCPName Smith\n"
    "1 3 0 4 PTName Wrong\n"  # does not slice to its text: record 1-3 fails to read
)


@pytest.fixture
def gold_dir(tmp_path: Path) -> Path:
    """A PhysioNet deid folder with three notes, the third unreadable."""
    folder = tmp_path / "gold"
    folder.mkdir()
    (folder / "id.text").write_text(ID_TEXT, encoding="utf-8")
    (folder / "id-phi.phrase").write_text(PHRASES, encoding="utf-8")
    return folder


def span_json(text: str, needle: str, label: str) -> dict[str, Any]:
    """The JSON of a predicted span over the first ``needle`` in ``text``."""
    start = text.index(needle)
    return Span.of(text, start, start + len(needle), label, source="test").to_json()


def write_lines(path: Path, records: list[dict[str, Any]]) -> Path:
    """Write JSONL records."""
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_load_predictions_keeps_spans_and_failed_records_apart(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "spans.jsonl",
        [
            {"id": "a", "spans": [span_json(NOTE, "John Smith", "NAME")]},
            {"id": "b", "anonymed_error": "timeout"},  # detect failed on this document
            {"id": "c", "spans": [{"start": 0, "end": 2, "label": "FOO", "text": "ab"}]},  # unknown label
            {"id": "a", "spans": []},  # a repeated id is kept, in order
        ],
    )
    predictions, failures = load_predictions(path)
    assert [(rid, [(s.start, s.end, s.label.value) for s in spans]) for rid, spans in predictions] == [
        ("a", [(11, 21, "NAME")]),
        ("a", []),
    ]
    assert [f.record_id for f in failures] == ["b", "c"]


@pytest.mark.parametrize("fmt", [["--gold-format", "physionet-deid"], []])  # named, or guessed from id.text
def test_cli_prints_tables_and_writes_the_report(tmp_path: Path, gold_dir: Path, fmt: list[str]) -> None:
    predicted = write_lines(
        tmp_path / "spans.jsonl",
        [
            {"id": "1-1", "spans": [span_json(NOTE, "John Smith", "NAME"), span_json(NOTE, "Seen", "NAME")]},
            {"id": "9-9", "spans": []},  # no such gold document
            {"id": "1-3", "spans": []},  # its gold record failed: not counted as unknown
        ],
    )
    report = tmp_path / "report.json"
    args = ["detection", str(predicted), "--gold", str(gold_dir), *fmt, "-o", str(report)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "NAME/clinician" in result.stdout
    data = json.loads(report.read_text(encoding="utf-8"))
    tokens = data["overall"]["tokens"]
    # gold tokens: John Smith 12 03 2020 (1-1), Smith (1-2); found John Smith; "Seen" is spurious.
    assert (tokens["tp"], tokens["fp"], tokens["fn"]) == (2, 1, 4)
    assert data["overall"]["entities"] == {"found": 1, "total": 3, "recall": 0.3333}
    assert data["by_label"]["DATE"]["tokens"]["recall"] == 0.0
    assert data["by_full_label"]["NAME/clinician"]["tokens"]["recall"] == pytest.approx(2 / 3, abs=1e-4)
    assert data["documents"] == 2
    assert data["missing_predictions"] == 1  # 1-2 has no record
    assert data["unknown_predictions"] == 1  # 9-9
    assert data["gold_read_failures"] == 1
    assert "gold failed: record 3 of the input (id '1-3')" in result.stderr
    assert "Wrong" not in result.stderr  # the failed record's text is not shown


def test_cli_reports_a_span_off_the_text_with_exit_code_2(tmp_path: Path, gold_dir: Path) -> None:
    bad = {"start": 0, "end": 4, "label": "NAME", "text": "Nope"}  # the note has "Seen" there
    predicted = write_lines(tmp_path / "spans.jsonl", [{"id": "1-1", "spans": [bad]}])
    result = runner.invoke(app, ["detection", str(predicted), "--gold", str(gold_dir)])
    assert result.exit_code == 2
    assert "'1-1'" in result.stderr and "0-4" in result.stderr
    assert "Seen" not in result.stderr and "Nope" not in result.stderr


def test_cli_rejects_an_unknown_gold_format(tmp_path: Path, gold_dir: Path) -> None:
    predicted = write_lines(tmp_path / "spans.jsonl", [])
    args = ["detection", str(predicted), "--gold", str(gold_dir), "--gold-format", "i2b2"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "i2b2" in result.stderr


def test_cli_requires_the_gold_option(tmp_path: Path) -> None:
    predicted = write_lines(tmp_path / "spans.jsonl", [])
    result = runner.invoke(app, ["detection", str(predicted)])
    assert result.exit_code != 0


def test_gold_notes_the_shipped_model_was_trained_on_are_a_warning(tmp_path: Path) -> None:
    shipped = training_root() / "physionet_deid"
    records = (shipped / "id.text").read_text(encoding="utf-8").split("||||END_OF_RECORD\n")[:2]
    gold = tmp_path / "gold"
    gold.mkdir()
    (gold / "id.text").write_text("".join(r + "||||END_OF_RECORD\n" for r in records), encoding="utf-8")
    (gold / "id-phi.phrase").write_text("", encoding="utf-8")
    spans = write_lines(tmp_path / "spans.jsonl", [{"id": "1-1", "spans": []}, {"id": "1-2", "spans": []}])
    report = tmp_path / "report.json"
    result = runner.invoke(app, ["detection", str(spans), "--gold", str(gold), "-o", str(report)])
    assert result.exit_code == 0, result.output
    shown = " ".join(result.output.split())
    assert "2 of 2 gold notes (100%) were training notes of the model" in shown and "tagger-en" in shown
    trained = json.loads(report.read_text())["trained_on_gold"]
    assert list(trained.values()) == [2] and next(iter(trained)).endswith("tagger-en")


def test_unseen_gold_notes_bring_no_training_warning(gold_dir: Path, tmp_path: Path) -> None:
    spans = write_lines(tmp_path / "spans.jsonl", [{"id": "1-1", "spans": []}, {"id": "1-2", "spans": []}])
    result = runner.invoke(app, ["detection", str(spans), "--gold", str(gold_dir)])
    assert "training notes" not in result.output
