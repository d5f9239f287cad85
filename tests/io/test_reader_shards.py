"""Readers plan and read their own shards; any reader can, by record positions, when it has no better way."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.io.base import Reader, ReadFailure, Record
from anonymed.io.jsonl import JsonlReader
from anonymed.io.physionet import PhysionetReader
from anonymed.io.presidio import PresidioReader
from anonymed.io.shards import Shard


class Letters(Reader):
    """A reader of the test's own: one record per letter of its path's name, the third a failure."""

    format = "letters"

    def __iter__(self) -> Iterator[Record]:
        for index, letter in enumerate(self.path.name):
            yield ReadFailure(index, letter, "bad") if index == 2 else Document(letter, letter)


def test_a_reader_without_a_plan_of_its_own_shards_by_record_positions() -> None:
    reader = Letters(Path("abcdefg"))
    shards = list(reader.plan_shards(3))
    assert [(s.kind, s.start, s.stop, s.first_index, s.count) for s in shards] == [
        ("records", 0, 3, 0, 3),
        ("records", 3, 6, 3, 3),
        ("records", 6, 7, 6, 1),
    ]
    assert [r for s in shards for r in reader.read_shard(s)] == list(reader)


def test_a_shard_of_another_kind_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text('{"text": "a"}\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="does not fit a 'letters' reader"):
        list(Letters(Path("ab")).read_shard(next(JsonlReader(path).plan_shards(1))))
    with pytest.raises(ConfigError, match="kind 'files'"):
        list(JsonlReader(path).read_shard(Shard(0, "files", files=("a.txt",))))


def test_presidio_plans_items_without_building_documents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "items.json"
    path.write_text(json.dumps([{"full_text": f"note {i}"} for i in range(5)]), encoding="utf-8")
    reader = PresidioReader(path)
    whole = list(reader)

    def refuse(*args: object) -> None:
        raise AssertionError("the plan built a document")

    monkeypatch.setattr(PresidioReader, "_document", refuse)
    shards = list(reader.plan_shards(2))
    monkeypatch.undo()
    assert [(s.kind, s.start, s.stop) for s in shards] == [("items", 0, 2), ("items", 2, 4), ("items", 4, 5)]
    assert [r for s in shards for r in reader.read_shard(s)] == whole


def test_a_physionet_folder_is_identified_by_its_text_file(tmp_path: Path) -> None:
    record = "START_OF_RECORD=1||||1||||\nbody\n||||END_OF_RECORD\n"
    (tmp_path / "id.text").write_text(record, encoding="utf-8")
    assert PhysionetReader(tmp_path).source == tmp_path / "id.text"
    assert JsonlReader(tmp_path / "x.jsonl").source == tmp_path / "x.jsonl"
