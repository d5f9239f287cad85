"""The README's commands, run as written.

Every ``anonymed ...`` line of the README's shell blocks runs through the CLI in a folder holding a copy of
``examples/``, exits 0 and writes the files it names; the README's test command is the one CI runs. A shell
block preceded by ``<!-- readme-test: skip (reason) -->`` is not run (a server, a browser): keep those few.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anonymed.cli import app

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
#: a fenced block: the comment line before it (if any), its info string and its body
BLOCK = re.compile(r"(?:^(<!--[^\n]*-->)\n)?^```([\w-]*)[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
SKIP = "<!-- readme-test: skip"
SHELLS = {"bash", "sh", "shell", "console"}
#: options whose value is a file the command writes
OUTPUT_OPTIONS = {"-o", "--output", "--summary", "--privacy-report"}
#: the line of .ci/run that precedes the README's test command
CI_MARK = '# README "Run the tests" command, verbatim:'


@dataclass(frozen=True)
class Block:
    """A fenced shell block: its lines (continuations joined) and whether it is marked to be skipped."""

    lines: tuple[str, ...]
    skipped: bool


def shell_blocks(text: str) -> list[Block]:
    """The shell blocks of a Markdown text, backslash-continued lines joined into one."""
    blocks = []
    for comment, info, body in BLOCK.findall(text):
        if info not in SHELLS:
            continue
        joined = re.sub(r"\\\n\s*", " ", body)
        lines = tuple(line.strip() for line in joined.splitlines() if line.strip())
        blocks.append(Block(lines, comment.startswith(SKIP)))
    return blocks


def commands(text: str) -> list[list[str]]:
    """The arguments of every ``anonymed`` line of the blocks that are not skipped (comments dropped)."""
    found = []
    for block in shell_blocks(text):
        if block.skipped:
            continue
        for line in block.lines:
            words = shlex.split(line, comments=True)
            if words and words[0] == "anonymed":
                found.append(words[1:])
    return found


def written_files(args: list[str]) -> list[str]:
    """The files a command names as outputs (``-o``, ``--summary``...)."""
    return [args[i + 1] for i, word in enumerate(args[:-1]) if word in OUTPUT_OPTIONS]


README_COMMANDS = commands(README.read_text(encoding="utf-8"))


def jsonl_records(path: Path) -> list[dict[str, object]]:
    """The JSON objects of a JSON Lines file."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding a copy of examples/, as the repository's root holds it."""
    folder = tmp_path_factory.mktemp("readme")
    shutil.copytree(ROOT / "examples", folder / "examples")
    return folder


@pytest.mark.parametrize("args", README_COMMANDS, ids=[" ".join(a) for a in README_COMMANDS])
def test_readme_command_runs(args: list[str], workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(workdir)
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    outputs = written_files(args)
    for name in outputs:
        path = workdir / name
        assert path.is_file() and path.stat().st_size > 0, name
    source = next((workdir / word for word in args if word.startswith("examples/")), None)
    if source is None or not outputs or source.suffix != ".jsonl" or not outputs[0].endswith(".jsonl"):
        return
    rows_in, rows_out = jsonl_records(source), jsonl_records(workdir / outputs[0])
    assert len(rows_out) == len(rows_in)  # one output record per input record
    assert all("anonymed_error" not in row for row in rows_out)
    if "text" in rows_out[0]:  # a corpus output (detect writes spans): every note was changed
        assert all(a["text"] != b["text"] for a, b in zip(rows_in, rows_out, strict=True))


def test_the_readme_shows_the_tour() -> None:
    """The tour covers each job it promises; the skipped blocks stay few."""
    shown = {" ".join(args[:2]) if args[0] == "obfuscate" else args[0] for args in README_COMMANDS}
    assert {"demo", "deid", "detect", "obfuscate words", "obfuscate sentences"} <= shown
    assert any("--profile" in args for args in README_COMMANDS)
    assert any("--summary" in args for args in README_COMMANDS)
    skipped = [b for b in shell_blocks(README.read_text(encoding="utf-8")) if b.skipped]
    assert len(skipped) <= 2
    assert all(line.startswith("anonymed serve") for block in skipped for line in block.lines)


def test_the_readme_test_command_is_the_one_ci_runs() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    command = ci[ci.index(CI_MARK) + 1].strip()
    assert command.startswith("pip install") and command.endswith("pytest")
    lines = [line for block in shell_blocks(README.read_text(encoding="utf-8")) for line in block.lines]
    assert command in lines


def test_the_readme_stays_a_front_door() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 200


def test_blocks_are_parsed_as_written() -> None:
    text = (
        "```bash\nanonymed deid a.jsonl \\\n    -o 'b c.jsonl'   # a comment\npip install x\n```\n"
        "<!-- readme-test: skip (a server) -->\n```bash\nanonymed serve\n```\n"
        "```python\nanonymed = 1\n```\n"
    )
    assert commands(text) == [["deid", "a.jsonl", "-o", "b c.jsonl"]]
    assert [b.skipped for b in shell_blocks(text)] == [False, True]
    assert written_files(["deid", "a", "-o", "x.jsonl", "--summary", "s.json"]) == ["x.jsonl", "s.json"]
