"""Patient memory: names found with confidence in one note of a patient, looked for in all their notes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anonymed.cli import app
from anonymed.document import Document, Span
from anonymed.errors import ConfigError
from anonymed.io.known import KnownFields, read_side_file
from anonymed.io.memory import PatientMemoryWriter
from anonymed.known import MAX_ITEMS, harvest_names, is_initials
from anonymed.labels import Label

runner = CliRunner()
TEXT = "Mr. Zebulon Quackenbush, JS and Dr. Okafor; Boston."


def spans(*found: tuple[str, Label, float, str | None]) -> tuple[Span, ...]:
    return tuple(
        Span.of(TEXT, TEXT.index(piece), TEXT.index(piece) + len(piece), label, score=score, subtype=subtype)
        for piece, label, score, subtype in found
    )


@pytest.mark.parametrize(("value", "initials"), [("JS", True), ("J. S.", True), ("J", True), ("Lee", False),
                                                 ("LEE", True), ("J. Lee", False), ("Bo", True)])  # fmt: skip
def test_initials_are_names_without_a_word_of_three_letters(value: str, initials: bool) -> None:
    assert is_initials(value) is initials


def test_only_confident_names_that_are_not_initials_are_harvested() -> None:
    found = spans(
        ("Zebulon Quackenbush", Label.NAME, 0.95, "patient"),
        ("JS", Label.NAME, 0.99, None),
        ("Okafor", Label.NAME, 0.5, None),
        ("Boston", Label.LOCATION, 0.99, None),
    )
    assert [k.to_json() for k in harvest_names(found, min_score=0.9)] == [
        {"kind": "NAME/patient", "value": "Zebulon Quackenbush"}
    ]
    assert len(list(harvest_names(found, min_score=0.5))) == 2


def test_the_writer_keeps_names_per_patient_most_found_first(tmp_path: Path) -> None:
    writer = PatientMemoryWriter(tmp_path / "memory.jsonl", min_score=0.9)
    okafor = spans(("Okafor", Label.NAME, 0.95, None))
    both = spans(("Zebulon Quackenbush", Label.NAME, 0.95, None), ("Okafor", Label.NAME, 0.95, None))
    writer.write(Document("a", TEXT, {"patient_id": "p2"}, spans=both))
    writer.write(Document("b", TEXT, {"patient_id": "p2"}, spans=okafor))
    writer.write(Document("c", TEXT, {}, spans=both))  # no patient: remembered nowhere
    writer.write(Document("d", TEXT, {"patient_id": "p1"}, spans=()))  # nothing found: no line
    writer.commit()
    lines = [json.loads(line) for line in (tmp_path / "memory.jsonl").read_text().splitlines()]
    assert lines == [
        {"patient_id": "p2", "known": [{"kind": "NAME", "value": "Okafor"},
                                       {"kind": "NAME", "value": "Zebulon Quackenbush"}]},
    ]  # fmt: skip
    side = read_side_file(tmp_path / "memory.jsonl", KnownFields())
    assert [k.value for k in side["p2"]] == ["Okafor", "Zebulon Quackenbush"]


def test_a_one_word_name_that_is_a_common_or_short_word_is_not_remembered(tmp_path: Path) -> None:
    text = "small Lee Park Small Quackenbush"
    writer = PatientMemoryWriter(tmp_path / "memory.jsonl")
    found = tuple(Span.of(text, m, m + len(w), Label.NAME) for w, m in
                  (("small", 0), ("Lee", 6), ("Park Small", 10), ("Quackenbush", 21)))  # fmt: skip
    writer.write(Document("a", text, {"patient_id": "p"}, spans=found))
    assert [k["value"] for k in writer.known_of("p")] == ["Park Small", "Quackenbush"]


def test_the_writer_keeps_at_most_the_contract_s_number_of_names(tmp_path: Path) -> None:
    writer = PatientMemoryWriter(tmp_path / "memory.jsonl")
    for n in range(MAX_ITEMS + 5):
        text = f"Name{n:05d} came."
        writer.write(Document(str(n), text, {"patient_id": "p"}, spans=(Span.of(text, 0, 9, Label.NAME),)))
    assert len(writer.known_of("p")) == MAX_ITEMS
    writer.commit()
    assert len(read_side_file(tmp_path / "memory.jsonl", KnownFields())["p"]) == MAX_ITEMS


def test_a_side_file_s_known_column_must_be_a_contract_list(tmp_path: Path) -> None:
    side = tmp_path / "memory.jsonl"
    side.write_text(json.dumps({"patient_id": "p", "known": "Zebulon Quackenbush"}) + "\n")
    with pytest.raises(ConfigError, match="line 1") as caught:
        read_side_file(side, KnownFields())
    assert "Quackenbush" not in str(caught.value)


def test_detect_writes_a_memory_that_deid_uses_for_the_patient_s_other_notes(tmp_path: Path) -> None:
    notes = tmp_path / "notes.jsonl"
    records = [
        {"id": "n1", "pid": "p1", "text": "Mr. Zebulon Quackenbush is a 70 y/o male admitted today."},
        {"id": "n2", "pid": "p1", "text": "Spoke with quackenb ush about the plan today."},
        {"id": "n3", "pid": "p2", "text": "Spoke with quackenb ush about the plan today."},
    ]
    notes.write_text("".join(json.dumps(r) + "\n" for r in records))
    memory, out = tmp_path / "memory.jsonl", tmp_path / "out.jsonl"
    common = ["--patient-field", "pid", "--no-progress"]
    spans_out = tmp_path / "s.jsonl"
    found = runner.invoke(app, ["detect", str(notes), "-o", str(spans_out), "--memory", str(memory), *common])
    assert found.exit_code == 0, found.output
    assert [json.loads(line)["patient_id"] for line in memory.read_text().splitlines()] == ["p1"]
    done = runner.invoke(app, ["deid", str(notes), "-o", str(out), "--known-side-file", str(memory), *common])
    assert done.exit_code == 0, done.output
    texts = [json.loads(line)["text"] for line in out.read_text().splitlines()]
    assert "Quackenbush" not in texts[0] and "quackenb ush" not in texts[1]
    assert "quackenb ush" in texts[2]  # another patient: not in their memory


def test_detect_says_when_the_memory_is_empty_for_want_of_patient_ids(tmp_path: Path) -> None:
    notes = tmp_path / "notes.jsonl"
    notes.write_text(json.dumps({"id": "n1", "text": "Mr. Zebulon Quackenbush is a 70 y/o male."}) + "\n")
    memory = tmp_path / "memory.jsonl"
    args = ["detect", str(notes), "-o", str(tmp_path / "s.jsonl"), "--memory", str(memory), "--no-progress"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0 and "patient memory is empty" in " ".join(result.output.split())
    assert memory.read_text() == ""
    bad = runner.invoke(app, [*args, "--memory-min-score", "1.5"])
    assert bad.exit_code != 0 and "--memory-min-score" in bad.output
