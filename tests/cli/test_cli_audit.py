"""``anonymed audit``: attack a user's embedding file, build a benchmark, run the quick grid."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from anonymed.cli.audit import app

runner = CliRunner()


def _model(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A KeyedVectors file where each patient's two name tokens lie together, near their diagnoses."""
    from gensim.models import KeyedVectors

    rng = np.random.default_rng(0)
    diagnoses = [f"condition{chr(97 + i)}" for i in range(12)]
    words, vectors, names, lines = list(diagnoses), list(rng.normal(size=(12, 16))), [], []
    for p in range(30):
        own = rng.choice(12, 3, replace=False)
        centre = 3 * np.mean([vectors[i] for i in own], axis=0) + 0.5 * rng.normal(size=16)
        code = chr(97 + p // 26) + chr(97 + p % 26)  # names are letters only, as the tokenizer sees them
        first, last = f"given{code}", f"family{code}"
        words += [first, last]
        vectors += [centre + 0.2 * rng.normal(size=16), centre + 0.2 * rng.normal(size=16)]
        names.append(f"{first.title()} {last.title()}")
        lines.append(f"{names[-1]}\t" + "; ".join(diagnoses[i] for i in own))
    wv = KeyedVectors(vector_size=16)
    wv.add_vectors(words, np.asarray(vectors, dtype=np.float32))
    model = tmp_path / "model.kv"
    wv.save(str(model))
    (tmp_path / "names.txt").write_text("\n".join(names) + "\n", encoding="utf-8")
    (tmp_path / "diagnoses.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return model, tmp_path / "names.txt", tmp_path / "diagnoses.tsv"


def test_embeddings_finds_the_leak_in_a_planted_model_and_writes_json(tmp_path: Path) -> None:
    model, names, diagnoses = _model(tmp_path)
    report = tmp_path / "report.json"
    args = ["embeddings", str(model), "--names", str(names), "--diagnoses", str(diagnoses), "--seed", "1"]
    args += ["--permutations", "200", "--target-sets", "50", "--targets", "6", "--min-patients", "3"]
    args += ["-o", str(report)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "verdict: LEAKS" in result.output
    data = json.loads(report.read_text(encoding="utf-8"))
    assert [row["metric"] for row in data["rows"]] == ["cosine", "cityblock"]
    assert data["rows"][0]["names"]["found"] >= 27 and data["rows"][0]["names"]["significant_holm"]
    assert "givenaa" not in report.read_text(encoding="utf-8").lower()  # counts only, no names


def test_embeddings_reports_a_missing_file_without_a_traceback(tmp_path: Path) -> None:
    model, _, _ = _model(tmp_path)
    result = runner.invoke(app, ["embeddings", str(model), "--names", str(tmp_path / "absent.txt")])
    assert result.exit_code == 2
    assert "absent.txt" in result.output and "Traceback" not in result.output


def test_make_benchmark_writes_the_ground_truth_and_the_copies(tmp_path: Path) -> None:
    out = tmp_path / "bench"
    args = [
        "make-benchmark",
        "--quick",
        "--patients",
        "8",
        "--protections",
        "removal",
        "-o",
        str(out),
        "--no-progress",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    meta = json.loads((out / "benchmark.json").read_text(encoding="utf-8"))
    assert meta["counts"]["patients"] == 8 and meta["copies"] == ["removal"]
    assert (out / "copies" / "removal.jsonl").exists() and (out / "patients.jsonl").exists()


@pytest.mark.slow
def test_quick_benchmark_shows_the_removal_leak_and_words_holding(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    args = ["benchmark", "--quick", "--json", str(report), "-o", str(tmp_path / "report.md"), "--no-progress"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    verdicts = {v["protection"]: v for v in json.loads(report.read_text(encoding="utf-8"))["verdicts"]}
    assert verdicts["removal"]["verdict"] == "LEAKS" and verdicts["removal"]["names_significant"] >= 1
    assert verdicts["words"]["verdict"].startswith("holds")
    assert "## Verdicts" in (tmp_path / "report.md").read_text(encoding="utf-8")
