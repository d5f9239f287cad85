"""One precedence for every command (docs/configuration.md): defaults < profile < file < typed options.

For every command that runs the pipeline and every option with a configuration key: the value from the
file alone, from the option alone, from both (the option wins; allow and deny lists add up) and from
neither (the default), read back from what the command records (the run summary, or ``config show``).
Then: seeded runs through a file and through the option give the same bytes, and ``config show`` output
fed back with ``--config`` reproduces a run byte for byte.
"""

from __future__ import annotations

import dataclasses
import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from config_cases import DETECTION, HYBRID, PIPELINE, WAYS, Case, check, config_file, make_files
from config_cases import cases as all_cases
from typer.testing import CliRunner

from anonymed.cli import app
from anonymed.cli.deid import SAMPLE

runner = CliRunner()


COMMANDS = {
    "deid": PIPELINE,
    "detect": DETECTION,
    "obfuscate hybrid": HYBRID,
    "config show": HYBRID,
    "obfuscate words": ("seed", "n", "space"),
    "obfuscate sentences": ("seed", "k", "bank"),
}
#: the table the second stage's options set, per command
STAGE = {"obfuscate words": "words", "obfuscate sentences": "sentences"}


def _for(command: str, case: Case) -> Case:
    """The case as ``command`` reads it: ``--n`` of ``obfuscate words`` sets ``[words] n``..."""
    if command in STAGE and case.key[0] == "hybrid":
        return dataclasses.replace(case, key=(STAGE[command], case.option))
    return case


def _effective(command: str, way: str, tmp: Path, cases: list[Case]) -> dict[str, Any]:
    """Run ``command`` one way and return its recorded configuration: {"values", "sources"}."""
    args = [*command.split()]
    folder = tmp / f"{command.replace(' ', '-')}-{way}"
    folder.mkdir()
    if command != "config show":
        args += [str(tmp / "notes.jsonl"), "-o", str(folder / "out.jsonl"), "--no-progress"]
        args += ["--summary", str(folder / "run.json")]
    if way in ("file", "both"):
        config = tmp / f"{folder.name}.toml"  # beside the files it names
        config_file(cases, config)
        args += ["--config", str(config)]
    if way in ("option", "both"):
        args += [arg for case in cases for arg in case.args]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    if command != "config show":
        return dict(json.loads((folder / "run.json").read_text())["configuration"])
    sources: dict[str, str] = {}
    table = ""
    for line in result.stdout.splitlines():
        if line.startswith("["):
            table = line.strip("[]")
        elif " = " in line:
            key = line.split(" = ")[0].strip('"')
            sources[f"{table}.{key}"] = re.sub(r".*  # ", "", line)
    return {"values": tomllib.loads(result.stdout), "sources": sources}


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], dict[str, Any]]:
    """Each command run each way once (every option of the command at the same time)."""
    tmp = tmp_path_factory.mktemp("precedence")
    make_files(tmp)
    cases = all_cases(tmp)
    runs = {}
    for command, names in COMMANDS.items():
        chosen = [_for(command, case) for case in cases if case.option in names]
        for way in WAYS:
            runs[command, way] = _effective(command, way, tmp, chosen)
    return {**runs, ("cases", ""): {"cases": cases}}


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize(
    ("command", "option"), [(command, name) for command, names in COMMANDS.items() for name in names]
)
def test_an_option_overrides_the_file_which_overrides_the_default(
    recorded: dict[tuple[str, str], dict[str, Any]], command: str, option: str, way: str
) -> None:
    case = _for(command, next(c for c in recorded["cases", ""]["cases"] if c.option == option))
    check(case, recorded[command, way], way, written=command != "config show")


def _run(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output


def test_a_seed_in_the_file_gives_the_bytes_of_the_same_seed_as_an_option(tmp_path: Path) -> None:
    (tmp_path / "seed.toml").write_text(
        '[pipeline]\nseed = 11\ndetectors = ["patterns"]\n[hybrid]\nthen = "words"\n'
    )
    common = [str(SAMPLE), "--no-progress"]
    outputs = {}
    for command in ("deid", "obfuscate hybrid"):
        name = command.replace(" ", "-")
        by_file, by_option, other = (tmp_path / f"{name}-{way}.jsonl" for way in ("file", "option", "other"))
        _run([*command.split(), *common, "-o", str(by_file), "--config", str(tmp_path / "seed.toml")])
        options = ["--seed", "11", "--detectors", "patterns"] + (
            ["--then", "words"] if "hybrid" in command else []
        )
        _run([*command.split(), *common, "-o", str(by_option), *options])
        _run([*command.split(), *common, "-o", str(other), *options[:-2], "--seed", "12", *options[2:]])
        assert by_file.read_bytes() == by_option.read_bytes(), command
        assert by_file.read_bytes() != other.read_bytes(), command  # the seed matters
        outputs[command] = by_file.read_bytes()
    assert outputs["deid"] != outputs["obfuscate hybrid"]


def test_config_show_fed_back_reproduces_the_run(tmp_path: Path) -> None:
    (tmp_path / "allow.txt").write_text("Babinski\n", encoding="utf-8")
    (tmp_path / "base.toml").write_text(
        '[pipeline]\nprofile = "hipaa-safe-harbor"\n[operators]\nDATE = "date_shift"\n'
    )
    options = ["--config", str(tmp_path / "base.toml"), "--seed", "4", "--detectors", "patterns",
               "--operator", "NAME=tag", "--allow-list", str(tmp_path / "allow.txt"),
               "--then", "words"]  # fmt: skip
    shown = tmp_path / "shown.toml"
    _run(["config", "show", *options, "-o", str(shown)])
    text = shown.read_text()
    assert (
        "[pipeline]\n" in text and 'NAME = "tag"  # option' in text and 'DATE = "date_shift"  # file' in text
    )
    for command, chosen in (("deid", options[:-2]), ("obfuscate hybrid", options)):
        direct, replayed = tmp_path / "direct.jsonl", tmp_path / "replayed.jsonl"
        _run([*command.split(), str(SAMPLE), "-o", str(direct), "--no-progress", *chosen])
        _run([*command.split(), str(SAMPLE), "-o", str(replayed), "--no-progress", "--config", str(shown)])
        assert direct.read_bytes() == replayed.read_bytes(), command
    again = runner.invoke(app, ["config", "show", "--config", str(shown)])
    assert tomllib.loads(again.stdout) == tomllib.loads(text)  # the shown configuration is a fixed point


def test_config_show_prints_what_a_run_summary_recorded(tmp_path: Path) -> None:
    out, summary = tmp_path / "out.jsonl", tmp_path / "run.json"
    _run(
        [
            "deid",
            str(SAMPLE),
            "-o",
            str(out),
            "--no-progress",
            "--detectors",
            "patterns",
            "--summary",
            str(summary),
        ]
    )
    recorded = runner.invoke(app, ["config", "show", "--from-summary", str(summary)])
    shown = runner.invoke(app, ["config", "show", "--detectors", "patterns"])
    assert recorded.exit_code == 0 and recorded.stdout == shown.stdout
    refused = runner.invoke(app, ["config", "show", "--from-summary", str(summary), "--seed", "1"])
    assert refused.exit_code == 2 and "give no other option" in refused.output


def test_a_summary_never_holds_the_patient_key(tmp_path: Path) -> None:
    key = tmp_path / "key.bin"
    key.write_bytes(b"k" * 32)
    summary = tmp_path / "run.json"
    _run(["deid", str(SAMPLE), "-o", str(tmp_path / "o.jsonl"), "--no-progress", "--detectors", "patterns",
          "--patient-key-file", str(key), "--summary", str(summary)])  # fmt: skip
    text = summary.read_text()
    assert "k" * 32 not in text
    assert json.loads(text)["configuration"]["secrets"]["patient_key"] == {
        "file": str(key),
        "source": "option",
    }


def test_help_texts_print_bracketed_words_and_the_seed_s_limit() -> None:
    hybrid = runner.invoke(app, ["obfuscate", "hybrid", "--help"], terminal_width=200)
    assert (
        "[hybrid] table" in hybrid.output and "--operator" in hybrid.output and "--epsilon" in hybrid.output
    )
    deid = runner.invoke(app, ["deid", "--help"], terminal_width=200)
    assert "cannot be seeded" in deid.output and "[default: en]" in deid.output


def test_a_seeded_run_with_dp_operators_says_the_noise_is_not_seeded(tmp_path: Path) -> None:
    summary = tmp_path / "run.json"
    result = runner.invoke(app, ["deid", str(SAMPLE), "-o", str(tmp_path / "o.jsonl"), "--no-progress",
                                 "--detectors", "patterns", "--profile", "dp", "--seed", "1",
                                 "--summary", str(summary)])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "OpenDP" in result.output and json.loads(summary.read_text())["dp_noise_seeded"] is False


def test_an_unknown_key_names_its_table(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text('[pipeline]\nlangg = "en"\n')
    result = runner.invoke(app, ["config", "show", "--config", str(tmp_path / "bad.toml")])
    assert result.exit_code == 2 and "unknown [pipeline] keys ['langg']" in result.output
    assert "known_detector" not in result.output


@pytest.mark.parametrize(
    ("command", "table"), [("words", '[words]\nn = "4"\n'), ("sentences", "[sentences]\nk = 3\n")]
)
def test_obfuscation_seeded_by_file_or_option_gives_the_same_bytes(
    tmp_path: Path, command: str, table: str
) -> None:
    (tmp_path / "seed.toml").write_text(f"[pipeline]\nseed = 21\n{table}")
    key, value = table.split("\n")[1].split(" = ")
    by_file, by_option = tmp_path / "file.jsonl", tmp_path / "option.jsonl"
    common = ["obfuscate", command, str(SAMPLE), "--no-progress", "-o"]
    _run([*common, str(by_file), "--config", str(tmp_path / "seed.toml")])
    _run([*common, str(by_option), "--seed", "21", f"--{key}", value.strip('"')])
    assert by_file.read_bytes() == by_option.read_bytes()
