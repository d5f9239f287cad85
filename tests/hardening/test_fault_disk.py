"""A full disk or a read-only output folder: a clear error, and no partial output that looks complete.

Where the test process may mount file systems (root with CAP_SYS_ADMIN), the faults are real: a tiny
tmpfs that fills up, and a tmpfs remounted read-only (root ignores ``chmod``, not a read-only mount).
Elsewhere they are simulated: ``os.fsync`` fails with ENOSPC (every writer fsyncs before its rename), and
creating or renaming anything in the folder fails with EACCES (or, not as root, ``chmod 0o500``).
"""

from __future__ import annotations

import errno
import json
import os
import random
import string
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from anonymed.config import PipelineConfig
from anonymed.errors import OutputError
from anonymed.io.registry import open_writer
from anonymed.labels import Label
from anonymed.methods import ReplaceConfig
from anonymed.runner.batch import BatchOptions, run_batch
from anonymed.runner.shards import ReaderSpec

METHOD = ReplaceConfig(PipelineConfig(seed=3, operators={Label.DATE: "fake", Label.AGE: "fake"}))
#: output format -> output name
OUTPUTS = {
    "jsonl": "out.jsonl",
    "csv": "out.csv",
    "txt": "out",
    "physionet-deid": "out.text",
    "parquet": "out.parquet",
}


def write_corpus(path: Path, count: int = 40) -> Path:
    """About 40 kB of notes that do not compress much: more than the tiny file system holds."""
    letters = random.Random(5)
    with path.open("w", encoding="utf-8") as out:
        for i in range(count):
            words = " ".join("".join(letters.choices(string.ascii_lowercase, k=7)) for _ in range(120))
            text = f"Mr. John Smith{i} seen by Dr. Helen Park on 02/1{i % 3}/2019. {words}"
            out.write(json.dumps({"id": f"{i + 1}-{i + 1}", "text": text}) + "\n")
    return path


def mount_tmpfs(target: Path, options: str) -> bool:
    """Mount a tmpfs at ``target`` (False when this process may not mount)."""
    target.mkdir(parents=True, exist_ok=True)
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return False
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(target)], capture_output=True)
    return done.returncode == 0


def unmount(target: Path) -> None:
    subprocess.run(["umount", str(target)], capture_output=True, check=True)


def fail_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    def fsync(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", fsync)


def faulty_folder(
    request: pytest.FixtureRequest, folder: Path, mount_options: str, simulate: Callable[[Path], None]
) -> Iterator[Path]:
    """``folder`` on a tmpfs mounted with ``mount_options`` (param "real", when this process may mount), else
    an ordinary folder where ``simulate`` has set up the fault."""
    if request.param == "real" and mount_tmpfs(folder, mount_options):
        try:
            yield folder
        finally:
            unmount(folder)
        return
    folder.mkdir(exist_ok=True)
    simulate(folder)
    yield folder


@pytest.fixture(params=["real", "simulated"])
def full_folder(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    """A folder on a full file system: a 16 kB tmpfs, or (simulated, or if mounting is refused) ENOSPC."""
    yield from faulty_folder(request, tmp_path / "full", "size=16k", lambda _: fail_fsync(monkeypatch))


def deny_writes(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """Creating, opening for writing or renaming anything under ``folder`` fails as in a read-only one."""
    inside: Callable[[Any], bool] = lambda path: str(os.path.abspath(path)).startswith(str(folder))  # noqa: E731
    denied = OSError(errno.EACCES, os.strerror(errno.EACCES))
    real_open, real_mkdir, real_replace = os.open, os.mkdir, os.replace

    def guarded_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if inside(path) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise denied
        return real_open(path, flags, *args, **kwargs)

    def guarded_mkdir(path: Any, *args: Any, **kwargs: Any) -> None:
        if inside(path):
            raise denied
        real_mkdir(path, *args, **kwargs)

    def guarded_replace(source: Any, target: Any, *args: Any, **kwargs: Any) -> None:
        if inside(target):
            raise denied
        real_replace(source, target, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded_open)
    monkeypatch.setattr(os, "mkdir", guarded_mkdir)
    monkeypatch.setattr(os, "replace", guarded_replace)


@pytest.fixture(params=["real", "simulated"])
def readonly_folder(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    """A folder nobody may write to: a read-only tmpfs, ``chmod 0o500`` (not root), or denied writes."""

    def simulate(folder: Path) -> None:
        if request.param == "real" and hasattr(os, "geteuid") and os.geteuid() != 0:
            folder.chmod(0o500)
            request.addfinalizer(lambda: folder.chmod(0o700))
        else:
            deny_writes(monkeypatch, folder)

    yield from faulty_folder(request, tmp_path / "readonly", "size=1m,ro", simulate)


def visible(folder: Path) -> list[str]:
    """What a user sees in the output folder: anything but hidden work folders (temporary files included)."""
    return sorted(
        p.name for p in folder.iterdir() if not p.name.startswith(".") or p.name.endswith((".tmp", ".old"))
    )


def run(corpus: Path, output: Path, fmt: str, workdir: Path | None) -> None:
    spec = ReaderSpec.of(corpus)
    writer = open_writer(output, fmt, like=spec.open())
    run_batch(spec, writer, METHOD, BatchOptions(shard_size=8, workdir=workdir))


@pytest.mark.parametrize("fmt", sorted(OUTPUTS))
def test_a_full_disk_gives_a_clear_error_and_no_output(fmt: str, full_folder: Path, tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "notes.jsonl")
    with pytest.raises(OutputError, match="No space left on device"):
        run(corpus, full_folder / OUTPUTS[fmt], fmt, tmp_path / "work")  # shards fit; the output does not
    assert visible(full_folder) == []


def test_a_full_disk_under_the_work_folder_is_reported_too(full_folder: Path, tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "notes.jsonl")
    with pytest.raises(OutputError, match="No space left on device"):
        run(corpus, full_folder / "out.jsonl", "jsonl", None)  # the work folder is a hidden sibling
    assert visible(full_folder) == []


@pytest.mark.parametrize("fmt", sorted(OUTPUTS))
def test_a_read_only_folder_gives_a_clear_error_and_no_output(
    fmt: str, readonly_folder: Path, tmp_path: Path
) -> None:
    corpus = write_corpus(tmp_path / "notes.jsonl", count=5)
    with pytest.raises(OutputError, match=r"Read-only file system|Permission denied"):
        run(corpus, readonly_folder / OUTPUTS[fmt], fmt, tmp_path / "work")
    assert visible(readonly_folder) == []


PRELUDE = """
import errno, os, sys
if sys.argv[1] == "simulated":
    def fsync(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    os.fsync = fsync
del sys.argv[1]
from anonymed.cli import main
main()
"""


@pytest.mark.parametrize("how", ["real", "simulated"])
def test_the_command_exits_with_a_one_line_error_on_a_full_disk(how: str, tmp_path: Path) -> None:
    folder = tmp_path / "full"
    mounted = how == "real" and mount_tmpfs(folder, "size=16k")
    folder.mkdir(exist_ok=True)
    corpus = write_corpus(tmp_path / "notes.jsonl")
    command = [sys.executable, "-c", PRELUDE, "real" if mounted else "simulated", "deid", str(corpus)]
    try:
        done = subprocess.run(
            [*command, "-o", str(folder / "out.jsonl"), "--no-progress", "--seed", "1"],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 2
        assert done.stderr.startswith("error: cannot write") and "No space left on device" in done.stderr
        assert "Traceback" not in done.stderr and "Smith" not in done.stderr
        assert visible(folder) == []
    finally:
        if mounted:
            unmount(folder)
