"""Before / after a retrained tagger, on the reviewed notes held out from its training."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from review_support import PLANTED

from anonymed.config import PipelineConfig
from anonymed.detect.tagger.detector import shipped_model_path
from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.evaluate.detection import evaluate_detection
from anonymed.evaluate.tokens import tokenize
from anonymed.pipeline import Pipeline
from anonymed.randomness import check_random_state
from anonymed.review.decisions import DecisionLog, Event
from anonymed.review.export import export
from anonymed.review.folder import ReviewFolder
from anonymed.review.learning import gold_notes
from anonymed.review.outcome import outcomes
from anonymed.review.report import build_report
from anonymed.review.report_html import review_html
from anonymed.train.fingerprint import write_fingerprint

MISSED = {"n1": PLANTED, "n2": "Mary Quince", "n4": "Lucas Pretorius"}


def finish(folder: ReviewFolder) -> None:
    """Mark the missed names and finish every note (the detected spans count as accepted)."""
    log = DecisionLog(folder.decisions_path)
    for note in folder.notes:
        if note.id in MISSED:
            start = note.text.index(MISSED[note.id])
            log.append(Event("alice", note.key, "mark", start, start + len(MISSED[note.id]), "NAME"), note)
        log.append(Event("alice", note.key, "done"), note)


def retrained(tmp_path: Path, annotations: Path) -> Path:
    """A model folder whose fingerprint lists the exported notes, as `train recognizer --extra` writes it
    (the weights are the shipped model's: this test checks which notes are scored, not the training)."""
    folder = tmp_path / "after"
    folder.mkdir()
    shipped = shipped_model_path("en")
    for name in ("model.crfsuite", "meta.json", "lexicons.json.gz"):
        (folder / name).symlink_to(shipped / name)
    lines = [json.loads(line) for line in annotations.read_text().splitlines()]
    write_fingerprint(folder, [Document(x["id"], x["text"]) for x in lines])
    return folder


def test_a_hold_out_leaves_notes_out_of_the_annotations(folder: ReviewFolder, tmp_path: Path) -> None:
    finish(folder)
    done = export(folder, tmp_path / "out", holdout=0.5, rng=check_random_state(3))
    lines = (tmp_path / "out" / "annotations.jsonl").read_text().splitlines()
    assert (done.notes, done.held_out) == (3, 3) and len(lines) == 3
    again = export(folder, tmp_path / "again", holdout=0.5, rng=check_random_state(3))
    assert again == done and (tmp_path / "again" / "annotations.jsonl").read_text().splitlines() == lines
    with pytest.raises(ConfigError, match="holdout"):
        export(folder, tmp_path / "bad", holdout=1.0, rng=check_random_state(3))


def test_the_report_scores_both_models_on_the_held_out_notes_only(
    folder: ReviewFolder, tmp_path: Path
) -> None:
    finish(folder)
    export(folder, tmp_path / "out", holdout=0.5, rng=check_random_state(3))
    after = retrained(tmp_path, tmp_path / "out" / "annotations.jsonl")
    trained_ids = {
        json.loads(x)["id"] for x in (tmp_path / "out" / "annotations.jsonl").read_text().splitlines()
    }
    report = build_report(folder, models=(shipped_model_path("en"), after))
    learning = report["learning"]
    assert (learning["held_out_notes"], learning["left_out_trained_on"]) == (3, 3)
    # by hand: the held-out notes with the reviewers' PHI as gold, the tagger alone, token recall
    found = outcomes(folder.notes, DecisionLog(folder.decisions_path, writable=False))
    held = [doc for doc in gold_notes(folder, found) if doc.id not in trained_ids]
    assert len(held) == 3
    gold_tokens = sum(len(tokenize(doc.text, s.start, s.end)) for doc in held for s in doc.gold)
    assert learning["gold_tokens"] == gold_tokens > 0
    tagger = Pipeline(PipelineConfig(detectors=("tagger",)))
    expected = evaluate_detection((doc, tagger.detect(doc).spans) for doc in held).overall.tokens.recall
    figures = learning["variants"]["tagger"]
    assert figures["before"]["overall"]["recall"] == pytest.approx(expected)
    assert figures["after"] == figures["before"]  # the same weights: the same figures
    assert set(learning["variants"]) == {"tagger", "detection"}  # patterns + the tagger of each model
    page = review_html(report)
    assert "Before / after retraining" in page
    for note in folder.notes:
        assert note.text not in page and note.text not in json.dumps(report)
    assert PLANTED not in json.dumps(report)


def test_no_held_out_note_and_no_fingerprint_are_said(folder: ReviewFolder, tmp_path: Path) -> None:
    finish(folder)
    export(folder, tmp_path / "out")
    after = retrained(tmp_path, tmp_path / "out" / "annotations.jsonl")
    learning = build_report(folder, models=(shipped_model_path("en"), after))["learning"]
    assert learning["held_out_notes"] == 0 and learning["variants"] == {} and "hold" in learning["reason"]
    (after / "training-notes.json").unlink()
    with pytest.raises(ConfigError, match=r"training-notes\.json"):
        build_report(folder, models=(shipped_model_path("en"), after))
