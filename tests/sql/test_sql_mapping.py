"""``--map`` and ``--keep`` parsing."""

from __future__ import annotations

import pytest

from anonymed.errors import ConfigError
from anonymed.sql import ColumnMap


def test_map_with_all_roles_and_kept_columns() -> None:
    cols = ColumnMap.parse("id=note_id, text=note_text,patient=person_id,date=note_date", "site")
    assert cols == ColumnMap("note_id", "note_text", "person_id", "note_date", ("site",))
    assert cols.columns == ("note_id", "note_text", "person_id", "note_date", "site")


@pytest.mark.parametrize(
    ("spec", "keep", "fragment"),
    [
        ("id=a", None, "needs the roles ['text']"),
        ("id=a,text=b,when=c", None, "ROLE=COLUMN"),
        ("id=a,text=b,id=c", None, "twice"),
        ("id=a,text", None, "ROLE=COLUMN"),
        ("id=a,text=b", "b", "mapped columns"),
    ],
)
def test_bad_maps_name_the_problem(spec: str, keep: str | None, fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment.replace("[", r"\[").replace("]", r"\]")):
        ColumnMap.parse(spec, keep)
