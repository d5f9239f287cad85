"""Secrets never reach logs or outputs; outputs and work files are owner-only (SECURITY.md)."""

from __future__ import annotations

import base64
import hashlib
import json
import stat
import subprocess
import sys
from pathlib import Path, PurePosixPath

import pytest

from anonymed.config import PipelineConfig
from anonymed.errors import ConfigError
from anonymed.io.atomic import AtomicDir, AtomicFile
from anonymed.io.registry import open_writer
from anonymed.labels import Label
from anonymed.methods import ReplaceConfig
from anonymed.runner.batch import BatchOptions, default_workdir, run_batch
from anonymed.runner.shards import ReaderSpec
from anonymed.service.settings import ServiceSettings, read_api_key

PATIENT_KEY = b"PLANTED-patient-key-0123456789abcdef"
API_KEY = "PLANTED-api-key-0123456789abcdef"
NOTE_NAME = "Quackenbush"
CLI = [sys.executable, "-c", "from anonymed.cli import main; main()"]


def encodings(secret: bytes) -> list[bytes]:
    """The secret as written, in hex, in base64 and as its SHA-256 (what a careless log would hold)."""
    return [
        secret,
        secret.hex().encode(),
        base64.b64encode(secret),
        hashlib.sha256(secret).hexdigest().encode(),
    ]


def files_under(folder: Path) -> list[Path]:
    return [path for path in folder.rglob("*") if path.is_file()]


def write_corpus(path: Path) -> Path:
    lines = [
        json.dumps({"id": f"n{i}", "text": f"Mr. Zebulon {NOTE_NAME} seen 02/1{i}/2020.", "patient_id": "p1"})
        for i in range(6)
    ]
    lines.insert(3, '{"id": "broken", "text": "Mr. Quackenbush')  # a failure: its reason is printed
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_patient_key_never_reaches_logs_outputs_or_the_summary(tmp_path: Path) -> None:
    key_file = tmp_path / "patient.key"
    key_file.write_bytes(PATIENT_KEY)
    key_file.chmod(0o600)
    corpus = write_corpus(tmp_path / "notes.jsonl")
    out = tmp_path / "out"
    out.mkdir()
    done = subprocess.run(
        [
            *CLI,
            "deid",
            str(corpus),
            "-o",
            str(out / "notes.jsonl"),
            "--patient-key-file",
            str(key_file),
            "--summary",
            str(out / "summary.json"),
            "--privacy-report",
            str(out / "privacy.jsonl"),
            "--operator",
            "DATE=dp_date",
            "--epsilon",
            "1",
            "--verbose",
            "--no-progress",
            "--max-failures",
            "1",
            "--shard-size",
            "2",
        ],
        capture_output=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr.decode()
    produced = [done.stdout, done.stderr, *(path.read_bytes() for path in files_under(out))]
    assert len(produced) == 5
    for blob in produced:
        for secret in encodings(PATIENT_KEY):
            assert secret not in blob
    assert NOTE_NAME.encode() not in done.stdout + done.stderr  # the note's text is not printed either


def test_the_work_folder_holds_no_key_and_is_owner_only(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "notes.jsonl")
    output = tmp_path / "out.jsonl"
    spec = ReaderSpec.of(corpus)
    config = PipelineConfig(
        patient_key=PATIENT_KEY, seed=1, operators={Label.DATE: "fake", Label.AGE: "fake"}
    )
    options = BatchOptions(shard_size=2, keep_workdir=True)
    run_batch(spec, open_writer(output, like=spec.open()), ReplaceConfig(config), options)
    workdir = default_workdir(output)
    assert stat.S_IMODE(workdir.stat().st_mode) == 0o700
    shards = [p for p in files_under(workdir) if p.name.startswith("shard-")]
    assert len(shards) == 4
    for path in [*shards, workdir / "manifest.jsonl"]:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name
        for secret in encodings(PATIENT_KEY):
            assert secret not in path.read_bytes()
    assert NOTE_NAME.encode() not in (workdir / "manifest.jsonl").read_bytes()  # counts and ids only
    assert stat.S_IMODE(output.stat().st_mode) == 0o600


@pytest.mark.parametrize(
    ("fmt", "name", "mode"),
    [
        ("jsonl", "out.jsonl", 0o600),
        ("csv", "out.csv", 0o600),
        ("parquet", "out.parquet", 0o600),
        ("physionet-deid", "out.text", 0o600),
        ("txt", "out", 0o700),  # a folder: its files are reachable only through it
        ("spans", "spans.jsonl", 0o600),
    ],
)
def test_outputs_are_created_owner_only(tmp_path: Path, fmt: str, name: str, mode: int) -> None:
    corpus = write_corpus(tmp_path / "notes.jsonl")
    spec = ReaderSpec.of(corpus)
    target = tmp_path / name
    run_batch(spec, open_writer(target, fmt), ReplaceConfig(PipelineConfig(seed=1)), BatchOptions())
    assert stat.S_IMODE(target.stat().st_mode) == mode


def test_a_work_folder_others_can_write_to_is_refused(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "notes.jsonl")
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)  # anyone could plant shard files and manifest lines here
    spec = ReaderSpec.of(corpus)
    with pytest.raises(ConfigError, match="not writable by others"):
        run_batch(
            spec,
            open_writer(tmp_path / "out.jsonl", like=spec.open()),
            ReplaceConfig(PipelineConfig(seed=1)),
            BatchOptions(workdir=shared),
        )
    assert not (tmp_path / "out.jsonl").exists()


def test_the_api_key_is_not_in_settings_repr_or_errors(tmp_path: Path) -> None:
    assert API_KEY not in repr(ServiceSettings(api_key=API_KEY))
    key_file = tmp_path / "api.key"
    key_file.write_text(API_KEY, encoding="utf-8")
    assert read_api_key({"ANONYMED_API_KEY_FILE": str(key_file)}) == API_KEY
    with pytest.raises(ConfigError) as caught:
        read_api_key({"ANONYMED_API_KEY": API_KEY, "ANONYMED_API_KEY_FILE": str(key_file)})
    assert API_KEY not in str(caught.value)
    with pytest.raises(ConfigError) as short:
        ServiceSettings(api_key=API_KEY[:10])
    assert API_KEY[:10] not in str(short.value)


def test_a_pipeline_config_does_not_show_its_patient_key() -> None:
    config = PipelineConfig(patient_key=PATIENT_KEY)
    assert PATIENT_KEY.decode() not in repr(config)
    assert PATIENT_KEY.hex() not in ReplaceConfig(config).fingerprint()


CRASHING = """
import sys
from anonymed.io.jsonl import JsonlWriter

def format_document(self, doc):
    raise ValueError("an unexpected bug")

JsonlWriter.format_document = format_document
from anonymed.cli import main
main()
"""


def test_an_unexpected_crash_prints_no_note_text(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "notes.jsonl")
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            CRASHING,
            "deid",
            str(corpus),
            "-o",
            str(tmp_path / "out.jsonl"),
            "--no-progress",
        ],
        capture_output=True,
        timeout=300,
    )
    assert done.returncode != 0 and b"an unexpected bug" in done.stderr  # the traceback is shown...
    assert (
        NOTE_NAME.encode() not in done.stdout + done.stderr
    )  # ...without the local variables that hold text


def test_temporary_outputs_are_owner_only_while_they_are_written(tmp_path: Path) -> None:
    single, folder = AtomicFile(tmp_path / "out.jsonl"), AtomicDir(tmp_path / "out")
    single.stream.write("partial")
    folder.write_file(PurePosixPath("a.txt"), b"partial")
    [temporary_file] = [p for p in tmp_path.iterdir() if p.name.startswith(".out.jsonl.")]
    assert stat.S_IMODE(temporary_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.root.stat().st_mode) == 0o700
    single.abort()
    folder.abort()
    assert list(tmp_path.iterdir()) == []
