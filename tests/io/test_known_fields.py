"""Known identifiers from the input record: mapped fields become ``metadata["known"]`` (the contract), are
found in the note, and are not copied to the output unless asked (never under Safe Harbor)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.errors import ConfigError, InputError
from anonymed.io.known import KnownFields, attach_known, read_side_file, take_known
from anonymed.io.registry import open_reader, open_writer
from anonymed.labels import Label
from anonymed.pipeline import Pipeline
from anonymed.runner.local import run_corpus

FIELDS = {"patient_name": "NAME/patient", "mrn": "ID/mrn", "dob": "DATE/birth", "nicknames": "NAME/patient"}
NOTE = "per quackenbush, record 77-12-345, born 14/03/1950; Zeb is better."
RECORD = {
    "id": "n1",
    "patient_id": "p1",
    "ward": "B2",
    "patient_name": "Zebulon Quackenbush",
    "mrn": "7712345",
    "dob": "1950-03-14",
    "nicknames": ["Zeb"],
    "text": NOTE,
}
SECRETS = ("Quackenbush", "quackenbush", "7712345", "1950-03-14", "Zeb", "77-12-345", "14/03/1950")


def config(**known: Any) -> PipelineConfig:
    fields = KnownFields(fields=known.pop("fields", FIELDS), **known)
    return PipelineConfig(
        detectors=("patterns",), known=fields, operators={Label.NAME: "redact"}, seed=1, lang="fr"
    )


def run(path: Path, out: Path, cfg: PipelineConfig, **options: Any) -> None:
    reader = open_reader(path, **options)
    with open_writer(out, like=reader) as writer:
        summary = run_corpus(reader, writer, Pipeline(cfg).run)
    assert summary.failed == 0, summary.failures


def test_take_known_maps_fields_and_removes_them_from_the_record() -> None:
    found, rest = take_known(RECORD, FIELDS)
    assert [k.to_json() for k in found] == [
        {"kind": "NAME/patient", "value": "Zebulon Quackenbush"},
        {"kind": "ID/mrn", "value": "7712345"},
        {"kind": "DATE/birth", "value": "1950-03-14"},
        {"kind": "NAME/patient", "value": "Zeb"},
    ]
    assert set(rest) == {"id", "patient_id", "ward", "text"}


def test_jsonl_fields_are_found_in_the_note_and_not_written_out(tmp_path: Path) -> None:
    path, out = tmp_path / "notes.jsonl", tmp_path / "out.jsonl"
    path.write_text(json.dumps(RECORD) + "\n", encoding="utf-8")
    run(path, out, config())
    written = out.read_text(encoding="utf-8")
    assert all(secret not in written for secret in SECRETS), written
    row = json.loads(written)
    assert set(row) == {"id", "patient_id", "ward", "text"} and row["ward"] == "B2"


def test_keep_fields_copies_them_but_the_note_is_still_scrubbed(tmp_path: Path) -> None:
    path, out = tmp_path / "notes.jsonl", tmp_path / "out.jsonl"
    path.write_text(json.dumps(RECORD) + "\n", encoding="utf-8")
    run(path, out, config(keep_fields=True))
    row = json.loads(out.read_text(encoding="utf-8"))
    assert row["patient_name"] == "Zebulon Quackenbush" and row["mrn"] == "7712345"
    assert all(secret not in row["text"] for secret in SECRETS)


def test_safe_harbor_refuses_to_keep_the_known_fields() -> None:
    with pytest.raises(ConfigError, match="'hipaa-safe-harbor' never writes the known fields out"):
        PipelineConfig(profile="hipaa-safe-harbor", known=KnownFields(FIELDS, keep_fields=True))
    with pytest.raises(ConfigError, match="keep_fields is refused"):
        PipelineConfig.from_mapping(
            {"pipeline": {"profile": "hipaa-safe-harbor"}, "known": {"fields": FIELDS, "keep_fields": True}}
        )
    assert PipelineConfig(profile="hipaa-safe-harbor", known=KnownFields(FIELDS)).known.keep_fields is False


def test_csv_columns_are_emptied(tmp_path: Path) -> None:
    path, out = tmp_path / "notes.csv", tmp_path / "out.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(
            handle, fieldnames=["id", "patient_id", "ward", "patient_name", "mrn", "dob", "text"]
        )
        writer.writeheader()
        writer.writerow({k: v for k, v in RECORD.items() if k != "nicknames"})
    run(path, out, config())
    written = out.read_text(encoding="utf-8")
    assert all(secret not in written for secret in SECRETS[:4]), written
    row = next(csv.DictReader(written.splitlines()))
    assert row["patient_name"] == "" and row["ward"] == "B2"  # the layout stays the input's


def test_parquet_columns_are_emptied(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    import pyarrow as pa

    path, out = tmp_path / "notes.parquet", tmp_path / "out.parquet"
    pq.write_table(pa.Table.from_pylist([RECORD]), path)
    run(path, out, config())
    row = pq.read_table(out).to_pylist()[0]
    assert row["patient_name"] is None and row["mrn"] is None and row["nicknames"] is None
    assert all(secret not in row["text"] for secret in SECRETS)


def test_presidio_metadata_fields(tmp_path: Path) -> None:
    path, out = tmp_path / "notes.json", tmp_path / "out.json"
    item = {
        "full_text": NOTE,
        "spans": [],
        "metadata": {"patient_name": "Zebulon Quackenbush", "mrn": "7712345"},
    }
    path.write_text(json.dumps([item]), encoding="utf-8")
    run(path, out, config(), fmt="presidio")
    written = out.read_text(encoding="utf-8")
    assert all(secret not in written for secret in ("Quackenbush", "quackenbush", "7712345")), written
    assert json.loads(written)[0]["metadata"] == {}


def test_a_side_file_keyed_by_patient_id(tmp_path: Path) -> None:
    side = tmp_path / "registry.csv"
    side.write_text("patient_id,patient_name,mrn\np1,Zebulon Quackenbush,7712345\np2,Ann Other,999\n")
    fields = KnownFields(FIELDS, side_file=str(side))
    known = read_side_file(side, fields)
    assert sorted(known) == ["p1", "p2"] and "Quackenbush" not in repr(known)
    doc = attach_known(Document("n1", NOTE, {"patient_id": "p1"}), fields, known)
    assert {k["value"] for k in doc.metadata["known"]} == {"Zebulon Quackenbush", "7712345"}
    out = Pipeline(config(side_file=str(side))).run(Document("n1", NOTE, {"patient_id": "p1"}))
    assert "quackenbush" not in out.result and "77-12-345" not in out.result
    assert "known" not in out.metadata  # the secrets leave with no document the pipeline returns
    other = Pipeline(config(side_file=str(side))).run(Document("n2", NOTE, {"patient_id": "p3"}))
    assert "quackenbush" in other.result  # another patient: nothing known


def test_a_jsonl_side_file_and_its_errors(tmp_path: Path) -> None:
    side = tmp_path / "registry.jsonl"
    side.write_text(
        json.dumps({"patient_id": "p1", "mrn": 7712345}) + "\n" + json.dumps({"mrn": "Quackenbush"}) + "\n"
    )
    with pytest.raises(ConfigError, match="line 2: no 'patient_id' value") as caught:
        read_side_file(side, KnownFields(FIELDS))
    assert "Quackenbush" not in str(caught.value)


def test_known_identifiers_already_in_the_metadata_are_kept() -> None:
    doc = Document("n1", NOTE, {"known": [{"kind": "ID/mrn", "value": "7712345"}], "record": RECORD})
    attached = attach_known(doc, KnownFields(FIELDS))
    assert len(attached.metadata["known"]) == 4  # the FHIR path's item and the record's, each once


def test_a_bad_field_value_fails_its_record_naming_the_field_not_the_value() -> None:
    record = {**RECORD, "patient_name": {"given": "Zebulon", "family": "Quackenbush"}}
    with pytest.raises(InputError, match="known field 'patient_name' holds a nested dict") as caught:
        attach_known(Document("n1", NOTE, {"record": record}), KnownFields(FIELDS))
    assert "Quackenbush" not in str(caught.value)


def test_the_known_table_of_a_configuration_file(tmp_path: Path) -> None:
    path = tmp_path / "site.toml"
    path.write_text(
        '[known]\nside_file = "registry.csv"\nkeep_fields = false\ntypos = false\n'
        '[known.fields]\npatient_name = "NAME/patient"\nmrn = "ID/mrn"\n',
        encoding="utf-8",
    )
    cfg = PipelineConfig.from_toml(path)
    assert dict(cfg.known.fields) == {"patient_name": "NAME/patient", "mrn": "ID/mrn"}
    assert cfg.known.side_file == str(tmp_path / "registry.csv") and cfg.known_detector.typos is False
    with pytest.raises(ConfigError, match="unknown subtype 'doctor'"):
        PipelineConfig.from_mapping({"known": {"fields": {"x": "NAME/doctor"}}})
    with pytest.raises(ConfigError, match=r"unknown keys \['colour'\] in \[known\]"):
        PipelineConfig.from_mapping({"known": {"colour": 1}})
    with pytest.raises(ConfigError, match="parameter 'typos' must be bool"):
        PipelineConfig.from_mapping({"known": {"typos": "yes"}})


def test_a_configuration_with_site_settings_pickles_for_worker_processes() -> None:
    import pickle

    from anonymed.detect.known.detector import KnownParams
    from anonymed.detect.known.rosters import Clinician, Roster
    from anonymed.detect.lists import ListEntry, TermLists
    from anonymed.methods import ReplaceConfig

    config = PipelineConfig(
        known=KnownFields(FIELDS, keep_fields=True),
        known_detector=KnownParams(roster=Roster((Clinician("Anna", "Jones"),))),
        lists=TermLists(allow=(ListEntry("Babinski"),)),
    )
    factory = ReplaceConfig(config)
    copy = pickle.loads(pickle.dumps(factory))
    assert copy.pipeline.known == config.known and copy.pipeline.lists == config.lists
    assert copy.fingerprint() == factory.fingerprint()
