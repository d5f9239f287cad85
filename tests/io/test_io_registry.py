"""The format factory: explicit names, guesses from the path, options checked, layouts inherited."""

from __future__ import annotations

from pathlib import Path

import pytest

from anonymed.errors import ConfigError
from anonymed.io.base import ReadFailure
from anonymed.io.csv_io import CsvReader, CsvWriter
from anonymed.io.jsonl import JsonlWriter
from anonymed.io.registry import READERS, WRITERS, guess_format, open_reader, open_writer

FIXTURES = Path(__file__).parents[1] / "fixtures" / "io"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("notes.jsonl", "jsonl"),  # JSON lines
        ("notes.NDJSON", "jsonl"),  # other extension, any case
        ("notes.csv", "csv"),  # CSV
        ("note.txt", "txt"),  # one text file
        ("id.text", "physionet-deid"),  # PhysioNet records
    ],
)
def test_format_is_guessed_from_the_extension(tmp_path: Path, name: str, expected: str) -> None:
    assert guess_format(tmp_path / name) == expected


def test_folders_are_txt_unless_they_hold_id_text(tmp_path: Path) -> None:
    assert guess_format(tmp_path) == "txt"
    assert guess_format(FIXTURES / "physionet") == "physionet-deid"
    assert guess_format(FIXTURES / "physionet", output=True) == "txt"
    assert guess_format(tmp_path / "new_folder", output=True) == "txt"


@pytest.mark.parametrize("name", ["notes.json", "notes.xml", "no_extension"])  # presidio only by name
def test_unguessable_input_is_a_config_error(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text("x")
    with pytest.raises(ConfigError, match="cannot guess the format"):
        open_reader(tmp_path / name)


@pytest.mark.parametrize("name", ["missing.jsonl", "notes.deid", "missing_folder"])
def test_a_missing_input_says_it_does_not_exist(tmp_path: Path, name: str) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        open_reader(tmp_path / name)
    with pytest.raises(ConfigError, match="does not exist"):
        open_reader(tmp_path / name, "jsonl")


def test_unknown_format_is_a_config_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown input format 'xml'"):
        open_reader(tmp_path / "a.xml", "xml")
    with pytest.raises(ConfigError, match="unknown output format 'xml'"):
        open_writer(tmp_path / "a.xml", "xml")


def test_unknown_option_is_a_config_error_naming_what_is_accepted(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"bad options \['text_field'\] for input format 'txt'"):
        open_reader(tmp_path, text_field="body")


def test_every_format_has_a_reader_and_a_writer() -> None:
    assert set(READERS) == {"txt", "jsonl", "csv", "physionet-deid", "eds-pseudo", "presidio", "parquet"}
    assert set(WRITERS) == {*READERS, "spans"}


def test_writer_inherits_the_readers_layout_and_explicit_options_win(tmp_path: Path) -> None:
    (tmp_path / "in.csv").write_text("a,body,key\n1,x,k\n", encoding="utf-8")
    reader = open_reader(tmp_path / "in.csv", text_field="body", id_field="key")
    assert isinstance(reader, CsvReader)
    writer = open_writer(tmp_path / "out.csv", like=reader, delimiter=";")
    assert isinstance(writer, CsvWriter)
    assert (writer.columns, writer.text_field, writer.id_field, writer.delimiter) == (
        ("a", "body", "key"),
        "body",
        "key",
        ";",
    )
    other = open_writer(tmp_path / "out.jsonl", "jsonl", like=reader)
    assert isinstance(other, JsonlWriter) and other.text_field == "text"  # another format: no inheritance


@pytest.mark.parametrize(
    ("source", "fmt", "output", "expected"),
    [
        ("eds_pseudo.jsonl", "eds-pseudo", "out.jsonl", "eds-pseudo"),  # a .jsonl output keeps EDS-Pseudo
        ("eds_pseudo.jsonl", "eds-pseudo", "out.csv", "csv"),  # another extension names another format
        ("presidio.json", "presidio", "out.json", "presidio"),  # a .json output keeps Presidio
        ("physionet", None, "out", "physionet-deid"),  # folder in, folder out
        ("physionet", None, "out.jsonl", "jsonl"),  # folder in, JSON lines out
    ],
)
def test_output_format_follows_the_input_when_the_path_suits_it(
    tmp_path: Path, source: str, fmt: str | None, output: str, expected: str
) -> None:
    writer = open_writer(tmp_path / output, like=open_reader(FIXTURES / source, fmt))
    assert writer.format == expected
    writer.abort()


def test_physionet_output_to_a_folder_writes_its_id_text(tmp_path: Path) -> None:
    reader = open_reader(FIXTURES / "physionet")
    with open_writer(tmp_path / "out", like=reader) as writer:
        for record in reader:
            assert not isinstance(record, ReadFailure)
            writer.write(record)
    assert (tmp_path / "out" / "id.text").read_bytes() == (FIXTURES / "physionet" / "id.text").read_bytes()
