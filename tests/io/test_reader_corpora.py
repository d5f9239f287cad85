"""EDS-Pseudo and Presidio readers on fixtures, and the counts of the real development corpora.

The corpora are the copies in the repository: the development notes shipped for training
(``src/anonymed/resources/training/``) and the whole Presidio synthetic set, xz-compressed, under
``tests/fixtures/io/`` (see its PROVENANCE.md).
"""

from __future__ import annotations

import json
import lzma
from pathlib import Path

from anonymed.document import Document
from anonymed.io.base import ReadFailure
from anonymed.io.eds_pseudo import EdsPseudoReader
from anonymed.io.physionet import PhysionetReader
from anonymed.io.presidio import PresidioReader

FIXTURES = Path(__file__).parents[1] / "fixtures" / "io"
TRAINING = Path(__file__).parents[2] / "src" / "anonymed" / "resources" / "training"


def test_eds_pseudo_notes_are_french_with_gold_spans() -> None:
    docs = list(EdsPseudoReader(FIXTURES / "eds_pseudo.jsonl", lang="en"))
    assert [d.id for d in docs if isinstance(d, Document)] == [
        "gen-9993388545331700393",
        "gen-9472069368564098718",
        "gen-15123601888302282036",
    ]
    second = docs[1]
    assert isinstance(second, Document) and second.lang == "fr"
    assert [(s.text, s.label.value) for s in second.gold] == [("Rémi", "NAME"), ("Foliet", "NAME")]
    assert second.metadata["record"] == {"note_id": "gen-9472069368564098718"}


def test_eds_pseudo_gold_span_with_a_trailing_space_is_narrowed() -> None:
    third = list(EdsPseudoReader(FIXTURES / "eds_pseudo.jsonl"))[2]
    assert isinstance(third, Document)
    dates = [s for s in third.gold if (s.start, s.label.value) == (144, "DATE")]
    assert len(dates) == 1 and (dates[0].end, dates[0].text) == (150, "01 /09")


def test_eds_pseudo_unknown_label_fails_the_record(tmp_path: Path) -> None:
    line = {"note_id": "n", "note_text": "Jean Dupont", "entities": [{"start": 0, "end": 4, "label": "XX"}]}
    (tmp_path / "in.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    [bad] = list(EdsPseudoReader(tmp_path / "in.jsonl"))
    assert isinstance(bad, ReadFailure) and bad.reason == "unknown gold label 'XX' at offsets 0-4"


def test_presidio_items_are_numbered_with_gold_and_without_their_spans_field() -> None:
    docs = list(PresidioReader(FIXTURES / "presidio.json"))
    assert [d.id for d in docs if isinstance(d, Document)] == ["1", "2", "3"]
    first = docs[0]
    assert isinstance(first, Document)
    assert sorted((s.text, s.full_label) for s in first.gold) == [
        ("6750 Koskikatu 25 Apt. 864\nArtilleros\n, CO\n Uruguay 64677", "LOCATION/street"),
        ("Persint", "ORGANIZATION"),
    ]
    assert set(first.metadata["record"]) == {"masked", "template_id", "metadata"}


def test_presidio_bad_item_fails_alone(tmp_path: Path) -> None:
    items = [{"full_text": "ok", "spans": []}, ["Jean"], {"full_text": "also ok"}]
    (tmp_path / "p.json").write_text(json.dumps(items), encoding="utf-8")
    records = list(PresidioReader(tmp_path / "p.json"))
    assert [type(r).__name__ for r in records] == ["Document", "ReadFailure", "Document"]
    assert records[1].reason == "item is a JSON array, not an object"  # type: ignore[union-attr]


def test_real_physionet_dev_split_has_1450_notes_and_999_gold_spans() -> None:
    records = list(PhysionetReader(TRAINING / "physionet_deid"))
    assert not [r for r in records if isinstance(r, ReadFailure)]
    assert len(records) == 1450
    assert sum(len(r.gold) for r in records if isinstance(r, Document)) == 999


def test_real_eds_pseudo_dev_split_has_717_notes() -> None:
    records = list(EdsPseudoReader(TRAINING / "eds_pseudo" / "dev.jsonl"))
    assert not [r for r in records if isinstance(r, ReadFailure)]
    assert len(records) == 717


def test_real_presidio_set_has_1500_items_and_2863_spans(tmp_path: Path) -> None:
    source = tmp_path / "synth_dataset_v2.json"
    source.write_bytes(lzma.decompress((FIXTURES / "presidio_synth_dataset_v2.json.xz").read_bytes()))
    records = list(PresidioReader(source))
    assert not [r for r in records if isinstance(r, ReadFailure)]
    assert len(records) == 1500
    assert sum(len(r.gold) for r in records if isinstance(r, Document)) == 2863
