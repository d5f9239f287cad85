"""The precedence matrix (config_cases.py) over ``deid-fhir``, ``deid-sql`` and ``review sample``.

Each records its effective configuration where it writes: the FHIR manifest in the output folder, the SQL
run summary, the review folder's manifest. For every option with a configuration key: the value and its
source from the file alone, the option alone, both (the option wins) and neither (the default). Then a
patient key appears only as the path it was read from, a recorded manifest prints as ``config show``
would, seeds through the file and through ``--seed`` give the same output, and ``demo`` applies the
operator of the file, the option, both and neither.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from config_cases import DETECTION, PIPELINE, WAYS, Case, check, config_file, make_files
from config_cases import cases as all_cases
from typer.testing import CliRunner

from anonymed.cli import app
from anonymed.fhir import MANIFEST

runner = CliRunner()
pq = pytest.importorskip("pyarrow.parquet")

COMMANDS = {"deid-fhir": PIPELINE, "deid-sql": PIPELINE, "review sample": (*DETECTION, "seed")}
#: a FHIR or SQL run has a rules table for these profiles only (not ``dp``)
EXPORT_PROFILE = Case(
    "profile",
    ("pipeline", "profile"),
    'profile = "hipaa-safe-harbor"',
    "hipaa-safe-harbor",
    ("--profile", "pseudonymise"),
    "pseudonymise",
    "pseudonymise",
)
PATIENT = {"resourceType": "Patient", "id": "p1", "gender": "female", "birthDate": "1961-03-07",
           "name": [{"family": "Quackenbush", "given": ["Helen"]}]}  # fmt: skip
NOTES = [
    {"id": f"n{i}", "text": f"Seen on 03/0{i}/2021 by Dr. Helen Park, call (617) 555-010{i}."}
    for i in range(1, 5)
]


def _inputs(tmp: Path) -> None:
    make_files(tmp)
    (tmp / "fhir").mkdir()
    (tmp / "fhir" / "Patient.ndjson").write_text(json.dumps(PATIENT) + "\n", encoding="utf-8")
    with sqlite3.connect(tmp / "notes.db") as db:
        db.execute("CREATE TABLE note (note_id INTEGER PRIMARY KEY, note_text TEXT)")
        db.executemany("INSERT INTO note VALUES (?, ?)", [(i, n["text"]) for i, n in enumerate(NOTES)])
    db.close()
    (tmp / "review.jsonl").write_text("".join(json.dumps(n) + "\n" for n in NOTES), encoding="utf-8")


def _command(command: str, tmp: Path, folder: Path) -> list[str]:
    """The command's arguments besides the configuration, writing into ``folder``."""
    if command == "deid-fhir":
        return ["deid-fhir", str(tmp / "fhir"), "-o", str(folder / "out"), "--no-progress"]
    if command == "deid-sql":
        return ["deid-sql", "--url", f"sqlite:///{tmp / 'notes.db'}", "--table", "note",
                "--map", "id=note_id,text=note_text", "-o", str(folder / "out"), "--no-progress",
                "--summary", str(folder / "run.json")]  # fmt: skip
    return ["review", "sample", str(tmp / "review.jsonl"), "-o", str(folder / "out"), "--n", "2",
            "--length-bands", "1", "--oversample", "1"]  # fmt: skip


def _recorded(command: str, folder: Path) -> dict[str, Any]:
    """The configuration ``command`` recorded in what it wrote into ``folder``."""
    where = {"deid-fhir": folder / "out" / MANIFEST, "deid-sql": folder / "run.json"}
    manifest = json.loads(where.get(command, folder / "out" / "manifest.json").read_text())
    return dict(manifest["configuration"])


def _cases(tmp: Path, command: str) -> list[Case]:
    chosen = [case for case in all_cases(tmp) if case.option in COMMANDS[command]]
    if command == "review sample":
        return chosen
    return [EXPORT_PROFILE if case.option == "profile" else case for case in chosen]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Any]:
    """Each command run each way once (every option of the command at the same time)."""
    tmp = tmp_path_factory.mktemp("exports")
    _inputs(tmp)
    runs: dict[tuple[str, str], Any] = {}
    for command in COMMANDS:
        cases = _cases(tmp, command)
        runs[command, "cases"] = cases
        for way in WAYS:
            folder = tmp / f"{command.replace(' ', '-')}-{way}"
            folder.mkdir()
            args = _command(command, tmp, folder)
            if way in ("file", "both"):
                config = tmp / f"{folder.name}.toml"  # beside the files it names
                config_file(cases, config)
                args += ["--config", str(config)]
            if way in ("option", "both"):
                args += [arg for case in cases for arg in case.args]
            result = runner.invoke(app, args)
            assert result.exit_code == 0, (command, way, result.output)
            runs[command, way] = _recorded(command, folder)
    return runs


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize(
    ("command", "option"), [(command, name) for command, names in COMMANDS.items() for name in names]
)
def test_an_option_overrides_the_file_which_overrides_the_default(
    recorded: dict[tuple[str, str], Any], command: str, option: str, way: str
) -> None:
    case = next(c for c in recorded[command, "cases"] if c.option == option)
    check(case, recorded[command, way], way)  # the seed: its source only (config_cases.check)


def test_the_review_manifest_holds_what_detection_reads_only(recorded: dict[tuple[str, str], Any]) -> None:
    review = recorded["review sample", "neither"]
    assert set(review["values"]) == {"pipeline"} and "operators" in recorded["deid-sql", "neither"]["values"]


def _key(tmp_path: Path) -> Path:
    key = tmp_path / "key.bin"
    key.write_bytes(b"s3cr3t-patient-key-0123456789")
    return key


@pytest.mark.parametrize("command", ["deid-fhir", "deid-sql"])
def test_a_patient_key_is_recorded_as_its_path_only(tmp_path: Path, command: str) -> None:
    _inputs(tmp_path)
    key = _key(tmp_path)
    base = [*_command(command, tmp_path, tmp_path), "--detectors", "patterns"]
    by_option = runner.invoke(app, [*base, "--patient-key-file", str(key)])
    assert by_option.exit_code == 0, by_option.output
    written = (tmp_path / "out" / MANIFEST) if command == "deid-fhir" else tmp_path / "run.json"
    assert b"s3cr3t" not in written.read_bytes()
    assert _recorded(command, tmp_path)["secrets"] == {"patient_key": {"file": str(key), "source": "option"}}
    (tmp_path / "out").rename(tmp_path / "first")
    by_env = runner.invoke(app, base, env={"ANONYMED_PATIENT_KEY_FILE": str(key)})
    assert by_env.exit_code == 0, by_env.output
    secrets = _recorded(command, tmp_path)["secrets"]
    assert secrets == {"patient_key": {"file": str(key), "source": "environment"}}


def test_config_show_prints_what_a_fhir_manifest_recorded_but_its_seed(tmp_path: Path) -> None:
    _inputs(tmp_path)
    options = ["--detectors", "patterns", "--operator", "NAME=tag"]
    result = runner.invoke(app, [*_command("deid-fhir", tmp_path, tmp_path), *options, "--seed", "2"])
    assert result.exit_code == 0, result.output
    recorded = runner.invoke(app, ["config", "show", "--from-summary", str(tmp_path / "out" / MANIFEST)])
    shown = runner.invoke(app, ["config", "show", *options])
    assert recorded.exit_code == 0 and recorded.stdout == shown.stdout
    assert 'NAME = "tag"  # option' in recorded.stdout and "seed" not in recorded.stdout


def _output(command: str, folder: Path) -> Any:
    """What ``command`` wrote, without its record of the configuration (whose sources differ)."""
    if command == "deid-fhir":
        return (folder / "out" / "Patient.ndjson").read_bytes()
    if command == "deid-sql":
        parts = sorted((folder / "out").glob("part-*.parquet"))
        return sorted((row for part in parts for row in pq.read_table(part).to_pylist()), key=str)
    return [(folder / "out" / name).read_bytes() for name in ("sample.csv", "notes.jsonl")]


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_seed_in_the_file_gives_the_output_of_the_same_seed_as_an_option(
    tmp_path: Path, command: str
) -> None:
    _inputs(tmp_path)
    (tmp_path / "seed.toml").write_text('[pipeline]\nseed = 11\ndetectors = ["patterns"]\n')
    outputs = {}
    for way, options in (("file", ["--config", str(tmp_path / "seed.toml")]),
                         ("option", ["--seed", "11", "--detectors", "patterns"]),
                         ("other", ["--seed", "12", "--detectors", "patterns"])):  # fmt: skip
        folder = tmp_path / way
        folder.mkdir()
        result = runner.invoke(app, [*_command(command, tmp_path, folder), *options])
        assert result.exit_code == 0, result.output
        outputs[way] = _output(command, folder)
    assert outputs["file"] == outputs["option"]
    assert outputs["file"] != outputs["other"]  # the seed matters


@pytest.mark.parametrize("way", WAYS)
def test_demo_applies_the_operator_of_the_file_the_option_or_the_default(tmp_path: Path, way: str) -> None:
    (tmp_path / "demo.toml").write_text(
        '[pipeline]\ndetectors = ["patterns"]\n[operators]\nCONTACT = "tag"\n'
    )
    args = ["demo", "--json", "--detectors", "patterns"]
    args += ["--config", str(tmp_path / "demo.toml")] if way in ("file", "both") else []
    args += ["--operator", "CONTACT=redact"] if way in ("option", "both") else []
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    tagged, redacted = "reached at [CONTACT]" in result.stdout, "reached at ****" in result.stdout
    assert (tagged, redacted) == (way == "file", way in ("option", "both"))
