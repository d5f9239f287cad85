"""Messages a batch scheduler's operator reads (issue 19): versions, install hints, named files and tables."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anonymed.cli import app
from anonymed.errors import InputFileError
from anonymed.io.atomic import output_error
from anonymed.io.common import RecordProblem, parse_json

runner = CliRunner()


def test_version_prints_the_installed_version() -> None:
    from importlib import metadata

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.strip() == f"anonymed {metadata.version('anonymed')}"


def test_a_missing_input_is_called_an_input_not_a_record(tmp_path: Path) -> None:
    missing, spans = str(tmp_path / "missing.jsonl"), str(tmp_path / "s.jsonl")
    result = runner.invoke(app, ["detect", missing, "-o", spans])
    said = " ".join(result.output.split())  # the message may wrap at the console's width
    assert result.exit_code == 2 and f"input {missing!r} does not exist" in said and "record" not in said
    assert str(InputFileError("x.csv", "malformed CSV header")) == "input 'x.csv': malformed CSV header"


def test_an_unterminated_string_says_at_once() -> None:
    with pytest.raises(RecordProblem) as caught:
        parse_json('{"text": "never closed')
    assert "at at" not in caught.value.reason and "at column" in caught.value.reason


def test_a_hidden_work_file_is_reported_as_its_folder() -> None:
    error = output_error(
        Path("/data/out/.notes.jsonl.anonymed-run"), PermissionError(13, "Permission denied")
    )
    assert str(error) == "cannot write in the output's folder '/data/out': Permission denied"


def test_error_messages_keep_their_brackets(tmp_path: Path) -> None:
    (tmp_path / "x.toml").write_text('[hybrid]\nthem = "words"\n')
    result = runner.invoke(
        app, ["obfuscate", "hybrid", "in.jsonl", "-o", "o.jsonl", "--config", str(tmp_path / "x.toml")]
    )
    assert result.exit_code == 2 and "unknown [hybrid] keys ['them']" in result.output


def test_a_missing_optional_module_names_its_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m.startswith("anonymed.evaluate")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "rapidfuzz", None)
    config = tmp_path / "report.toml"
    config.write_text("[report]\n")
    args = ["evaluate", "report", str(config), "-o", str(tmp_path / "r"), "--quick"]
    result = runner.invoke(app, args, terminal_width=200)
    assert result.exit_code == 2, result.output
    assert "rapidfuzz is not installed: pip install 'anonymed[evaluate,embed]'" in result.output
    assert "Traceback" not in result.output


def test_the_dask_hint_keeps_its_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("distributed", "dask", "dask.distributed"):
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delitem(sys.modules, "anonymed.runner.dask", raising=False)
    (tmp_path / "in.jsonl").write_text('{"id": "a", "text": "hello"}\n')
    result = runner.invoke(
        app,
        [
            "detect",
            str(tmp_path / "in.jsonl"),
            "-o",
            str(tmp_path / "s.jsonl"),
            "--workers",
            "2",
            "--no-progress",
        ],
    )
    assert result.exit_code == 2 and "pip install 'anonymed[scale]'" in result.output


def test_a_latin_1_note_runs_with_encoding_and_fails_its_record_without(tmp_path: Path) -> None:
    src = tmp_path / "latin.jsonl"
    src.write_bytes('{"id": "a", "text": "Patient vu à Créteil le 02/12/2020."}\n'.encode("latin-1"))
    out = tmp_path / "out.jsonl"
    args = ["detect", str(src), "-o", str(out), "--detectors", "patterns", "--no-progress"]
    strict = runner.invoke(app, args, terminal_width=200)
    assert "not valid UTF-8" in strict.output  # UTF-8 stays the strict default
    assert "anonymed_error" in out.read_text(encoding="utf-8")
    latin = runner.invoke(app, [*args, "--encoding", "latin-1"], terminal_width=200)
    assert latin.exit_code == 0, latin.output
    spans = json.loads(out.read_text(encoding="utf-8"))["spans"]
    assert [s["text"] for s in spans] == ["02/12/2020"]
    csv = tmp_path / "latin.csv"
    csv.write_bytes("id,text\nb,Séjour à Créteil\n".encode("cp1252"))
    txt = tmp_path / "notes"
    txt.mkdir()
    (txt / "n.txt").write_bytes("Séjour".encode("cp1252"))
    spans_file = tmp_path / "s.jsonl"
    for source in (csv, txt):
        command = ["detect", str(source), "-o", str(spans_file), "--detectors", "patterns", "--no-progress"]
        assert "anonymed_error" in _spans_after(command, 3)  # strict UTF-8 without --encoding: all failed
        assert "anonymed_error" not in _spans_after([*command, "--encoding", "cp1252"])


def _spans_after(command: list[str], code: int = 0) -> str:
    result = runner.invoke(app, command, terminal_width=200)
    assert result.exit_code == code, result.output
    return Path(command[command.index("-o") + 1]).read_text(encoding="utf-8")


def test_an_encoding_that_cannot_split_lines_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "x.jsonl"
    src.write_text("{}\n")
    for name, reason in (("utf-16", "not ASCII-compatible"), ("klingon", "unknown encoding")):
        result = runner.invoke(app, ["detect", str(src), "-o", str(tmp_path / "s.jsonl"), "--encoding", name])
        assert result.exit_code == 2 and reason in result.output, result.output
