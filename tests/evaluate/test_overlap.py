"""Gold notes a shipped model was trained on are found, whichever reader gave them."""

from __future__ import annotations

from pathlib import Path

from anonymed.document import Document
from anonymed.evaluate.overlap import training_overlaps
from anonymed.train.fingerprint import write_fingerprint
from anonymed.train.recipe import RecognizerRecipe, dev_documents


def test_shipped_development_notes_are_found_in_the_shipped_model() -> None:
    dev = dev_documents(RecognizerRecipe("en"))[:5]
    gold = [*dev, Document("new", "A note written for this test, seen by no model.")]
    [found] = training_overlaps(gold)
    assert found.model.name == "tagger-en"
    assert found.ids == tuple(doc.id for doc in dev) and found.gold == 6


def test_unseen_notes_overlap_nothing_and_other_models_are_checked(tmp_path: Path) -> None:
    gold = [Document("a", "A note written for this test."), Document("b", "Another one.")]
    assert training_overlaps(gold) == []
    write_fingerprint(tmp_path / "mine", [Document("x", "Another   one.")])
    [found] = training_overlaps(gold, [tmp_path / "mine", tmp_path / "no-fingerprint"])
    assert found.ids == ("b",) and found.share == 0.5
