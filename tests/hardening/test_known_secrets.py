"""Known identifiers, rosters and deny lists are secrets: never in logs, errors, summaries, work files or
outputs (the record's fields are not copied out), whatever goes wrong (SECURITY.md, issue 17)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from anonymed.config import PipelineConfig
from anonymed.detect.known.detector import KnownDetector
from anonymed.detect.known.rosters import read_roster
from anonymed.detect.lists import read_lists
from anonymed.document import Document
from anonymed.errors import AnonymedError, ConfigError, InputError
from anonymed.io.known import KnownFields, attach_known, read_side_file
from anonymed.io.registry import open_writer
from anonymed.methods import ReplaceConfig
from anonymed.runner.batch import BatchOptions, default_workdir, run_batch
from anonymed.runner.shards import ReaderSpec

CLI = [sys.executable, "-c", "from anonymed.cli import main; main()"]
PATIENT = "Zebulon Quackenbush"
MRN = "MRN7734921"
SIDE_ONLY = "SIDE-4471-0933"  # known from the side file only, never in a note
CLINICIAN = "Wilhelmina Featherstonehaugh"
DENIED = "Abernathy-Crumb"
SECRETS = ("Quackenbush", "quackenbush", MRN, "7734921", SIDE_ONLY, "Featherstonehaugh", DENIED)


def site(tmp_path: Path) -> Path:
    """Notes whose records carry known fields, a side file, a roster, a deny list; a config naming them."""
    notes = [
        {"id": f"n{i}", "patient_id": "p1", "pname": PATIENT, "mrn": MRN,
         "text": f"per quackenbush, mrn {MRN[3:]}; seen by Dr Featherstonehaugh with {DENIED}. Day {i}."}
        for i in range(5)
    ]  # fmt: skip
    lines = [json.dumps(note) for note in notes]
    lines.insert(2, json.dumps({"id": "bad", "patient_id": "p1", "pname": {"given": PATIENT}, "text": "x"}))
    (tmp_path / "notes.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "side.csv").write_text(f"patient_id,ssn\np1,{SIDE_ONLY}\n", encoding="utf-8")
    (tmp_path / "staff.csv").write_text(f"given,family\n{CLINICIAN.replace(' ', ',')}\n", encoding="utf-8")
    (tmp_path / "deny.csv").write_text(f"term,label\n{DENIED},NAME/relative\n", encoding="utf-8")
    (tmp_path / "site.toml").write_text(
        '[pipeline]\ndetectors = ["patterns"]\n'
        '[known]\nside_file = "side.csv"\nclinicians = "staff.csv"\n'
        '[known.fields]\npname = "NAME/patient"\nmrn = "ID/mrn"\nssn = "ID/ssn"\n'
        '[lists]\ndeny = "deny.csv"\n',
        encoding="utf-8",
    )
    return tmp_path


def test_a_cli_run_shows_and_writes_no_known_value(tmp_path: Path) -> None:
    folder = site(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    done = subprocess.run(
        [*CLI, "deid", str(folder / "notes.jsonl"), "-o", str(out / "notes.jsonl"), "--config",
         str(folder / "site.toml"), "--summary", str(out / "summary.json"), "--verbose", "--no-progress",
         "--max-failures", "1", "--seed", "1", "--shard-size", "2"],
        capture_output=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["failed"] == 1  # the record whose known field holds an object: its reason is printed
    assert b"known field 'pname' holds a nested dict" in done.stdout + done.stderr
    produced = [done.stdout, done.stderr, *(p.read_bytes() for p in out.rglob("*") if p.is_file())]
    assert len(produced) == 4
    for blob in produced:
        for secret in SECRETS:
            assert secret.encode() not in blob, secret


def test_a_batch_run_s_work_files_hold_no_known_identifier(tmp_path: Path) -> None:
    folder = site(tmp_path)
    config = PipelineConfig.from_toml(folder / "site.toml", seed=1)
    spec = ReaderSpec.of(folder / "notes.jsonl")
    output = tmp_path / "out.jsonl"
    run_batch(spec, open_writer(output, like=spec.open()), ReplaceConfig(config),
              BatchOptions(shard_size=2, keep_workdir=True))  # fmt: skip
    files = [p for p in default_workdir(output).rglob("*") if p.is_file()]
    assert any(p.name.startswith("shard-") for p in files)
    for path in [*files, output]:
        data = path.read_bytes()
        assert SIDE_ONLY.encode() not in data and PATIENT.encode() not in data, path.name


def test_errors_about_known_values_name_positions_never_values(tmp_path: Path) -> None:
    messages: list[str] = []
    bad_items = [{"kind": "NAME/patient", "value": PATIENT}, {"kind": "NAME/surgeon", "value": PATIENT}]
    with pytest.raises(AnonymedError) as caught:
        KnownDetector().detect(Document("d", f"{PATIENT} seen", {"known": bad_items}))
    messages.append(str(caught.value))
    with pytest.raises(InputError) as caught_record:
        attach_known(Document("d", "x", {"record": {"pname": [[PATIENT]]}}), KnownFields({"pname": "NAME"}))
    messages.append(str(caught_record.value))
    side = tmp_path / "side.jsonl"
    side.write_text(json.dumps({"patient_id": "p1", "pname": PATIENT}) + "\n{" + PATIENT + "\n")
    with pytest.raises(ConfigError) as caught_side:
        read_side_file(side, KnownFields({"pname": "NAME"}))
    messages.append(str(caught_side.value))
    roster = tmp_path / "staff.csv"
    roster.write_text(f"given,family\n{PATIENT},{'x' * 300}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught_roster:
        read_roster(roster)
    messages.append(str(caught_roster.value))
    deny = tmp_path / "deny.csv"
    deny.write_text(f"term,label\n{PATIENT},NAME/surgeon\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught_list:
        read_lists(deny=[deny])
    messages.append(str(caught_list.value))
    assert len(messages) == 5
    for message in messages:
        assert "Quackenbush" not in message and "Zebulon" not in message, message


def test_reprs_of_the_site_settings_show_no_value(tmp_path: Path) -> None:
    folder = site(tmp_path)
    config = PipelineConfig.from_toml(folder / "site.toml")
    shown = repr(config) + ReplaceConfig(config).fingerprint()
    assert "Featherstonehaugh" not in shown and DENIED not in shown
    known = read_side_file(folder / "side.csv", config.known)
    assert SIDE_ONLY not in repr(known)
