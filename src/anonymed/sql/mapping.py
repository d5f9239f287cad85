"""Which columns of a SQL source hold a note's id, text, patient and date (``--map id=...,text=...``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from anonymed.errors import ConfigError

ROLES: Final = ("id", "text", "patient", "date")


@dataclass(frozen=True)
class ColumnMap:
    """Source column names by role; ``id`` (unique, orderable: the pagination key) and ``text`` required.

    ``keep`` names other columns copied unchanged (none by default: deny by default).
    """

    id: str
    text: str
    patient: str | None = None
    date: str | None = None
    keep: tuple[str, ...] = ()

    @classmethod
    def parse(cls, spec: str, keep: str | None = None) -> ColumnMap:
        """``"id=note_id,text=note_text,patient=person_id,date=note_date"`` -> a ColumnMap."""
        roles: dict[str, str] = {}
        for part in (p.strip() for p in spec.split(",") if p.strip()):
            role, sep, column = part.partition("=")
            role, column = role.strip(), column.strip()
            if not sep or not column or role not in ROLES:
                raise ConfigError(f"--map expects ROLE=COLUMN with ROLE in {ROLES}, got {part!r}")
            if role in roles:
                raise ConfigError(f"--map names role {role!r} twice")
            roles[role] = column
        missing = [r for r in ("id", "text") if r not in roles]
        if missing:
            raise ConfigError(f"--map needs the roles {missing}")
        kept = tuple(c.strip() for c in (keep or "").split(",") if c.strip())
        clash = set(kept) & set(roles.values())
        if clash:
            raise ConfigError(f"--keep names mapped columns {sorted(clash)}")
        return cls(roles["id"], roles["text"], roles.get("patient"), roles.get("date"), kept)

    @property
    def columns(self) -> tuple[str, ...]:
        """Every source column read, in output order."""
        mapped = (self.id, self.text, self.patient, self.date)
        return tuple(c for c in mapped if c is not None) + self.keep
