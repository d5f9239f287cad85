"""Input and output formats by name, and the factories that open them (format guessed from the path)."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from anonymed.errors import ConfigError
from anonymed.io.base import Reader, Writer
from anonymed.io.csv_io import CsvReader, CsvWriter
from anonymed.io.eds_pseudo import EdsPseudoReader, EdsPseudoWriter
from anonymed.io.jsonl import JsonlReader, JsonlWriter
from anonymed.io.parquet import ParquetReader, ParquetWriter
from anonymed.io.physionet import PhysionetReader, PhysionetWriter
from anonymed.io.presidio import PresidioReader, PresidioWriter
from anonymed.io.spans import SpansWriter
from anonymed.io.txt import TxtReader, TxtWriter

#: input format name -> reader class
READERS: Final[Mapping[str, type[Reader]]] = MappingProxyType(
    {
        "txt": TxtReader,
        "jsonl": JsonlReader,
        "csv": CsvReader,
        "physionet-deid": PhysionetReader,
        "eds-pseudo": EdsPseudoReader,
        "presidio": PresidioReader,
        "parquet": ParquetReader,
    }
)

#: output format name -> writer class
WRITERS: Final[Mapping[str, type[Writer]]] = MappingProxyType(
    {
        "txt": TxtWriter,
        "jsonl": JsonlWriter,
        "csv": CsvWriter,
        "physionet-deid": PhysionetWriter,
        "eds-pseudo": EdsPseudoWriter,
        "presidio": PresidioWriter,
        "spans": SpansWriter,
        "parquet": ParquetWriter,
    }
)

#: file extensions that name a format
SUFFIXES: Final[Mapping[str, str]] = MappingProxyType(
    {
        ".jsonl": "jsonl",
        ".ndjson": "jsonl",
        ".csv": "csv",
        ".txt": "txt",
        ".text": "physionet-deid",
        ".parquet": "parquet",
    }
)

#: output extensions each format accepts ("" = a folder or a path without extension)
OUTPUT_SUFFIXES: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        "txt": ("", ".txt"),
        "jsonl": (".jsonl", ".ndjson"),
        "csv": (".csv",),
        "physionet-deid": ("", ".text"),
        "eds-pseudo": (".jsonl", ".ndjson"),
        "presidio": (".json",),
        "parquet": (".parquet",),
    }
)


def check_input(path: Path) -> None:
    """Refuse an input that does not exist (before any guess about its format)."""
    if not path.exists():
        raise ConfigError(f"input {str(path)!r} does not exist")


def guess_format(path: Path, *, output: bool = False) -> str:
    """The format a path implies: its extension, or for a folder ``physionet-deid`` if it holds ``id.text``.

    An output path that does not exist and has no extension is a ``txt`` folder. EDS-Pseudo and Presidio
    are only chosen by name.
    """
    if path.is_dir():
        return "physionet-deid" if (path / "id.text").is_file() and not output else "txt"
    if path.suffix.lower() in SUFFIXES:
        return SUFFIXES[path.suffix.lower()]
    if output and not path.exists() and not path.suffix:
        return "txt"
    raise ConfigError(f"cannot guess the format of {str(path)!r}; name one of {sorted(READERS)}")


def _folder_format(like: Reader | None) -> str:
    """The format of a folder output: ``like``'s if it writes folders (PhysioNet), else ``txt``."""
    return like.format if like is not None and "" in OUTPUT_SUFFIXES.get(like.format, ()) else "txt"


def _output_format(path: Path, like: Reader | None, folder: bool) -> str:
    """``like``'s format when the output path suits it (``out.jsonl`` for EDS-Pseudo), else a guess.

    The output is a folder when asked (``folder``: a trailing slash), when it is one already, or when the
    input is a folder and the output's extension names no format (``notes.deid``).
    """
    if folder or path.is_dir():
        return _folder_format(like)
    suffix = path.suffix.lower()
    if like is not None and suffix in OUTPUT_SUFFIXES.get(like.format, ()):
        return like.format
    if like is not None and like.path.is_dir() and suffix not in SUFFIXES:
        return _folder_format(like)
    return guess_format(path, output=True)


def _build(
    registry: Mapping[str, type[Any]], kind: str, fmt: str, path: Path, options: Mapping[str, Any]
) -> Any:
    if fmt not in registry:
        raise ConfigError(f"unknown {kind} format {fmt!r}; known: {sorted(registry)}")
    cls = registry[fmt]
    try:
        inspect.signature(cls).bind(path, **options)
    except TypeError:
        allowed = [name for name in inspect.signature(cls).parameters if name != "path"]
        raise ConfigError(
            f"bad options {sorted(options)} for {kind} format {fmt!r}; it accepts {allowed}"
        ) from None
    return cls(path, **options)


def open_reader(path: str | Path, fmt: str | None = None, **options: Any) -> Reader:
    """A reader for ``path`` in format ``fmt`` (guessed from the path when None) with its options."""
    path = Path(path)
    if fmt is None or fmt in READERS:  # an unknown format is named first
        check_input(path)
    return _build(READERS, "input", fmt or guess_format(path), path, options)  # type: ignore[no-any-return]


def open_writer(
    path: str | Path,
    fmt: str | None = None,
    like: Reader | None = None,
    *,
    folder: bool = False,
    **options: Any,
) -> Writer:
    """A writer for ``path``: format ``fmt``, else ``like``'s if the path suits it, else a guess.

    ``like``'s format is kept when the output's extension fits it (any ``.jsonl`` for EDS-Pseudo, ``.json``
    for Presidio, a folder or ``.text`` for PhysioNet); a txt folder written to ``out.csv`` becomes CSV.
    ``folder`` (the user wrote a trailing slash) asks for a folder: created on commit, in ``like``'s
    format if it writes folders, else ``txt``. When the format is ``like``'s, the reader's layout (text and
    id fields, CSV columns) is reused; explicit ``options`` win.
    """
    path = Path(path)
    if folder and path.exists() and not path.is_dir():
        raise ConfigError(f"output {str(path)!r} ends with a slash (a folder) but is a file")
    if folder and fmt is not None and "" not in OUTPUT_SUFFIXES.get(fmt, (".",)):
        raise ConfigError(f"output {str(path)!r} ends with a slash (a folder); format {fmt!r} writes a file")
    fmt = fmt or _output_format(path, like, folder)
    if folder and fmt == "txt":
        options = {"single": False, **options}  # ``notes.txt/``: a folder all the same
    inherited = like.writer_options() if like is not None and like.format == fmt else {}
    return _build(WRITERS, "output", fmt, path, {**inherited, **options})  # type: ignore[no-any-return]
