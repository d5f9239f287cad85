"""Token classifier fine-tuning: BIO tags of word pieces; a tiny backbone trained, loaded by the plug-in."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from anonymed.detect.plugins import LabelMapper
from anonymed.detect.registry import build_detector
from anonymed.document import Document, Span
from anonymed.errors import ConfigError
from anonymed.labels import Label
from anonymed.train.token_classifier import (
    IGNORED,
    TAGS,
    TokenClassifierParams,
    TokenClassifierTrainer,
    window_tags,
)

WORDS = ["seen", "by", "dr", ".", "smith", "on", "12", "/", "03", "call", "jones", "at", "boston", "ok"]


def note(doc_id: str, text: str, *gold: tuple[str, Label]) -> Document:
    """A document whose gold spans are the first occurrence of each given string."""
    spans = tuple(Span.of(text, text.index(s), text.index(s) + len(s), label) for s, label in gold)
    return Document(doc_id, text, gold=spans)


NOTES = [
    note("a", "Seen by Dr. Smith on 12/03.", ("Smith", Label.NAME), ("12/03", Label.DATE)),
    note("b", "Call Jones at Boston.", ("Jones", Label.NAME), ("Boston", Label.LOCATION)),
    note("c", "Seen by Dr. Jones ok.", ("Jones", Label.NAME)),
    note("d", "ok."),
]


@pytest.mark.parametrize(
    ("offsets", "expected"),
    [
        ([(0, 0)], [IGNORED]),  # special token
        ([(0, 4)], [TAGS.index("O")]),  # "Seen": outside any span
        ([(12, 17)], [TAGS.index("B-NAME")]),  # "Smith": starts the name
        ([(21, 23), (23, 24), (24, 26)], [TAGS.index(f"{p}-DATE") for p in "BII"]),  # "12/03": pieces
    ],
)
def test_word_pieces_get_bio_tags_from_character_offsets(
    offsets: list[tuple[int, int]], expected: list[int]
) -> None:
    assert window_tags(offsets, NOTES[0]) == expected


@pytest.mark.parametrize("tag", TAGS[1:])  # every B-/I- tag of the classifier
def test_every_classifier_tag_maps_to_its_anonymed_label_in_the_plugin(tag: str) -> None:
    pair = LabelMapper.with_overrides()(tag)
    assert pair is not None and pair[0] is Label(tag[2:])  # ID comes out as ID/other (the i2b2 entry)


def test_window_must_be_longer_than_its_overlap() -> None:
    with pytest.raises(ConfigError, match="stride=64"):
        TokenClassifierParams(max_length=32, stride=64)


@pytest.fixture(scope="module")
def backbone(tmp_path_factory: pytest.TempPathFactory, tiny_bert: Callable[..., tuple[Any, Any]]) -> Path:
    """A tiny randomly initialised BERT with a word-level vocabulary, saved as a backbone folder."""
    transformers = pytest.importorskip("transformers")
    folder = tmp_path_factory.mktemp("backbone")
    tokenizer, config = tiny_bert(folder, WORDS)
    transformers.BertModel(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def test_trained_folder_is_loaded_by_the_huggingface_detector(backbone: Path, tmp_path: Path) -> None:
    params = TokenClassifierParams(
        max_steps=40, batch_size=4, learning_rate=0.05, max_length=16, stride=4, threads=1
    )
    trainer = TokenClassifierTrainer(backbone, params, random_state=0).fit(NOTES)
    folder = trainer.save(tmp_path / "model")
    assert trainer.steps_ == 40
    detector = build_detector("huggingface", {"model": str(folder)})
    doc = Document("t", "Seen by Dr. Smith on 12/03. Call Jones at Boston.")
    spans = detector.detect(doc)
    assert spans, "the classifier fitted to these notes finds some PHI"
    assert all(doc.text[s.start : s.end] == s.text and s.source == "huggingface" for s in spans)
    assert {s.text for s in spans} & {"Smith", "Jones", "Boston", "12/03"}
