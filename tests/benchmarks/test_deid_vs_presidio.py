"""The corpus switch and the per-label recall table of benchmarks/deid_vs_presidio.py."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from anonymed.document import Document, Span
from anonymed.evaluate.detection import evaluate_detection

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import deid_vs_presidio  # lives in benchmarks/, no package


def test_presidio_corpus_is_read_with_its_gold_labels(tmp_path: Path) -> None:
    text = "Call Ann Lee at 212-555-0100."
    item = {
        "full_text": text,
        "masked": "Call {{PERSON}} at {{PHONE_NUMBER}}.",
        "spans": [
            {"entity_type": "PERSON", "entity_value": "Ann Lee", "start_position": 5, "end_position": 12},
            {
                "entity_type": "PHONE_NUMBER",
                "entity_value": "212-555-0100",
                "start_position": 16,
                "end_position": 28,
            },
        ],
        "template_id": 1,
        "metadata": {},
    }
    folder = tmp_path / "presidio_synth"
    folder.mkdir()
    (folder / "synth_dataset_v2.json").write_text(json.dumps([item, item]), encoding="utf-8")
    notes = deid_vs_presidio.load_notes(tmp_path, 1, "presidio-synth")
    assert len(notes) == 1
    assert sorted(span.label.value for span in notes[0].gold) == ["CONTACT", "NAME"]


def test_label_table_gives_each_systems_recall_per_gold_label() -> None:
    text = "Dr Ann Lee called 212-555-0100 on 3/4."
    gold = (Span.of(text, 3, 10, "NAME"), Span.of(text, 18, 30, "CONTACT"))
    doc = Document("d", text, gold=gold)
    found_all = [Span.of(text, 3, 10, "NAME"), Span.of(text, 18, 30, "CONTACT")]
    found_phone = [Span.of(text, 18, 30, "CONTACT")]
    results = [
        {"system": "a", "report": evaluate_detection([(doc, found_all)])},
        {"system": "b", "report": evaluate_detection([(doc, found_phone)])},
    ]
    lines = deid_vs_presidio.label_table(results)
    assert lines[0] == "| gold label (tokens) | a | b |"
    rows = {line.split(" (")[0].strip("| "): line for line in lines[2:]}
    assert rows.keys() == {"CONTACT", "NAME"}
    assert rows["NAME"].endswith("| 100.0 | 0.0 |")
    assert rows["CONTACT"].endswith("| 100.0 | 100.0 |")
