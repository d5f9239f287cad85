"""``anonymed evaluate anonymity|retention|extrinsic|intrinsic|train-classifier`` on tiny corpora."""

from __future__ import annotations

import csv
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


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """An MTSamples-like CSV: two specialties of eight notes each."""
    path = tmp_path / "mt.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            ["note_id", "description", "medical_specialty", "sample_name", "transcription", "keywords"]
        )
        for i in range(8):
            writer.writerow(
                [f"c{i}", "", "Cardiology", "", f"Chest pain, heart murmur and dyspnea, visit {i}.", ""]
            )
            writer.writerow(
                [f"o{i}", "", "Orthopedic", "", f"Femur fracture, knee cast and bone pain, visit {i}.", ""]
            )
    return path


def test_anonymity_of_a_method_run_now(gold: Path, tmp_path: Path) -> None:
    out = tmp_path / "anonymity.json"
    result = runner.invoke(
        app, ["anonymity", str(gold), "--method", "words:5", "--seed", "1", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["words-5"]["micro"]["counts"]["entities"] == 2
    assert data["words-5"]["micro"]["smr"] == 1.0
    assert "SMR" in result.output


def test_anonymity_of_an_anonymized_file_paired_by_id(gold: Path, tmp_path: Path) -> None:
    anonymized = tmp_path / "anon"
    anonymized.mkdir()
    (anonymized / "id.text").write_text(ID_TEXT.replace("John Smith", "Paul Brown"), encoding="utf-8")
    out = tmp_path / "a.json"
    result = runner.invoke(app, ["anonymity", str(gold), "--anonymized", str(anonymized), "-o", str(out)])
    assert result.exit_code == 0, result.output
    micro = json.loads(out.read_text(encoding="utf-8"))["anon"]["micro"]
    assert (micro["lrdi"], micro["lrqi"]) == (1.0, 0.0)  # the name went, the date stayed


def test_anonymity_needs_something_to_score(gold: Path) -> None:
    result = runner.invoke(app, ["anonymity", str(gold)])
    assert result.exit_code == 2
    assert "--anonymized" in result.output


def test_train_classifier_writes_a_loadable_model(corpus: Path, tmp_path: Path) -> None:
    from anonymed.evaluate.classifier import load_classifier

    folder = tmp_path / "clf"
    result = runner.invoke(
        app, ["train-classifier", "--corpus", str(corpus), "--min-class-size", "2", "-o", str(folder)]
    )
    assert result.exit_code == 0, result.output
    assert load_classifier(folder).classes == ("Cardiology", "Orthopedic")


def test_retention_and_extrinsic_print_their_tables(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    result = runner.invoke(app, ["retention", "--corpus", str(corpus), "-m", "replace", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text(encoding="utf-8"))["replace"]["documents"] > 0
    result = runner.invoke(
        app, ["extrinsic", "--corpus", str(corpus), "--folds", "2", "--min-class-size", "2", "-m", "words:3"]
    )
    assert result.exit_code == 0, result.output
    assert "words-3" in result.output


def test_intrinsic_compares_original_and_method(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "i.json"
    args = [
        "intrinsic",
        "--corpus",
        str(corpus),
        "--runs",
        "1",
        "--epochs",
        "1",
        "--no-progress",
        "-o",
        str(out),
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert set(json.loads(out.read_text(encoding="utf-8"))["settings"]) == {"original", "words-5"}
