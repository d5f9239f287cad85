"""The txt reader: a folder of notes (recursive) or one file, with per-file failures."""

from __future__ import annotations

from pathlib import Path

import pytest

from anonymed.document import Document
from anonymed.errors import InputError
from anonymed.io.base import ReadFailure
from anonymed.io.txt import TxtReader


def make_folder(root: Path) -> Path:
    (root / "sub" / "deeper").mkdir(parents=True)
    (root / "b.txt").write_text("second note", encoding="utf-8")
    (root / "a.txt").write_text("first note", encoding="utf-8")
    (root / "sub" / "c.txt").write_text("third note", encoding="utf-8")
    (root / "sub" / "deeper" / "d.txt").write_text("fourth note", encoding="utf-8")
    (root / "notes.csv").write_text("not a txt file", encoding="utf-8")
    (root / ".hidden.txt").write_text("hidden", encoding="utf-8")
    return root


def test_folder_is_read_recursively_in_sorted_order_with_relative_ids(tmp_path: Path) -> None:
    records = list(TxtReader(make_folder(tmp_path)))
    assert [r.id for r in records if isinstance(r, Document)] == ["a", "b", "sub/c", "sub/deeper/d"]
    assert [r.metadata["relpath"] for r in records if isinstance(r, Document)] == [
        "a.txt",
        "b.txt",
        "sub/c.txt",
        "sub/deeper/d.txt",
    ]
    assert records[2].text == "third note"  # type: ignore[union-attr]


def test_single_file_is_one_document_named_by_its_stem(tmp_path: Path) -> None:
    path = tmp_path / "note.txt"
    path.write_text("line one\r\nline two\n", encoding="utf-8")
    [doc] = list(TxtReader(path, lang="fr"))
    assert isinstance(doc, Document)
    assert (doc.id, doc.text, doc.lang, doc.metadata["relpath"]) == (
        "note",
        "line one\r\nline two\n",
        "fr",
        "note.txt",
    )


def test_empty_note_is_a_document_not_a_failure(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_bytes(b"")
    [doc] = list(TxtReader(tmp_path))
    assert isinstance(doc, Document) and doc.text == ""


def test_non_utf8_file_fails_alone_and_the_others_are_read(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("good", encoding="utf-8")
    (tmp_path / "b.txt").write_bytes(b"Patient Ren\xe9 Dupont")
    (tmp_path / "c.txt").write_text("also good", encoding="utf-8")
    records = list(TxtReader(tmp_path))
    assert [type(r).__name__ for r in records] == ["Document", "ReadFailure", "Document"]
    bad = records[1]
    assert isinstance(bad, ReadFailure)
    assert (bad.index, bad.record_id) == (1, "b")
    assert "UTF-8" in bad.reason and "Dupont" not in bad.reason


def test_unreadable_file_fails_with_permission_denied_and_the_others_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the tests may run as root, which ignores file modes: make reading one file fail as it would
    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.txt").write_text(f"note {name}", encoding="utf-8")
    real = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self.name == "b.txt":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    records = list(TxtReader(tmp_path))
    assert [r.id if isinstance(r, Document) else r.record_id for r in records] == ["a", "b", "c"]
    assert isinstance(records[1], ReadFailure)
    assert records[1].reason == "cannot read file (Permission denied)"


def test_ten_megabyte_note_is_read_whole(tmp_path: Path) -> None:
    text = "x" * (10 * 1024 * 1024)
    (tmp_path / "big.txt").write_text(text, encoding="utf-8")
    [doc] = list(TxtReader(tmp_path))
    assert isinstance(doc, Document) and len(doc.text) == len(text)


def test_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbfnote")
    [doc] = list(TxtReader(tmp_path))
    assert isinstance(doc, Document) and doc.text == "note"


def test_missing_input_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file or folder"):
        list(TxtReader(tmp_path / "nowhere"))
