"""Output paths: a trailing slash or a folder input means a folder output; permissions follow one rule."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

import pytest

from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.io.atomic import AtomicDir, current_umask, output_mode, output_permissions
from anonymed.io.registry import open_reader, open_writer


@pytest.fixture
def folder_input(tmp_path: Path) -> Path:
    source = tmp_path / "notes"
    source.mkdir()
    (source / "a.txt").write_text("alpha", encoding="utf-8")
    return source


@pytest.fixture
def umask_027() -> Iterator[None]:
    previous = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(previous)


def test_a_folder_input_writes_a_folder_whatever_the_output_suffix(folder_input: Path) -> None:
    reader = open_reader(folder_input)
    writer = open_writer(folder_input.parent / "notes.deid", like=reader)
    assert writer.format == "txt"
    with writer:
        for doc in reader:
            assert isinstance(doc, Document)
            writer.write(doc)
    assert (folder_input.parent / "notes.deid" / "a.txt").read_text() == "alpha"


def test_a_folder_input_written_to_a_known_extension_is_that_format(folder_input: Path) -> None:
    assert open_writer(folder_input.parent / "out.csv", like=open_reader(folder_input)).format == "csv"


def test_a_trailing_slash_asks_for_a_folder(tmp_path: Path) -> None:
    notes = tmp_path / "in.jsonl"
    notes.write_text('{"id": "a", "text": "x"}\n', encoding="utf-8")
    writer = open_writer(tmp_path / "out.txt", like=open_reader(notes), folder=True)
    assert writer.format == "txt" and not getattr(writer, "single", True)
    with pytest.raises(ConfigError, match="slash"):
        open_writer(tmp_path / "out", "jsonl", folder=True)
    notes_file = tmp_path / "taken"
    notes_file.write_text("")
    with pytest.raises(ConfigError, match="is a file"):
        open_writer(notes_file, folder=True)


def test_umask_is_read_without_changing_it(umask_027: None) -> None:
    assert current_umask() == 0o027
    assert current_umask() == 0o027


def test_outputs_are_owner_only_by_default_inside_folders_too(tmp_path: Path) -> None:
    folder = AtomicDir(tmp_path / "out")
    folder.write_file(PurePosixPath("sub/a.txt"), b"x")
    folder.commit()
    modes = {p.relative_to(tmp_path).as_posix(): stat.S_IMODE(p.stat().st_mode) for p in tmp_path.rglob("*")}
    assert modes == {"out": 0o700, "out/sub": 0o700, "out/sub/a.txt": 0o600}


def test_outside_private_mode_every_output_follows_the_umask(tmp_path: Path, umask_027: None) -> None:
    with output_permissions(private=False):
        assert (output_mode(), output_mode(folder=True)) == (0o640, 0o750)
        folder = AtomicDir(tmp_path / "out")
        folder.write_file(PurePosixPath("sub/a.txt"), b"x")
        folder.commit()
        with open_writer(tmp_path / "out.jsonl", "jsonl") as writer:
            writer.write(Document("a", "x"))
    modes = {p.relative_to(tmp_path).as_posix(): stat.S_IMODE(p.stat().st_mode) for p in tmp_path.rglob("*")}
    assert modes == {"out": 0o750, "out/sub": 0o750, "out/sub/a.txt": 0o640, "out.jsonl": 0o640}
    assert output_mode() == 0o600  # private again outside the block
