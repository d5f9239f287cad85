"""Training fingerprints: one digest per real training note, shipped with each model, kept current."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from anonymed.cli.train import app
from anonymed.detect.tagger.detector import SHIPPED_MODELS, shipped_model_path
from anonymed.document import Document
from anonymed.errors import ResourceError
from anonymed.train.fingerprint import (
    FINGERPRINT_FILE,
    note_digest,
    overlap,
    read_fingerprint,
    write_fingerprint,
)
from anonymed.train.recipe import RecognizerRecipe, real_documents


def test_the_digest_ignores_spacing_and_line_ends_but_not_words() -> None:
    assert note_digest("Seen by\nDr  Smith.\n") == note_digest("Seen by Dr Smith.")
    assert note_digest("Seen by Dr Smith.") != note_digest("Seen by Dr Smyth.")


def test_a_fingerprint_round_trips_and_finds_the_overlap(tmp_path: Path) -> None:
    trained = [Document("t1", "first note"), Document("t2", "second note")]
    write_fingerprint(tmp_path, trained)
    fingerprint = read_fingerprint(tmp_path)
    assert fingerprint == {note_digest("first note"), note_digest("second note")}
    gold = [Document("g1", "second\nnote"), Document("g2", "unseen note")]
    assert overlap(gold, fingerprint) == ["g1"]
    assert read_fingerprint(tmp_path / "elsewhere") is None
    (tmp_path / FINGERPRINT_FILE).write_text('{"format": "other"}')
    with pytest.raises(ResourceError, match="not an anonymed-training-notes"):
        read_fingerprint(tmp_path)


@pytest.mark.parametrize("lang", sorted(SHIPPED_MODELS))
def test_each_shipped_model_carries_the_fingerprint_of_its_training_notes(lang: str) -> None:
    fingerprint = read_fingerprint(shipped_model_path(lang))
    notes = real_documents(RecognizerRecipe(lang))
    assert fingerprint == {note_digest(doc.text) for doc in notes}  # regenerate: anonymed train fingerprint


def _root(tmp_path: Path) -> Path:
    root = tmp_path / "training"
    (root / "physionet_deid").mkdir(parents=True)
    (root / "wikiann").mkdir()
    notes = [
        ("1", "1", "Seen by Dr. Healey on 7/22.", "1 1 12 18 HCPName Healey\n"),
        ("2", "1", "BP stable.", ""),
    ]
    (root / "physionet_deid" / "id.text").write_text(
        "".join(f"START_OF_RECORD={p}||||{n}||||\n{text}||||END_OF_RECORD\n\n" for p, n, text, _ in notes)
    )
    (root / "physionet_deid" / "id-phi.phrase").write_text("".join(phrase for *_, phrase in notes))
    (root / "wikiann" / "en.conll").write_text("Paris\tB-LOC\nis\tO\n")
    return root


def test_train_recognizer_writes_the_fingerprint_and_train_fingerprint_rewrites_it(tmp_path: Path) -> None:
    root, model, again = _root(tmp_path), tmp_path / "model", tmp_path / "again"
    args = ["--lang", "en", "--data", str(root), "--no-progress"]
    result = CliRunner().invoke(app, ["recognizer", *args, "--out", str(model), "--iterations", "3"])
    assert result.exit_code == 0, result.output
    assert read_fingerprint(model) == {note_digest("Seen by Dr. Healey on 7/22."), note_digest("BP stable.")}
    result = CliRunner().invoke(
        app, ["fingerprint", "--lang", "en", "--data", str(root), "--out", str(again)]
    )
    assert result.exit_code == 0, result.output
    assert (again / FINGERPRINT_FILE).read_bytes() == (model / FINGERPRINT_FILE).read_bytes()
