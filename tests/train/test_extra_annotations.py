"""Extra training annotations (``anonymed train recognizer --extra``): reading, and training with them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from anonymed.cli.train import app
from anonymed.detect.tagger.model import TaggerModel
from anonymed.errors import InputError
from anonymed.labels import Label
from anonymed.train.annotations import file_digest, read_annotations
from anonymed.train.fingerprint import note_digest, read_fingerprint
from anonymed.train.recipe import RecognizerRecipe, extra_documents

NOTES = [
    ("1", "1", "Seen by Dr. Healey on 7/22. Daughter MARY visited.", [(12, 18, "HCPName"), (22, 26, "Date")]),
    ("3", "1", "Transferred from Calvert Hospital on 3/4.", [(17, 24, "Location"), (37, 40, "Date")]),
]
EXTRA_TEXT = "Wife Zelda Quorin called. Seen by Dr. Vantongeren."


def _training_root(tmp_path: Path) -> Path:
    root = tmp_path / "training"
    (root / "physionet_deid").mkdir(parents=True, exist_ok=True)
    (root / "wikiann").mkdir(exist_ok=True)
    records, phrases = [], []
    for pid, note, text, spans in NOTES:
        records.append(f"START_OF_RECORD={pid}||||{note}||||\n{text}||||END_OF_RECORD\n\n")
        phrases += [f"{pid} {note} {s} {e} {c} {text[s:e]}\n" for s, e, c in spans]
    (root / "physionet_deid" / "id.text").write_text("".join(records))
    (root / "physionet_deid" / "id-phi.phrase").write_text("".join(phrases))
    (root / "wikiann" / "en.conll").write_text("Paris\tB-LOC\nis\tO\n")
    return root


def _note(rid: str, text: str = EXTRA_TEXT, lang: str = "en", **change: Any) -> dict[str, Any]:
    spans = [
        {"start": 5, "end": 17, "label": "NAME", "subtype": "relative"},
        {"start": 38, "end": 49, "label": "NAME", "subtype": None},
    ]
    return {"id": rid, "text": text, "lang": lang, "spans": spans, **change}


def _write(path: Path, *records: dict[str, Any]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_annotations_become_notes_with_gold_spans(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.jsonl", _note("n1"), _note("n2", lang="fr"))
    notes = read_annotations(path)
    assert [n.id for n in notes] == ["n1", "n2"] and [n.lang for n in notes] == ["en", "fr"]
    gold = notes[0].gold
    assert [(s.text, s.label, s.subtype) for s in gold] == [
        ("Zelda Quorin", Label.NAME, "relative"),
        ("Vantongeren", Label.NAME, None),
    ]
    assert notes[0].patient_id != notes[1].patient_id  # each reviewed note is its own group


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"spans": [{"start": 5, "end": 90, "label": "NAME"}]}, "outside the text"),
        ({"spans": [{"start": 5, "end": 17, "label": "PERSON"}]}, "unknown label"),
        ({"spans": [{"start": 5, "end": 17, "label": "NAME", "subtype": "pet"}]}, "unknown subtype"),
        ({"spans": {"start": 5}}, "not an array"),
        ({"lang": None}, "lang is a JSON null"),
    ],
)
def test_a_bad_annotation_fails_the_file_naming_the_note_never_its_text(
    tmp_path: Path, change: dict[str, Any], reason: str
) -> None:
    path = _write(tmp_path / "a.jsonl", _note("n1"), _note("bad-7", **change))
    with pytest.raises(InputError) as raised:
        read_annotations(path)
    message = str(raised.value)
    assert "bad-7" in message and reason in message
    assert "Zelda" not in message and "Quorin" not in message


def test_extra_documents_keep_the_recipe_language_and_refuse_a_file_with_none(tmp_path: Path) -> None:
    mixed = _write(tmp_path / "mixed.jsonl", _note("n1"), _note("n2", lang="fr"))
    assert [d.id for d in extra_documents(RecognizerRecipe("en", extra=(mixed,)))] == ["n1"]
    french = _write(tmp_path / "fr.jsonl", _note("n2", lang="fr"))
    with pytest.raises(InputError, match="none of its 1 annotated notes"):
        extra_documents(RecognizerRecipe("en", extra=(french,)))


def _train(tmp_path: Path, out: Path, *extra: Path) -> TaggerModel:
    args = ["recognizer", "--data", str(_training_root(tmp_path)), "--out", str(out)]
    args += ["--iterations", "30", "--synthetic-copies", "1", "--no-progress"]
    for path in extra:
        args += ["--extra", str(path)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return TaggerModel.load(out)


def test_train_recognizer_adds_the_extra_notes_and_names_them_by_digest_only(tmp_path: Path) -> None:
    extra = _write(tmp_path / "annotations.jsonl", *(_note(f"n{i}") for i in range(3)))
    base = _train(tmp_path, tmp_path / "base")
    model = _train(tmp_path, tmp_path / "with-extra", extra)
    # three notes more, each with its surrogate-filled copy
    assert model.meta["documents"] == base.meta["documents"] + 3 * 2
    assert model.meta["recipe"]["extra"] == [{"sha256": file_digest(extra), "notes": 3}]
    assert "extra" not in base.meta["recipe"]
    assert str(tmp_path) not in json.dumps(model.meta)
    # the extra notes are training notes: evaluating on them is flagged like evaluating on the dev notes
    fingerprint = read_fingerprint(tmp_path / "with-extra")
    assert fingerprint is not None and note_digest(EXTRA_TEXT) in fingerprint
    assert note_digest(EXTRA_TEXT) not in (read_fingerprint(tmp_path / "base") or set())
