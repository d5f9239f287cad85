"""``write_atomically``: whole files or nothing, owner-only work files, output modes, no predictable names."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from anonymed.cli.common import write_json
from anonymed.errors import OutputError
from anonymed.io.atomic import (
    output_mode,
    output_permissions,
    remove_stale_temporaries,
    temporary_sibling,
    write_atomically,
)


def test_the_file_appears_whole_with_the_mode_asked_and_nothing_beside_it(tmp_path: Path) -> None:
    target = tmp_path / "run.json"
    target.write_text("previous", encoding="utf-8")
    write_atomically(target, "new text\n")
    assert target.read_text(encoding="utf-8") == "new text\n"
    assert os.stat(target).st_mode & 0o777 == 0o600  # no mode: owner-only, as a work file
    with output_permissions(private=False):
        write_atomically(target, "again\n", mode=output_mode())
        assert os.stat(target).st_mode & 0o777 == output_mode()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json"]


def test_a_failed_write_leaves_the_previous_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "run.json"
    target.write_text("previous", encoding="utf-8")
    with pytest.raises(UnicodeEncodeError):
        write_atomically(target, "\ud800")  # a lone surrogate cannot be encoded
    assert target.read_text(encoding="utf-8") == "previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json"]
    with pytest.raises(OutputError, match="cannot write"):
        write_atomically(tmp_path / "missing" / "run.json", "text")


def test_write_json_never_writes_through_a_planted_temporary_name(tmp_path: Path) -> None:
    # the earlier write_json opened ".NAME.tmp" with O_CREAT|O_TRUNC: a symlink planted under that name
    # made it truncate and overwrite the file the link points to
    victim = tmp_path / "victim.txt"
    victim.write_text("not yours", encoding="utf-8")
    (tmp_path / ".summary.json.tmp").symlink_to(victim)
    write_json(tmp_path / "summary.json", {"ok": True})
    assert victim.read_text(encoding="utf-8") == "not yours"
    assert (tmp_path / "summary.json").read_text(encoding="utf-8") == '{\n  "ok": true\n}'
    assert os.stat(tmp_path / "summary.json").st_mode & 0o777 == 0o600


def test_a_killed_writer_leaves_a_temporary_the_next_run_finds(tmp_path: Path) -> None:
    target = tmp_path / "summary.json"
    write_json(target, {})
    fd, name = temporary_sibling(target)
    os.close(fd)  # what a writer killed before its rename leaves
    assert remove_stale_temporaries(target) == 1 and not Path(name).exists()
