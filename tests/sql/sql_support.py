"""Helpers of the SQL tests: small note tables with names, phone numbers and dates to scrub."""

from __future__ import annotations

import datetime as dt
from typing import Any

NAMES = ["Helen Park", "John Durand", "Maria Lopez", "Ahmed Khan", "Susan Miller"]


def note_rows(count: int) -> list[dict[str, Any]]:
    """``count`` notes of 5 patients, with names, phone numbers and dates to scrub."""
    rows = []
    for i in range(count):
        day = dt.date(2020, 1, 1) + dt.timedelta(days=7 * i)
        name = NAMES[i % 5]
        text = (
            f"{day:%m/%d/%Y}: Mr. {name} was seen by Dr. Emily Stone. "
            f"Call (617) 555-01{i % 100:02d} on {day + dt.timedelta(days=3):%m/%d/%Y}."
        )
        rows.append(
            {
                "note_id": 1000 + i,
                "note_text": text,
                "person_id": f"P{i % 5}",
                "note_date": day,
                "site": "north" if i % 2 else "south",
            }
        )
    return rows


def create_notes(url: str, rows: list[dict[str, Any]], table: str = "note") -> None:
    """Create and fill a note table through ADBC (PostgreSQL or SQLite)."""
    import pyarrow as pa

    from anonymed.sql.database import open_database

    db = open_database(url)
    try:
        db.write(table, pa.Table.from_pylist(rows), create=True)
    finally:
        db.close()
