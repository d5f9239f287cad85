"""``anonymed deid`` / ``detect`` / ``demo`` end to end on small files."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from anonymed.cli import app
from anonymed.cli.deid import SAMPLE

runner = CliRunner()


def write_notes(path: Path) -> None:
    lines = [
        json.dumps({"id": "a", "site": "x", "text": "Seen by Dr. Helen Park on 02/12/2020, aged 40 years."}),
        "{not json",  # malformed line: reported, counted, kept as a placeholder
        json.dumps({"id": "c", "site": "y", "text": "Call (617) 555-0142. Mr. JOHN DURAND."}),
    ]
    path.write_text("\n".join(lines) + "\n")


def test_deid_keeps_every_record_in_order_and_writes_a_privacy_report(tmp_path: Path) -> None:
    src, out, report = tmp_path / "in.jsonl", tmp_path / "out.jsonl", tmp_path / "privacy.jsonl"
    write_notes(src)
    result = runner.invoke(
        app,
        [
            "deid",
            str(src),
            "-o",
            str(out),
            "--epsilon",
            "1",
            "--privacy-report",
            str(report),
            "--no-progress",
            "--max-failures",
            "1",
        ],
    )
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r.get("id") for r in rows] == ["a", "2", "c"]
    assert "anonymed_error" in rows[1] and rows[0]["site"] == "x"
    assert "Helen Park" not in rows[0]["text"] and "555-0142" not in rows[2]["text"]
    privacy = [json.loads(line) for line in report.read_text().splitlines()]
    assert privacy[0]["privacy"]["epsilon_total"] == 1.0
    assert privacy[0]["privacy"]["epsilon_spent"] <= 1.0


def test_strict_deid_stops_and_leaves_no_output(tmp_path: Path) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_notes(src)
    result = runner.invoke(app, ["deid", str(src), "-o", str(out), "--strict", "--no-progress"])
    assert result.exit_code != 0
    assert not out.exists()


def test_bad_options_name_the_value(tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    write_notes(src)
    result = runner.invoke(
        app, ["deid", str(src), "-o", str(tmp_path / "o.jsonl"), "--operator", "NAME=shred"]
    )
    assert result.exit_code == 2
    assert "shred" in result.output


def test_detect_writes_the_spans_contract(tmp_path: Path) -> None:
    out = tmp_path / "spans.jsonl"
    result = runner.invoke(app, ["detect", str(SAMPLE), "-o", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    first = json.loads(out.read_text().splitlines()[0])
    assert first["id"] == "sample-1"
    assert {"start", "end", "label", "text"} <= set(first["spans"][0])


def test_demo_prints_before_and_after() -> None:
    result = runner.invoke(app, ["demo", "--json"])
    assert result.exit_code == 0, result.output
    assert "sample-5" in result.output


def test_demo_shows_the_default_profile() -> None:
    result = runner.invoke(app, ["demo"])
    assert result.exit_code == 0, result.output
    assert "profile: pseudonymise" in result.output
    shown = runner.invoke(app, ["demo", "--json", "--seed", "3"]).output
    first = shown.split('"output": "')[1].split('"')[0]
    assert first.startswith("Mr. ") and "02/12/2020" not in first and "Durand" not in first


def test_deid_summary_counts_labels_operators_and_outcomes_without_values(tmp_path: Path) -> None:
    src, out, summary = tmp_path / "in.jsonl", tmp_path / "out.jsonl", tmp_path / "run.json"
    write_notes(src)
    args = [
        "deid",
        str(src),
        "-o",
        str(out),
        "--summary",
        str(summary),
        "--no-progress",
        "--max-failures",
        "1",
    ]
    result = runner.invoke(app, [*args, "--operator", "CONTACT=keep"])
    assert result.exit_code == 0, result.output
    data = json.loads(summary.read_text())
    substitution = data["substitution"]
    assert substitution["profile"] == "pseudonymise"
    assert substitution["by_label"]["DATE"] == {"date_shift": {"replaced": 1}}
    assert substitution["by_label"]["CONTACT/phone"] == {"keep": {"kept": 1}}
    assert substitution["totals"]["kept"] == 1 and substitution["totals"]["fallback"] == 0
    assert "02/12/2020" not in summary.read_text() and "Helen" not in summary.read_text()
    assert "substitution (profile pseudonymise)" in result.output


def test_deid_with_the_dp_profile_reports_unchanged_values(tmp_path: Path) -> None:
    src, out, summary = tmp_path / "in.jsonl", tmp_path / "out.jsonl", tmp_path / "run.json"
    write_notes(src)
    args = [
        "deid",
        str(src),
        "-o",
        str(out),
        "--summary",
        str(summary),
        "--no-progress",
        "--max-failures",
        "1",
        "--profile",
        "dp",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    dp = json.loads(summary.read_text())["substitution"]["dp"]
    assert (
        dp["spans"] >= 2
        and 0 <= dp["unchanged"] <= dp["spans"]
        and 0 < dp["expected_unchanged"] < dp["spans"]
    )
    assert "written back unchanged" in result.output


def test_deid_with_safe_harbor_prints_the_checklist(tmp_path: Path) -> None:
    src, out, summary = tmp_path / "in.jsonl", tmp_path / "out.jsonl", tmp_path / "run.json"
    write_notes(src)
    args = [
        "deid",
        str(src),
        "-o",
        str(out),
        "--summary",
        str(summary),
        "--no-progress",
        "--max-failures",
        "1",
    ]
    result = runner.invoke(app, [*args, "--profile", "hipaa-safe-harbor"])
    assert result.exit_code == 0, result.output
    checklist = json.loads(summary.read_text())["substitution"]["checklist"]
    assert [row["kind"] for row in checklist] == list("ABCDEFGHIJKLMNOPQR")
    assert "HIPAA Safe Harbor checklist" in result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert "2020" in rows[0]["text"] and "02/12/2020" not in rows[0]["text"]


def test_an_unknown_profile_names_the_known_ones(tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    write_notes(src)
    result = runner.invoke(app, ["deid", str(src), "-o", str(tmp_path / "o.jsonl"), "--profile", "loose"])
    assert result.exit_code == 2 and "loose" in result.output and "pseudonymise" in result.output


def test_demo_french_notes_keep_their_text_between_identifiers() -> None:
    """The words between an address and a hospital, and the labels of identifiers, stay text."""
    shown = runner.invoke(app, ["demo", "--json", "--seed", "3"]).output
    decoder, records, index = json.JSONDecoder(), {}, 0
    while index < len(shown):
        if shown[index].isspace():
            index += 1
            continue
        record, index = decoder.raw_decode(shown, index)
        records[record["id"]] = record
    assert ", hospitalisée au CHU " in records["sample-4"]["output"]
    assert "Tél : " in records["sample-4"]["output"] and "NIR " in records["sample-4"]["output"]
    assert " IPP " in records["sample-5"]["output"]
    assert not any(span["text"] in ("IPP", "NIR") for r in records.values() for span in r["spans"])
