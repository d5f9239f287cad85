"""Training data for the tagger: corpora, synthetic notes, patient folds, the `train recognizer` command."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from anonymed.cli.train import app
from anonymed.detect.tagger.model import TaggerModel
from anonymed.document import Document, Span
from anonymed.labels import Label
from anonymed.randomness import RandomSource
from anonymed.train.corpora import read_wikiann
from anonymed.train.recipe import (
    RecognizerRecipe,
    dev_documents,
    folds,
    training_documents,
    wikiann_documents,
)
from anonymed.train.synthetic import SurrogateMaker, fill, lower_cased, synthetic_notes

NOTES = [
    (
        "1",
        "1",
        "Seen by Dr. Healey on 7/22. Daughter MARY visited.",
        [(12, 18, "HCPName"), (22, 26, "Date"), (37, 41, "RelativeProxyName")],
    ),
    ("1", "2", "BP stable. Called Dr. Healey.", [(22, 28, "HCPName")]),
    ("3", "1", "Transferred from Calvert Hospital on 3/4.", [(17, 24, "Location"), (37, 40, "Date")]),
    ("5", "1", "sats 95% on 2L, wife jane at bedside", [(21, 25, "RelativeProxyName")]),
]
WIKI = "Paris\tB-LOC\nis\tO\nnice\tO\n\nen:John\tB-PER\nen:Smith\tI-PER\nof\tO\nAcme\tB-ORG\n\nAnna\tB-PER\n"


def _training_root(tmp_path: Path) -> Path:
    root = tmp_path / "training"
    (root / "physionet_deid").mkdir(parents=True)
    (root / "wikiann").mkdir()
    records, phrases = [], []
    for pid, note, text, spans in NOTES:
        records.append(f"START_OF_RECORD={pid}||||{note}||||\n{text}||||END_OF_RECORD\n\n")
        phrases += [f"{pid} {note} {s} {e} {c} {text[s:e]}\n" for s, e, c in spans]
    (root / "physionet_deid" / "id.text").write_text("".join(records))
    (root / "physionet_deid" / "id-phi.phrase").write_text("".join(phrases))
    (root / "wikiann" / "en.conll").write_text(WIKI)
    return root


def test_wikiann_sentences_become_documents_with_spans(tmp_path: Path) -> None:
    path = tmp_path / "w.conll"
    path.write_text(WIKI)
    docs = read_wikiann(path, "en")
    assert [d.text for d in docs] == ["Paris is nice", "John Smith of Acme", "Anna"]
    assert [(s.text, s.label) for s in docs[1].gold] == [
        ("John Smith", Label.NAME),
        ("Acme", Label.ORGANIZATION),
    ]


def test_folds_never_split_a_patient(tmp_path: Path) -> None:
    recipe = RecognizerRecipe("en", data=_training_root(tmp_path))
    dev = dev_documents(recipe)
    fold_of = folds(dev, 2)
    by_patient: dict[str, set[int]] = {}
    for doc, fold in zip(dev, fold_of, strict=True):
        by_patient.setdefault(str(doc.patient_id), set()).add(fold)
    assert all(len(f) == 1 for f in by_patient.values())
    assert set(fold_of) == {0, 1}


def test_training_set_adds_surrogate_copies_and_wikiann_without_organisations(tmp_path: Path) -> None:
    recipe = RecognizerRecipe("en", data=_training_root(tmp_path), synthetic_copies=2, wikiann_sentences=10)
    dev, wiki = dev_documents(recipe), wikiann_documents(recipe)
    docs = training_documents(recipe, dev, wiki)
    assert len(docs) == 4 + 2 * 4 + 2  # notes, two copies of each annotated note, two sentences without ORG
    assert all(s.label is not Label.ORGANIZATION for d in docs for s in d.gold)


def test_lowercase_copies_are_extra_surrogate_copies_written_in_lower_case(tmp_path: Path) -> None:
    recipe = RecognizerRecipe("en", data=_training_root(tmp_path), synthetic_copies=1, lowercase_copies=1)
    dev = dev_documents(recipe)
    docs = training_documents(recipe, dev, [])
    lowered = [d for d in docs if d.id.endswith("~lc0")]
    assert len(docs) == 4 + 4 + 4 and len(lowered) == 4
    assert all(d.text == d.text.lower() and d.gold for d in lowered)
    assert all(d.text[s.start : s.end] == s.text for d in lowered for s in d.gold)
    assert recipe.describe()["lowercase_copies"] == 1
    assert "lowercase_copies" not in RecognizerRecipe("en").describe()  # shipped models: metadata unchanged


def test_lower_cased_keeps_offsets_when_a_lower_case_letter_is_longer() -> None:
    text = "İpek and Mary"
    doc = lower_cased(Document("d", text, gold=(Span.of(text, 9, 13, "NAME"),)))
    assert doc.text == "İpek and mary" and [s.text for s in doc.gold] == ["mary"]


def test_surrogate_copy_replaces_every_gold_span_consistently() -> None:
    text = "Dr. Healey saw pt. Healey aware. Daughter MARY called on 7/22."
    gold = (
        Span.of(text, 4, 10, "NAME"),
        Span.of(text, 19, 25, "NAME"),
        Span.of(text, 42, 46, "NAME"),
        Span.of(text, 57, 61, "DATE"),
    )
    copy = fill(Document("d", text, gold=gold), SurrogateMaker("en", RandomSource(3)), "s0")
    values = [s.text for s in copy.gold]
    assert copy.id == "d~s0" and len(copy.gold) == 4
    assert values[0] == values[1] and values[0] != "Healey"  # the same original gets the same surrogate
    assert values[2].isupper()  # case of the original is kept
    assert all(copy.text[s.start : s.end] == s.text for s in copy.gold)
    assert copy.text.endswith(".") and "called on" in copy.text


def test_synthetic_notes_are_reproducible_with_a_seed() -> None:
    text = "Seen by Dr. Healey on 7/22."
    doc = Document("d", text, gold=(Span.of(text, 12, 18, "NAME"), Span.of(text, 22, 26, "DATE")))
    first = [d.text for d in synthetic_notes([doc], "en", copies=3, seed=7)]
    again = [d.text for d in synthetic_notes([doc], "en", copies=3, seed=7)]
    assert first == again and len(set(first)) == 3


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_surrogates_exist_for_every_label(lang: str) -> None:
    maker = SurrogateMaker(lang, RandomSource(1))
    text = "x" * 5 + " 12/03/2020 Paris 555-1234 AB123"
    spans = [
        Span.of(text, 6, 16, Label.DATE),
        Span.of(text, 17, 22, Label.LOCATION, subtype="city"),
        Span.of(text, 23, 31, Label.CONTACT, subtype="phone"),
        Span.of(text, 32, 37, Label.ID),
    ]
    for span in spans:
        assert maker.surrogate(span).strip()


def test_train_recognizer_command_writes_a_loadable_model(tmp_path: Path) -> None:
    root = _training_root(tmp_path)
    out = tmp_path / "model"
    result = CliRunner().invoke(
        app,
        [
            "recognizer",
            "--lang",
            "en",
            "--data",
            str(root),
            "--out",
            str(out),
            "--iterations",
            "5",
            "--no-progress",
        ],
    )
    assert result.exit_code == 0, result.output
    model = TaggerModel.load(out)
    assert model.meta["lang"] == "en" and model.meta["recipe"]["training"]["max_iterations"] == 5
    assert "NAME" in model.labels


def test_train_recognizer_rejects_an_unknown_language(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["recognizer", "--lang", "de", "--out", str(tmp_path / "m"), "--no-progress"]
    )
    assert result.exit_code == 2


def test_train_recognizer_command_trains_an_ensemble_of_crf_and_cnn(tmp_path: Path) -> None:
    from anonymed.detect.tagger.family import EnsembleTagger, load_tagger

    root = _training_root(tmp_path)
    out = tmp_path / "ensemble"
    args = ["recognizer", "--data", str(root), "--out", str(out), "--iterations", "5", "--no-progress"]
    result = CliRunner().invoke(app, [*args, "--family", "ensemble", "--cnn-weight", "0.25"])
    assert result.exit_code == 0, result.output
    model = load_tagger(out)
    assert isinstance(model, EnsembleTagger) and model.weights == [0.75, 0.25]
    assert (out / "crf" / "model.crfsuite").exists() and (out / "cnn" / "weights.npz").exists()


def test_train_recognizer_rejects_an_unknown_family(tmp_path: Path) -> None:
    root = _training_root(tmp_path)
    args = ["recognizer", "--data", str(root), "--out", str(tmp_path / "m"), "--no-progress"]
    result = CliRunner().invoke(app, [*args, "--family", "bert"])
    assert result.exit_code != 0 and "bert" in result.output
