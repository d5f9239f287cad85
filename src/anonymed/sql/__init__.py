"""De-identification of notes held in SQL tables: keyset pages in, a new table or Parquet out.

``SqlJob(url, Source(table=...), ColumnMap.parse("id=...,text=..."), parquet=Path(...))`` then
``job.run_range(range)`` for each of ``job.plan(parts)``. See docs/sql.md.
"""

from __future__ import annotations

from anonymed.sql.database import Source, open_database
from anonymed.sql.mapping import ColumnMap
from anonymed.sql.run import KeyRange, RangeResult, SqlJob

__all__ = ["ColumnMap", "KeyRange", "RangeResult", "Source", "SqlJob", "open_database"]
