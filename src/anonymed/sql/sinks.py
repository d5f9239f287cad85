"""Where de-identified rows go: a new table, or a folder of Parquet files; both resumable by key.

A table output is created by the first page and appended to by the next ones, each page committed on
its own, so after an interruption ``max(key)`` of the output is where to start again. A Parquet output
is one file per page of a range (``part-r0000-000000.parquet``) and one small progress file per range
(``_progress-r0000.json``: the last key written), updated after the page's file is in place.
"""

from __future__ import annotations

import json
import os
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any

from anonymed.errors import ConfigError
from anonymed.sql.database import Database


class Sink(ABC):
    """Receives pages of output rows (Arrow tables) for one key range."""

    @abstractmethod
    def resume_key(self) -> Any:
        """The last key already written for this range (None: start at its beginning)."""

    @abstractmethod
    def write(self, data: Any, last_key: Any) -> None:
        """Write one page; ``last_key`` is its largest key."""


def prepare_table(db: Database, table: str, schema: Any, *, resume: bool, source_table: str | None) -> None:
    """Create the (empty) output table, or check that a run may resume into the existing one."""
    import pyarrow as pa

    if source_table is not None and table.lower() == source_table.lower():
        raise ConfigError("the output table is the source table: deid-sql never writes in place")
    if db.exists(table):
        if not resume:
            raise ConfigError(f"output table {table!r} exists: drop it, choose another, or --resume")
        return
    db.write(table, pa.Table.from_pylist([], schema=schema), create=True)


class TableSink(Sink):
    """Appends the pages of one key range ``(lower, upper]`` to the output table (``prepare_table``)."""

    def __init__(self, db: Database, table: str, key: str, lower: Any = None, upper: Any = None) -> None:
        self.db, self.table, self.key, self.lower, self.upper = db, table, key, lower, upper

    def resume_key(self) -> Any:
        found = self.db.max_key(self.table, self.key, self.lower, self.upper)
        return found if found is not None else self.lower

    def write(self, data: Any, last_key: Any) -> None:
        self.db.write(self.table, data, create=False)


class ParquetSink(Sink):
    """One Parquet file per page of range ``index`` in ``folder`` (see module docstring)."""

    def __init__(self, folder: Path, index: int, *, resume: bool) -> None:
        self.folder, self.index = folder, index
        self.progress = folder / f"_progress-r{index:04d}.json"
        if not resume and self.progress.exists():
            raise ConfigError(f"{str(folder)!r} holds a previous run: remove it, choose another, or --resume")
        folder.mkdir(parents=True, exist_ok=True)
        state = json.loads(self.progress.read_text()) if self.progress.exists() else {}
        self._last, self._pages = state.get("last_key"), int(state.get("pages", 0))

    def resume_key(self) -> Any:
        return self._last

    def write(self, data: Any, last_key: Any) -> None:
        import pyarrow.parquet as pq

        target = self.folder / f"part-r{self.index:04d}-{self._pages:06d}.parquet"
        tmp = target.with_name(f".{target.name}.tmp")
        pq.write_table(data, tmp)
        os.replace(tmp, target)
        self._pages += 1
        self._last = last_key
        state = self.progress.with_name(f".{self.progress.name}.tmp")
        state.write_text(json.dumps({"last_key": _jsonable(last_key), "pages": self._pages}))
        os.replace(state, self.progress)


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, int | float | str):
        return value
    raise ConfigError(f"the key column must hold integers or strings to resume, not {type(value).__name__}")
