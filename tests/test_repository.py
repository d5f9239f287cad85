"""The repository stands alone: no tracked file refers to the shared data beside the development clone, or
to an absolute path of a developer's machine."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: the shared folder beside the development clone (dot-dot-slash shared), and absolute paths of a developer's
#: machine: under work, root, home or Users at the root, or a Windows drive letter (one or two backslashes,
#: so that escaped Python and JSON strings count too); not preceded by a path or word character, so URLs
#: such as https://example.org/work/ do not count
MACHINE_PATH = re.compile(
    r"\.\./shared\b"
    r"|(?<![\w.~/-])/(?:work|root)/"
    r"|(?<![\w.~/-])/(?:home|Users)/[^/\s]+/"
    r"|(?<![\w\\])[A-Za-z]:\\{1,2}[\w.$-]"
)


def machine_paths(text: str) -> list[str]:
    """Every reference to the shared data folder or to a developer machine's absolute path in ``text``."""
    return [m.group() for m in MACHINE_PATH.finditer(text)]


def tracked_text_files(root: Path) -> list[Path]:
    """The files git tracks under ``root`` that are UTF-8 text (binaries are skipped)."""
    listed = subprocess.run(
        ["git", "-C", str(root), "ls-files", "-z"], capture_output=True, check=True
    ).stdout.decode("utf-8")
    texts = []
    for name in filter(None, listed.split("\0")):
        path = root / name
        if not path.is_file():  # deleted in the working tree, not yet committed
            continue
        data = path.read_bytes()
        if b"\0" in data[:8192]:
            continue
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        texts.append(path)
    return texts


def offending_lines(root: Path) -> list[str]:
    """``path:line: match`` for every machine path in the tracked text files under ``root``."""
    found = []
    for path in tracked_text_files(root):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            found += [f"{path.relative_to(root)}:{number}: {hit}" for hit in machine_paths(line)]
    return found


def test_no_tracked_file_refers_to_shared_data_or_a_machine_path() -> None:
    try:
        offences = offending_lines(ROOT)
    except (OSError, subprocess.CalledProcessError) as exc:
        pytest.fail(f"cannot list the tracked files with git ({type(exc).__name__}): run from a clone")
    assert offences == []


def test_the_scan_covers_the_repository() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in tracked_text_files(ROOT)}
    assert {"README.md", "pyproject.toml", ".ci/run", "tests/conftest.py"} <= names
    assert "src/anonymed/resources/spaces/mtsamples/vectors.npy" not in names  # binary: skipped


@pytest.mark.parametrize(
    "planted",
    [
        "data in ../" + "shared/data/physionet_deid",
        "see ../../" + "shared/papers",
        "--data /" + "work/shared/data",
        'Path("/' + 'root/.cache/anonymed")',
        "/" + "home/alice/anonymed/notes.jsonl",
        "/" + "Users/bob/notes",
        r"C:" + "\\" + r"Users\carol\notes.txt",
        '"D:' + "\\\\" + 'data\\\\notes.csv"',
    ],
)
def test_a_machine_path_is_found(planted: str) -> None:
    assert machine_paths(f"before {planted} after") != []


@pytest.mark.parametrize(
    "clean",
    [
        "shared by reference",
        "a shared/ folder of the user's own",
        "https://example.org/work/home/x",
        "src/anonymed/resources/training/physionet_deid",
        "~/.cache/anonymed",
        "ratio 3:4, time 10:30",
        r"a regular expression: \d\d:\d\d",
        "/usr/bin/chromium and /tmp/anonymed-xyz",
    ],
)
def test_ordinary_text_is_not_a_machine_path(clean: str) -> None:
    assert machine_paths(clean) == []


def test_a_planted_file_in_a_repository_fails_the_scan(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "ok.md").write_text("nothing to see\n", encoding="utf-8")
    (tmp_path / "bad.py").write_text('DATA = "../' + 'shared/data"\n', encoding="utf-8")
    (tmp_path / "blob.bin").write_bytes(b"\0../" + b"shared")
    (tmp_path / "untracked.md").write_text("/" + "work/x\n", encoding="utf-8")
    subprocess.run(["git", "-C", str(tmp_path), "add", "ok.md", "bad.py", "blob.bin"], check=True)
    assert offending_lines(tmp_path) == ["bad.py:1: ../" + "shared"]
