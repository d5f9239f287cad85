"""Writers are atomic: nothing appears before commit, an error leaves no output, an old output survives."""

from __future__ import annotations

from pathlib import Path

import pytest

from anonymed.document import Document
from anonymed.errors import OutputError
from anonymed.io.registry import open_writer

DOC = Document("n1", "Jean Dupont", {"relpath": "n1.txt"}, output="[NAME]")

# (format, output name): one row per writer
FORMATS = [
    ("jsonl", "out.jsonl"),  # JSON lines
    ("csv", "out.csv"),  # CSV
    ("txt", "out"),  # folder of .txt files
    ("txt", "out.txt"),  # single .txt file
    ("physionet-deid", "id.text"),  # PhysioNet records
    ("eds-pseudo", "out.jsonl"),  # EDS-Pseudo lines
    ("presidio", "out.json"),  # Presidio JSON list
    ("spans", "spans.jsonl"),  # detected spans
]


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize(("fmt", "name"), FORMATS)
def test_exception_inside_the_block_leaves_no_output(tmp_path: Path, fmt: str, name: str) -> None:
    with pytest.raises(RuntimeError), open_writer(tmp_path / name, fmt) as writer:
        writer.write(DOC)
        raise RuntimeError("interrupted")
    assert names(tmp_path) == []


@pytest.mark.parametrize(("fmt", "name"), FORMATS)
def test_previous_output_is_kept_until_commit_then_replaced(tmp_path: Path, fmt: str, name: str) -> None:
    target = tmp_path / name
    if target.suffix:
        target.write_text("previous run", encoding="utf-8")
    else:
        target.mkdir()
        (target / "old.txt").write_text("previous run", encoding="utf-8")
    before = sorted(p.read_text(encoding="utf-8") for p in [target, *target.glob("*")] if p.is_file())
    with open_writer(target, fmt) as writer:
        writer.write(DOC)
        during = sorted(p.read_text(encoding="utf-8") for p in [target, *target.glob("*")] if p.is_file())
        assert during == before == ["previous run"]
    after = [p for p in [target, *target.rglob("*")] if p.is_file()]
    assert [p.read_text(encoding="utf-8") for p in after] != ["previous run"]
    marker = '"n1"' if fmt == "spans" else "[NAME]"  # spans files hold ids and spans, not text
    assert marker in "".join(p.read_text(encoding="utf-8") for p in after)
    assert names(tmp_path) == [name]  # no temporary or backup left beside it


@pytest.mark.parametrize(("fmt", "name"), FORMATS)
def test_previous_output_survives_an_aborted_run(tmp_path: Path, fmt: str, name: str) -> None:
    target = tmp_path / name
    if target.suffix:
        target.write_text("previous run", encoding="utf-8")
    else:
        target.mkdir()
        (target / "old.txt").write_text("previous run", encoding="utf-8")
    with pytest.raises(RuntimeError), open_writer(target, fmt) as writer:
        writer.write(DOC)
        raise RuntimeError("interrupted")
    kept = target if target.suffix else target / "old.txt"
    assert kept.read_text(encoding="utf-8") == "previous run" and names(tmp_path) == [name]


def test_nothing_is_visible_at_the_target_before_commit(tmp_path: Path) -> None:
    writer = open_writer(tmp_path / "out.jsonl")
    writer.write(DOC)
    assert not (tmp_path / "out.jsonl").exists()
    writer.commit()
    assert (tmp_path / "out.jsonl").exists()


def test_writing_after_commit_is_an_output_error(tmp_path: Path) -> None:
    with open_writer(tmp_path / "out.jsonl") as writer:
        writer.write(DOC)
    with pytest.raises(OutputError, match="closed"):
        writer.write(DOC)


def test_empty_run_gives_a_valid_empty_output(tmp_path: Path) -> None:
    with open_writer(tmp_path / "out.json", "presidio"):
        pass
    assert (tmp_path / "out.json").read_text(encoding="utf-8").split() == ["[", "]"]


def test_unsafe_relative_path_in_a_txt_folder_is_refused(tmp_path: Path) -> None:
    doc = Document("x", "t", {"relpath": "../escape.txt"})
    with (
        pytest.raises(OutputError, match="unsafe output file name"),
        open_writer(tmp_path / "out", "txt") as w,
    ):
        w.write(doc)
    assert names(tmp_path) == []


def test_output_is_owner_only(tmp_path: Path) -> None:
    with open_writer(tmp_path / "out.jsonl") as writer:
        writer.write(DOC)
    assert (tmp_path / "out.jsonl").stat().st_mode & 0o077 == 0
