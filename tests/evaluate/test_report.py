"""The report: configuration, methods, and a tiny end-to-end build through the CLI (a few seconds)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anonymed.cli import evaluate_app as app
from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.evaluate.methods import Detections, build_method
from anonymed.evaluate.report import Evaluation
from anonymed.evaluate.report_config import RESOURCES, from_mapping, load_config, resolve
from anonymed.methods import sentences as sentences_module

runner = CliRunner()

ID_TEXT = (
    "START_OF_RECORD=1||||1||||\nSeen by Dr John Smith on 12/03/2020 at Boston.\n||||END_OF_RECORD\n\n"
    "START_OF_RECORD=1||||2||||\nSmith called 555-123-4567 about the pain.\n||||END_OF_RECORD\n\n"
)
PHRASES = (
    "1 1 11 21 HCPName John Smith\n"
    "1 1 25 35 Date 12/03/2020\n"
    "1 1 39 45 Location Boston\n"
    "1 2 0 5 HCPName Smith\n"
    "1 2 13 25 Phone 555-123-4567\n"
)
CARDIO = "Chest pain with shortness of breath; echocardiogram showed {} ejection fraction. Heart murmur."
ORTHO = "Fracture of the {} femur; the knee and hip were splinted. Orthopedic follow-up for the bone."


def write_corpora(folder: Path) -> tuple[Path, Path]:
    """A two-note PhysioNet folder and an MTSamples-like CSV with two specialties of eight notes."""
    gold = folder / "gold"
    gold.mkdir()
    (gold / "id.text").write_text(ID_TEXT, encoding="utf-8")
    (gold / "id-phi.phrase").write_text(PHRASES, encoding="utf-8")
    path = folder / "mtsamples.csv"
    words = ["normal", "reduced", "left", "right", "severe", "mild", "old", "new"]
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            ["note_id", "description", "medical_specialty", "sample_name", "transcription", "keywords"]
        )
        for i, word in enumerate(words):
            writer.writerow([f"c{i}", "", "Cardiovascular / Pulmonary", "", CARDIO.format(word), ""])
            writer.writerow([f"o{i}", "", "Orthopedic", "", ORTHO.format(word), ""])
    return gold, path


TINY_CONFIG = """
[report]
title = "tiny"
seed = 3
methods = ["replace", "words:5", "sentences"]
[anonymity]
corpus = "{gold}"
[mtsamples]
corpus = "{csv}"
min_class_size = 2
test_share = 0.5
[retention]
k = 2
[extrinsic]
folds = 2
[intrinsic]
methods = ["words:5"]
runs = 2
benchmarks = ["pedersen_physicians"]
[intrinsic.embedding]
vector_size = 8
epochs = 1
min_count = 1
bucket = 1000
workers = 1
[operators]
DATE = "fake"
AGE = "fake"
"""


@pytest.fixture
def tiny_config(tmp_path: Path) -> Path:
    """The tiny report configuration and its corpora."""
    gold, csv_path = write_corpora(tmp_path)
    path = tmp_path / "tiny.toml"
    path.write_text(TINY_CONFIG.format(gold=gold, csv=csv_path), encoding="utf-8")
    return path


def without_sentences(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make sentence substitution look absent (and keep the test from building a bank)."""
    monkeypatch.setattr(sentences_module, "MODULES", ("anonymed.sentences.no_such_module",))


def test_tiny_report_builds_every_section_and_file(
    tiny_config: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    without_sentences(monkeypatch)
    out = tmp_path / "report"
    result = runner.invoke(app, ["report", str(tiny_config), "-o", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    for name in (
        "report.html",
        "report.md",
        "report.json",
        "metrics_by_method.png",
        "f1_by_degree.png",
        "privacy_utility.png",
        "intrinsic.png",
    ):
        assert (out / name).stat().st_size > 0, name
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert [m["name"] for m in data["methods"]] == ["replace", "words-5"]
    assert any("sentences" in note and "skipped" in note for note in data["notes"])
    anonymity = data["anonymity"]["methods"]
    assert anonymity["none"]["macro"]["lr"] == 0.0  # the untouched notes leak everything
    assert anonymity["words-5"]["macro"]["smr"] == 1.0  # every word replaced
    assert "detection" in anonymity["replace"] and "detection" not in anonymity["words-5"]
    assert data["anonymity"]["trained_on_gold"] == {}  # the tiny notes are no model's training notes
    assert set(data["retention"]["methods"]) == {"replace", "words-5"}
    assert data["extrinsic"]["degrees"] == {"words-5": "5"}
    assert set(data["intrinsic"]["settings"]) == {"original", "words-5"}
    markdown = (out / "report.md").read_text(encoding="utf-8")
    assert "| words-5 |" in markdown and "![" in markdown
    assert "<img src='privacy_utility.png'" in (out / "report.html").read_text(encoding="utf-8")


def test_quick_shrinks_the_default_configuration() -> None:
    config = load_config(RESOURCES / "report" / "default.toml")
    assert config.intrinsic is not None and config.intrinsic.runs == 5
    quick = config.quick()
    assert quick.anonymity is not None and quick.anonymity.limit == 200
    assert quick.intrinsic is not None and quick.intrinsic.runs == 2
    assert quick.extrinsic is not None and quick.extrinsic.folds == 2
    assert quick.task.limit == 400


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"nonsense": {}}, "unknown report tables"),
        ({"report": {"colour": "red"}}, "unknown [report] keys"),
        ({"anonymity": {"tau": 0.9}}, "needs a corpus"),
        ({"anonymity": {"corpus": "x", "tau": 2.0}}, "tau"),
        ({"extrinsic": {"folds": 5, "trees": 3}}, "unknown keys"),
        ({"intrinsic": {"runs": 0}}, "runs >= 1"),
    ],
)
def test_bad_configuration_is_refused_with_its_name(data: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
        from_mapping(data)


def test_resource_paths_point_into_the_package() -> None:
    assert resolve("resource:wordsim") == RESOURCES / "wordsim"
    assert resolve("data/x") == Path("data/x")
    assert resolve("") is None


@pytest.mark.parametrize(
    ("spec", "name", "kind", "degree"),
    [
        ("replace", "replace", "replace", None),
        ("words:3-14", "words-3-14", "words", "3-14"),
        ("words", "words-5", "words", "5"),
        ("hybrid:7", "hybrid-7", "hybrid", "7"),
        ("sentences:4", "sentences-4", "sentences", "4"),
        ("hybrid:sentences", "hybrid-sentences", "hybrid", None),
    ],
)
def test_method_specs(spec: str, name: str, kind: str, degree: str | None) -> None:
    method = build_method(spec)
    assert (method.name, method.kind, method.degree) == (name, kind, degree)


@pytest.mark.parametrize("spec", ["shuffle", "sentences:five", "words:1"])  # unknown, bad K, N < 2
def test_bad_method_is_refused(spec: str) -> None:
    with pytest.raises(ConfigError):
        build_method(spec)


def test_missing_sentence_module_is_a_reason_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    without_sentences(monkeypatch)
    reason = build_method("sentences").unavailable()
    assert reason is not None and "not available" in reason
    assert build_method("hybrid:sentences").unavailable() == reason
    assert build_method("words:5").unavailable() is None


def test_replace_detects_once_and_substitutes_per_seed() -> None:
    from anonymed.config import PipelineConfig

    detections = Detections(PipelineConfig(operators={"DATE": "fake", "AGE": "fake"}))  # type: ignore[dict-item]
    method = build_method("replace", detections=detections)
    doc = Document("d", "Seen by Dr John Smith on 12/03/2020.")
    first, again, other = (method.anonymize([doc], seed)[0] for seed in (1, 1, 2))
    assert len(detections._detected) == 1
    assert first.output == again.output
    assert first.spans == other.spans
    assert "John Smith" not in (first.output or "")


def test_anonymity_on_the_shipped_models_training_notes_says_so() -> None:
    config = from_mapping(
        {
            "report": {"methods": ["words:5"]},
            "anonymity": {
                "corpus": "resource:training/physionet_deid",
                "format": "physionet-deid",
                "limit": 3,
            },
        }
    )
    evaluation = Evaluation(config)
    section = evaluation.anonymity()
    assert section["trained_on_gold"] == {"tagger-en": 3}
    assert any("3 of 3 notes are training notes" in note for note in evaluation.notes)
