"""The site's settings in configuration: [lists], [known], custom patterns checked when the configuration is
built, command-line options added to the file's, and a run fingerprint that follows the lists' content."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anonymed.cli import app
from anonymed.cli.options import option_layer, parse_known_fields
from anonymed.config import PipelineConfig
from anonymed.detect.lists import ListEntry, TermLists
from anonymed.errors import ConfigError
from anonymed.methods import ReplaceConfig
from anonymed.methods.configure import configure


def test_the_configuration_refuses_a_bad_pattern_when_it_is_built_not_mid_run() -> None:
    bad = {"name": "loop", "label": "ID", "regex": r"(x+x+)+y"}
    with pytest.raises(ConfigError, match="custom pattern 0 \\('loop'\\)"):
        PipelineConfig(detector_params={"patterns": {"custom": [bad]}})
    with pytest.raises(ConfigError, match="options from the \\[known\\] table"):
        PipelineConfig(detector_params={"known": {"typos": False}})


def test_list_files_are_named_relative_to_the_configuration_file(tmp_path: Path) -> None:
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "allow.txt").write_text("Babinski\n", encoding="utf-8")
    (folder / "deny.csv").write_text("term,label\nCHU Nord,LOCATION/hospital\n", encoding="utf-8")
    (folder / "site.toml").write_text('[lists]\nallow = "allow.txt"\ndeny = ["deny.csv"]\n', encoding="utf-8")
    config = PipelineConfig.from_toml(folder / "site.toml")
    assert [e.term for e in config.lists.allow] == ["Babinski"] and config.lists.deny[0].term == "CHU Nord"
    with pytest.raises(ConfigError, match="unknown keys"):
        PipelineConfig.from_mapping({"lists": {"block": ["x.txt"]}})
    with pytest.raises(ConfigError, match="must be a file name or a list"):
        PipelineConfig.from_mapping({"lists": {"allow": 3}})


def test_command_line_lists_and_fields_add_to_the_file_s(tmp_path: Path) -> None:
    (tmp_path / "allow.txt").write_text("Babinski\n", encoding="utf-8")
    (tmp_path / "more.txt").write_text("Homans\n", encoding="utf-8")
    (tmp_path / "site.toml").write_text(
        '[lists]\nallow = "allow.txt"\n[known.fields]\nmrn = "ID/mrn"\n', encoding="utf-8"
    )
    options = option_layer(
        {"allow_list": [tmp_path / "more.txt"], "known_field": ["patient_name=NAME/patient"]}
    )
    config = configure(tmp_path / "site.toml", options).pipeline()
    assert [e.term for e in config.lists.allow] == ["Babinski", "Homans"]
    assert dict(config.known.fields) == {"mrn": "ID/mrn", "patient_name": "NAME/patient"}
    with pytest.raises(ConfigError, match="--known-field expects FIELD=KIND"):
        parse_known_fields(["patient_name"])


def test_the_run_fingerprint_follows_the_lists_content_not_shown() -> None:
    one = ReplaceConfig(PipelineConfig(lists=TermLists(deny=(ListEntry.of("Quackenbush", "NAME"),))))
    two = ReplaceConfig(PipelineConfig(lists=TermLists(deny=(ListEntry.of("Zebulon", "NAME"),))))
    assert one.fingerprint() != two.fingerprint()
    assert "Quackenbush" not in repr(one.pipeline)


def test_the_cli_options(tmp_path: Path) -> None:
    notes = tmp_path / "notes.jsonl"
    record = {
        "id": "n1",
        "pname": "Zebulon Quackenbush",
        "text": "Seen per quackenbush. Babinski sign. CHU Nord.",
    }
    notes.write_text(json.dumps(record) + "\n", encoding="utf-8")
    (tmp_path / "allow.txt").write_text("Babinski\n", encoding="utf-8")
    (tmp_path / "deny.csv").write_text("term,label\nCHU Nord,LOCATION/hospital\n", encoding="utf-8")
    out = tmp_path / "spans.jsonl"
    result = CliRunner().invoke(
        app,
        ["detect", str(notes), "-o", str(out), "--detectors", "patterns", "--no-progress",
         "--allow-list", str(tmp_path / "allow.txt"), "--deny-list", str(tmp_path / "deny.csv"),
         "--known-field", "pname=NAME/patient"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    spans = {(s["text"], s["label"]) for s in json.loads(out.read_text(encoding="utf-8"))["spans"]}
    assert spans == {("quackenbush", "NAME"), ("CHU Nord", "LOCATION")}
