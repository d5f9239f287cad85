"""``anonymed review sample|report|export`` and ``anonymed release report`` end to end on small files."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from review_support import PLANTED, write_input
from typer.testing import CliRunner, Result

from anonymed.cli import app
from anonymed.review.decisions import DecisionLog, Event
from anonymed.review.folder import ReviewFolder, fingerprint
from anonymed.train.annotations import read_annotations

runner = CliRunner()


def said(result: Result) -> str:
    """The command's output with rich's line wrapping undone."""
    return " ".join(result.output.split())


def sample(tmp_path: Path, *extra: str) -> Path:
    source = write_input(tmp_path / "notes.jsonl")
    folder = tmp_path / "review"
    result = runner.invoke(
        app,
        [
            "review",
            "sample",
            str(source),
            "-o",
            str(folder),
            "--n",
            "4",
            "--detectors",
            "patterns",
            "--length-bands",
            "1",
            "--seed",
            "3",
            *extra,
        ],
    )
    assert result.exit_code == 0, result.output
    return folder


def finish_all(path: Path) -> None:
    folder = ReviewFolder(path)
    log = DecisionLog(folder.decisions_path)
    for note in folder.notes:
        if PLANTED in note.text:
            start = note.text.index(PLANTED)
            log.append(Event("alice", note.key, "mark", start, start + len(PLANTED), "NAME"), note)
        log.append(Event("alice", note.key, "done"), note)


def test_sample_report_and_export(tmp_path: Path) -> None:
    folder = sample(tmp_path, "--oversample", "2", "--low-confidence", "0.92")
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["command"][0] == "anonymed" and manifest["design"]["oversample"] == 2  # its own argv
    assert len((folder / "notes.jsonl").read_text().splitlines()) == 4
    finish_all(folder)
    result = runner.invoke(app, ["review", "report", str(folder), "--target", "0.01"])
    assert result.exit_code == 0, result.output
    assert "4 of 4 notes reviewed" in said(result)
    report = json.loads((folder / "report.json").read_text())
    assert report["target"]["per_token"] == 0.01 and (folder / "report.html").is_file()
    assert PLANTED not in (folder / "report.html").read_text()
    out = tmp_path / "learned"
    result = runner.invoke(app, ["review", "export", str(folder), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert {p.name for p in out.iterdir()} == {"allow.csv", "deny.csv", "annotations.jsonl"}
    assert stat.S_IMODE(out.stat().st_mode) == 0o700  # the deny list and the annotations hold PHI
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in out.iterdir())
    assert stat.S_IMODE((folder / "report.json").stat().st_mode) == 0o600
    # what `anonymed train recognizer --extra` reads: every finished note, with the confirmed spans
    notes = read_annotations(out / "annotations.jsonl")
    assert len(notes) == 4 and all(n.lang == "en" for n in notes)
    drawn = ReviewFolder(folder).notes
    marked = sum(PLANTED in n.text for n in drawn)  # finish_all marks the planted name as missed
    assert sum(len(n.gold) for n in notes) == sum(len(n.spans) for n in drawn) + marked


def test_export_holds_out_and_report_shows_before_and_after(tmp_path: Path) -> None:
    from anonymed.detect.tagger.detector import shipped_model_path

    folder = sample(tmp_path, "--many-spans", "2")
    assert json.loads((folder / "manifest.json").read_text())["design"]["many_spans"] == 2
    finish_all(folder)
    out = tmp_path / "learned"
    result = runner.invoke(
        app, ["review", "export", str(folder), "-o", str(out), "--holdout", "0.5", "--seed", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "2 annotated notes" in said(result) and "2 notes held out" in said(result)
    shipped = str(shipped_model_path("en"))
    alone = runner.invoke(app, ["review", "report", str(folder), "--before-model", shipped])
    assert alone.exit_code == 2 and "go together" in said(alone)
    both = runner.invoke(
        app, ["review", "report", str(folder), "--before-model", shipped, "--after-model", shipped]
    )
    assert both.exit_code == 0, both.output
    assert "before / after on 4 held-out reviewed notes" in said(both)
    assert json.loads((folder / "report.json").read_text())["learning"]["held_out_notes"] == 4


def test_errors_are_one_line_and_exit_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["review", "report", str(tmp_path)])
    assert result.exit_code == 2 and "not a review folder" in said(result)
    folder = sample(tmp_path)
    again = runner.invoke(
        app, ["review", "sample", str(tmp_path / "notes.jsonl"), "-o", str(folder), "--detectors", "patterns"]
    )
    assert again.exit_code == 2 and "not an empty folder" in said(again)
    bad = runner.invoke(app, ["review", "serve", str(folder), "--log-level", "loud"])
    assert bad.exit_code == 2 and "--log-level" in said(bad)
    too_small = runner.invoke(
        app,
        [
            "review",
            "sample",
            str(tmp_path / "notes.jsonl"),
            "-o",
            str(tmp_path / "r2"),
            "--n",
            "3",
            "--detectors",
            "patterns",
            "--length-bands",
            "3",
        ],
    )
    assert too_small.exit_code == 2 and "strata" in said(too_small)


def test_release_report_gathers_the_run_the_privacy_report_and_the_review(tmp_path: Path) -> None:
    source = write_input(tmp_path / "notes.jsonl")
    summary, privacy = tmp_path / "run.json", tmp_path / "privacy.jsonl"
    config = tmp_path / "deid.toml"
    config.write_text(
        '[pipeline]\ndetectors = ["patterns"]\nepsilon = 2.0\n[operators]\nNAME = "tag"\nDATE = "dp_date"\n'
    )
    deid = runner.invoke(
        app,
        [
            "deid",
            str(source),
            "-o",
            str(tmp_path / "out.jsonl"),
            "--config",
            str(config),
            "--summary",
            str(summary),
            "--privacy-report",
            str(privacy),
            "--no-progress",
        ],
    )
    assert deid.exit_code == 0, deid.output
    folder = sample(tmp_path)
    finish_all(folder)
    release = tmp_path / "release.json"
    result = runner.invoke(
        app,
        [
            "release",
            "report",
            "--summary",
            str(summary),
            "-o",
            str(release),
            "--input",
            str(source),
            "--config",
            str(config),
            "--privacy-report",
            str(privacy),
            "--review",
            str(folder),
            "--command",
            "anonymed deid notes.jsonl -o out.jsonl --config deid.toml",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(release.read_text())
    assert data["input"]["fingerprint"] == fingerprint(source) and data["input"]["read"] == 6
    assert data["configuration"]["operators"]["NAME"] == "tag" and data["configuration"]["detectors"] == [
        "patterns"
    ]
    assert data["replacements"]["spans"] == sum(
        data["replacements"]["by_label"][k]["spans"] for k in data["replacements"]["by_label"]
    )
    assert data["privacy"]["documents"] == 6 and data["privacy"]["epsilon_per_document_max"] <= 2.0 + 1e-9
    assert data["privacy"]["documents_with_dp"] >= 1 and data["privacy"]["draws_by_mechanism"]
    assert data["review"]["same_input"] is True and data["review"]["reviewed_notes"] == 4
    assert data["review"]["residual_per_1000_tokens"]["estimate"] is not None
    assert data["commands"] == ["anonymed deid notes.jsonl -o out.jsonl --config deid.toml"]
    assert data["configuration"]["profile"] == "pseudonymise"
    assert data["configuration"]["source"].startswith("run summary")  # the summary's effective configuration
    assert data["configuration"]["sources"]["operators.NAME"] == "file"
    assert not any("profile" in item for item in data["pending"]) and any(
        "audit" in item for item in data["pending"]
    )
    page = (tmp_path / "release.html").read_text()
    assert "Review: what is left" in page and PLANTED not in page and "Mary Quince" not in page
