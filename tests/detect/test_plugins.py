"""Plug-in detectors: label mapping table, a spaCy pipeline trained here, a Hugging Face pipeline."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from anonymed.detect.plugins import (
    HuggingFaceDetector,
    LabelMapper,
    PluginParams,
    SpacyDetector,
    normalise_label,
)
from anonymed.detect.registry import build_detector
from anonymed.document import Document
from anonymed.errors import ConfigError, ResourceError
from anonymed.labels import Label

TEXT = "Seen by Dr. Smith at Mercy Hospital in Boston."


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("PERSON", (Label.NAME, None)),  # spaCy OntoNotes
        ("B-PER", (Label.NAME, None)),  # CoNLL BIO prefix stripped
        ("i-loc", (Label.LOCATION, None)),  # lower case and I- prefix
        ("DOCTOR", (Label.NAME, "clinician")),  # i2b2
        ("HOSPITAL", (Label.LOCATION, "hospital")),  # i2b2
        ("PRENOM", (Label.NAME, None)),  # EDS-pseudo
        ("SECU", (Label.ID, "nir")),  # EDS-pseudo
        ("TIME", (Label.DATE, "time")),  # spaCy
        ("NORP", None),  # nationalities are not PHI: dropped
        ("PRODUCT", None),  # unknown labels are dropped
    ],
)
def test_default_table_maps_common_model_labels(raw: str, expected: tuple[Label, str | None] | None) -> None:
    assert LabelMapper.with_overrides()(raw) == expected


def test_user_table_overrides_and_drops_labels() -> None:
    mapper = LabelMapper.with_overrides({"PRODUCT": "OTHER", "b-org": "LOCATION/hospital", "DATE": ""})
    assert mapper("PRODUCT") == (Label.OTHER, None)
    assert mapper("ORG") == (Label.LOCATION, "hospital")
    assert mapper("DATE") is None


def test_user_table_with_an_unknown_anonymed_label_is_rejected() -> None:
    with pytest.raises(ConfigError, match="SPECIES"):
        LabelMapper.with_overrides({"ANIMAL": "SPECIES"})


def test_prefix_is_only_stripped_from_bio_tags() -> None:
    assert normalise_label("B-PER") == "PER"
    assert normalise_label("BIOID") == "BIOID"


class FakeTokenClassifier:
    """Answers like ``transformers.pipeline("token-classification", aggregation_strategy="simple")``."""

    def __call__(self, text: str) -> list[dict[str, Any]]:
        start = text.index("Smith")
        city = text.index("Boston")
        return [
            {"entity_group": "PER", "score": 0.98, "word": "smith", "start": start, "end": start + 5},
            {"entity_group": "LOC", "score": 0.40, "word": "boston", "start": city, "end": city + 6},
            {"entity_group": "MISC", "score": 0.99, "word": "seen", "start": 0, "end": 4},
        ]


def test_huggingface_entities_are_mapped_with_their_scores() -> None:
    detector = HuggingFaceDetector.with_pipeline(
        FakeTokenClassifier(), PluginParams(model="fake", min_score=0.5)
    )
    spans = detector.detect(Document("d", TEXT))
    assert [(s.text, s.label, s.source, s.score) for s in spans] == [
        ("Smith", Label.NAME, "huggingface", 0.98)
    ]


class WindowedTokenClassifier:
    """Like a real pipeline: reads only the first 600 characters of its input (its window), finds "Smith"."""

    def __call__(self, text: str) -> list[dict[str, Any]]:
        window = text[:600]
        return [
            {"entity_group": "PER", "score": 0.9, "start": i, "end": i + 5}
            for i in range(len(window))
            if window.startswith("Smith", i)
        ]


@pytest.mark.parametrize(
    ("chunk_chars", "found"),
    [
        (500, 40),  # pieces within the window: every mention, anywhere in the note
        (0, 10),  # the whole note at once: the model's window cuts it, as transformers' pipelines do
    ],
)
def test_huggingface_reads_long_notes_in_pieces_within_its_window(chunk_chars: int, found: int) -> None:
    text = "Seen by Dr. Smith today, stable. Follow-up next week with labs.\n" * 40  # 2,560 characters
    params = PluginParams(model="fake", chunk_chars=chunk_chars)
    spans = HuggingFaceDetector.with_pipeline(WindowedTokenClassifier(), params).detect(Document("d", text))
    assert len(spans) == found
    assert all(text[s.start : s.end] == "Smith" for s in spans)  # offsets shifted back into the note


def test_huggingface_model_must_be_a_local_folder(tmp_path: Path) -> None:
    detector = build_detector("huggingface", {"model": str(tmp_path / "missing")})
    with pytest.raises(ResourceError, match="missing"):
        detector.detect(Document("d", TEXT))


def test_plugin_without_a_model_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="model"):
        build_detector("spacy", {})


@pytest.fixture(scope="module")
def spacy_pipeline(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A blank English pipeline with an NER trained here on a few sentences, saved to disk."""
    spacy = pytest.importorskip("spacy")
    from spacy.training import Example

    nlp = spacy.blank("en")
    ner = nlp.add_pipe("ner")
    samples = [
        (TEXT, [(12, 17, "DOCTOR"), (21, 35, "HOSPITAL")]),
        ("Dr. Jones called from Mercy Hospital.", [(4, 9, "DOCTOR"), (22, 36, "HOSPITAL")]),
        ("Pain controlled, sats stable.", []),
    ]
    for _, entities in samples:
        for *_, label in entities:
            ner.add_label(label)
    examples = [Example.from_dict(nlp.make_doc(t), {"entities": e}) for t, e in samples]
    optimizer = nlp.initialize(lambda: examples)
    for _ in range(40):
        nlp.update(examples, sgd=optimizer, drop=0.0)
    folder = tmp_path_factory.mktemp("spacy") / "pipeline"
    nlp.to_disk(folder)
    return folder


def test_spacy_pipeline_loaded_by_path_gives_mapped_spans(spacy_pipeline: Path) -> None:
    detector = build_detector("spacy", {"model": str(spacy_pipeline)})
    spans = detector.detect(Document("d", TEXT))
    assert [(s.text, s.full_label, s.source) for s in spans] == [
        ("Smith", "NAME/clinician", "spacy"),
        ("Mercy Hospital", "LOCATION/hospital", "spacy"),
    ]


def test_spacy_labels_can_be_remapped_by_the_user(spacy_pipeline: Path) -> None:
    detector = SpacyDetector(PluginParams(model=str(spacy_pipeline), labels={"HOSPITAL": ""}))
    assert [s.text for s in detector.detect(Document("d", TEXT))] == ["Smith"]


def test_unknown_spacy_package_is_a_resource_error() -> None:
    pytest.importorskip("spacy")
    detector = SpacyDetector(PluginParams(model="no_such_spacy_package_xyz"))
    with pytest.raises(ResourceError, match="no_such_spacy_package_xyz"):
        detector.detect(Document("d", TEXT))


@pytest.fixture(scope="module")
def huggingface_model(
    tmp_path_factory: pytest.TempPathFactory, tiny_bert: Callable[..., tuple[Any, Any]]
) -> Path:
    """A tiny randomly initialised BERT token classifier whose bias makes every word a B-PER."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    folder = tmp_path_factory.mktemp("hf") / "model"
    folder.mkdir()
    words = ["seen", "by", "dr", ".", "smith", "at", "mercy", "hospital", "in", "boston"]
    labels = {0: "O", 1: "B-PER"}
    tokenizer, config = tiny_bert(folder, words, id2label=labels, label2id={v: k for k, v in labels.items()})
    torch.manual_seed(0)
    model = transformers.BertForTokenClassification(config)
    with torch.no_grad():
        model.classifier.weight.zero_()
        model.classifier.bias.copy_(torch.tensor([0.0, 8.0]))
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


@pytest.mark.slow
def test_huggingface_model_loaded_from_a_folder_gives_mapped_spans(huggingface_model: Path) -> None:
    detector = build_detector("huggingface", {"model": str(huggingface_model)})
    spans = detector.detect(Document("d", TEXT))
    assert {s.text for s in spans} >= {"Smith", "Boston"}
    assert all(s.label is Label.NAME and s.source == "huggingface" and s.score > 0.9 for s in spans)
