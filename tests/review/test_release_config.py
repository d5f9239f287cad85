"""The release report's configuration: profile and replacements from the run summary, the site's files by
fingerprint (never their contents)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from anonymed.cli import app
from anonymed.review.folder import fingerprint
from anonymed.review.release import ReleaseInputs, build_release
from anonymed.review.release_html import release_html

SECRET_DENIED = "Zorkowitz"
SECRET_CLINICIAN = "Quillfeather"
SECRET_PATIENT = "Ondine Marsh"


def _site(tmp_path: Path, profile: str = "hipaa-safe-harbor") -> Path:
    (tmp_path / "allow.txt").write_text("# eponyms\nParkinson\nHodgkin\n")
    (tmp_path / "deny.csv").write_text(f"term,label,match,case\n{SECRET_DENIED},NAME,word,sensitive\n")
    (tmp_path / "staff.csv").write_text(f"given,family\nAda,{SECRET_CLINICIAN}\n")
    (tmp_path / "registry.csv").write_text(f"patient_id,pname\np1,{SECRET_PATIENT}\n")
    config = tmp_path / "site.toml"
    config.write_text(
        f'[pipeline]\nprofile = "{profile}"\ndetectors = ["patterns"]\n'
        '[known]\nside_file = "registry.csv"\nclinicians = "staff.csv"\ntypos = false\n'
        '[known.fields]\npname = "NAME/patient"\n'
        '[lists]\nallow = ["allow.txt"]\ndeny = "deny.csv"\n'
        "[[detector_params.patterns.custom]]\n"
        'name = "ipp"\nlabel = "ID/mrn"\nregex = \'8\\d{9}\'\n'
    )
    return config


def _summary(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "run.json"
    path.write_text(json.dumps({"read": 3, "written": 3, "failed": 0, **data}))
    return path


SUBSTITUTION = {
    "profile": "hipaa-safe-harbor",
    "by_label": {
        "NAME": {"fake": {"replaced": 4, "fallback": 1}},
        "AGE": {"age_over89": {"kept": 2}},
        "DATE": {"year_only": {"replaced": 3}},
    },
    "totals": {"replaced": 7, "fallback": 1, "kept": 2, "unchanged": 0},
    "dp": {"spans": 0, "unchanged": 0, "expected_unchanged": 0.0},
    "checklist": [{"kind": "A", "identifier": "Names", "found": 5, "done": {"fake": {}}, "note": ""}],
}


def test_profile_and_replacements_per_operator_come_from_the_run_summary(tmp_path: Path) -> None:
    summary = _summary(tmp_path, {"spans_by_label": {"NAME": 5}, "substitution": SUBSTITUTION})
    data = build_release(ReleaseInputs(summary))
    assert data["configuration"]["profile"] == "hipaa-safe-harbor"
    assert data["configuration"]["profile_source"] == "run summary"
    assert not any("profile" in item for item in data["pending"])
    rep = data["replacements"]
    assert rep["by_label"]["NAME"] == {"spans": 5, "operators": {"fake": {"replaced": 4, "fallback": 1}}}
    assert rep["by_label"]["AGE"]["operators"] == {"age_over89": {"kept": 2}}
    assert rep["spans"] == 10 and rep["totals"]["kept"] == 2 and rep["checklist"][0]["kind"] == "A"
    page = release_html(data)
    assert "fake: 4 replaced, 1 fallback" in page and "HIPAA Safe Harbor" in page


def test_an_old_summary_falls_back_to_spans_per_label_and_the_configured_operators(tmp_path: Path) -> None:
    summary = _summary(tmp_path, {"spans_by_label": {"NAME": 5, "DATE": 2}})
    config = tmp_path / "deid.toml"
    config.write_text('[operators]\nNAME = "keep"\n')
    data = build_release(ReleaseInputs(summary, config=config))
    rep = data["replacements"]
    assert rep["by_label"]["NAME"] == {"spans": 5, "operators": {"keep": {}}}
    assert rep["totals"] == {"kept": 5} and rep["checklist"] is None
    assert data["configuration"]["profile_source"] == "configuration file deid.toml"
    without = build_release(ReleaseInputs(summary))
    assert without["configuration"]["profile"] is None
    assert "profile: not recorded by the run summary (give --config)" in without["pending"]


def test_site_files_are_named_by_path_and_fingerprint_never_quoted(tmp_path: Path) -> None:
    config = _site(tmp_path)
    summary = _summary(tmp_path, {"substitution": SUBSTITUTION})
    data = build_release(ReleaseInputs(summary, config=config))
    site = data["configuration"]["site"]
    assert site["allow_lists"] == [
        {"path": str(tmp_path / "allow.txt"), "fingerprint": fingerprint(tmp_path / "allow.txt")}
    ]
    assert site["deny_lists"][0]["fingerprint"] == fingerprint(tmp_path / "deny.csv")
    assert (site["allow_entries"], site["deny_entries"]) == (2, 1) and site["lists_digest"]
    assert site["known_fields"] == {"pname": "NAME/patient"} and site["known_typos"] is False
    assert site["known_side_file"]["fingerprint"] == fingerprint(tmp_path / "registry.csv")
    assert site["known_side_key"] == "patient_id" and site["keep_known_fields"] is False
    assert site["rosters"]["clinicians"]["fingerprint"] == fingerprint(tmp_path / "staff.csv")
    assert site["custom_patterns"] == ["ipp"]
    assert data["configuration"]["operators"]["AGE"] == "age_over89"  # the profile's, laid under the file's
    page = release_html(data)
    assert "deny.csv" in page and fingerprint(tmp_path / "staff.csv") in page
    for secret in (SECRET_DENIED, SECRET_CLINICIAN, SECRET_PATIENT, "Parkinson"):
        assert secret not in json.dumps(data) and secret not in page


def test_a_profile_overridden_on_the_command_line_is_flagged(tmp_path: Path) -> None:
    config = tmp_path / "deid.toml"
    config.write_text('[pipeline]\nprofile = "pseudonymise"\n')
    summary = _summary(tmp_path, {"substitution": SUBSTITUTION})
    data = build_release(ReleaseInputs(summary, config=config))
    assert data["configuration"]["profile"] == "hipaa-safe-harbor"
    assert any("'hipaa-safe-harbor'" in w and "'pseudonymise'" in w for w in data["warnings"])


def test_release_report_of_a_real_run_with_site_settings(tmp_path: Path) -> None:
    config = _site(tmp_path)
    source = tmp_path / "notes.jsonl"
    text = "Seen by Dr. Ada Quillfeather on 3/4/2020, age 93."
    source.write_text(json.dumps({"id": "1", "patient_id": "p1", "text": text}) + "\n")
    summary, release = tmp_path / "run.json", tmp_path / "release.json"
    run_args = ["deid", str(source), "-o", str(tmp_path / "out.jsonl"), "--config", str(config)]
    (tmp_path / "extra-allow.txt").write_text("Hodgkin\n")
    extra = ["--allow-list", str(tmp_path / "extra-allow.txt")]  # added to the file's allow list
    deid = CliRunner().invoke(app, [*run_args, *extra, "--summary", str(summary), "--no-progress"])
    assert deid.exit_code == 0, deid.output
    args = ["release", "report", "--summary", str(summary), "-o", str(release)]  # no --config: the summary's
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(release.read_text())
    assert data["configuration"]["profile"] == "hipaa-safe-harbor"
    assert data["configuration"]["profile_source"] == "run summary"
    assert data["configuration"]["source"].startswith("run summary")
    site, sources = data["configuration"]["site"], data["configuration"]["sources"]
    assert [f["fingerprint"] for f in site["allow_lists"]] == [
        fingerprint(tmp_path / "allow.txt"),
        fingerprint(tmp_path / "extra-allow.txt"),
    ]
    assert sources["lists.allow"] == "option" and sources["lists.deny"] == "file"
    assert site["deny_lists"][0]["fingerprint"] == fingerprint(tmp_path / "deny.csv")
    assert (site["allow_entries"], site["deny_entries"]) == (3, 1)
    assert site["rosters"]["clinicians"]["fingerprint"] == fingerprint(tmp_path / "staff.csv")
    assert site["known_fields"] == {"pname": "NAME/patient"}
    run = json.loads(summary.read_text())["substitution"]["by_label"]
    assert {label: row["operators"] for label, row in data["replacements"]["by_label"].items()} == run
    assert data["replacements"]["checklist"] and data["configuration"]["site"]["known_fields"]
    assert SECRET_CLINICIAN not in release.read_text() + (tmp_path / "release.html").read_text()
