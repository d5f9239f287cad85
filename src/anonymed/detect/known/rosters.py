"""The site's rosters: its clinicians (given and family names) and its facilities, wards and units with their
abbreviations, read from CSV files named in the configuration and matched like known identifiers.

* clinicians: a CSV (UTF-8) whose header holds ``given`` and ``family`` (other columns are ignored); a
  clinician is found by the whole name in either order, the family name alone, and initials;
* places: a CSV whose header holds ``name`` and optionally ``abbreviations`` (separated by ``|`` or ``;``)
  and ``kind`` (``LOCATION/hospital`` by default, or any ``LABEL/subtype``); a name is found as folded
  words, an abbreviation as written (case matters: "ICU" but not "icu").

Names are personal data: errors name the file and the line, never a value; a roster's ``repr`` shows
counts and a digest.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Final

from anonymed.detect.known.people import People, Target, name_keys
from anonymed.detect.known.values import Phrases
from anonymed.detect.phrases import PhraseIndex
from anonymed.errors import ConfigError
from anonymed.known import MAX_VALUE_CHARS, parse_kind
from anonymed.labels import Label

#: the score of a roster match (below the record's own identifiers, 1.0), and of one read through a typo
ROSTER_SCORE: Final = 0.9
ROSTER_TYPO_SCORE: Final = 0.8
DEFAULT_PLACE_KIND: Final = "LOCATION/hospital"
_ABBREVIATION_SPLIT: Final = re.compile(r"[|;]")


@dataclass(frozen=True)
class Clinician:
    """One clinician of the roster."""

    given: str
    family: str


@dataclass(frozen=True)
class Place:
    """One facility, ward or unit: its name, abbreviations and kind (``LABEL/subtype``)."""

    name: str
    abbreviations: tuple[str, ...] = ()
    kind: str = DEFAULT_PLACE_KIND


@dataclass(frozen=True, repr=False)
class Roster:
    """The site's clinicians and places; indexed on first use."""

    clinicians: tuple[Clinician, ...] = ()
    places: tuple[Place, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.clinicians or self.places)

    def __repr__(self) -> str:  # names are personal data: counts and a digest only
        return f"Roster({len(self.clinicians)} clinicians, {len(self.places)} places, {self.digest})"

    @cached_property
    def digest(self) -> str:
        """A digest of the content (run fingerprints change when a roster does)."""
        text = repr([(c.given, c.family) for c in self.clinicians]) + repr(self.places)
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]

    @cached_property
    def people(self) -> People:
        """The clinicians: whole names in both orders; the family name alone."""
        people = People(initials_alone=False)  # a roster's initials ("M.D.") are clinical abbreviations too
        target = Target(Label.NAME, "clinician", ROSTER_SCORE, "roster", ROSTER_TYPO_SCORE)
        for clinician in self.clinicians:
            given, family = name_keys(clinician.given), name_keys(clinician.family)
            people.add([*given, *family], target, alone=family, family_first=[*family, *given])
        return people

    @cached_property
    def place_names(self) -> Phrases:
        """The places' names."""
        phrases = Phrases()
        for place in self.places:
            label, subtype = parse_kind(place.kind, "roster place")
            phrases.add(place.name, Target(label, subtype, ROSTER_SCORE, "roster", ROSTER_TYPO_SCORE))
        return phrases

    @cached_property
    def abbreviations(self) -> PhraseIndex[Target]:
        """The places' abbreviations, matched as written."""
        index: PhraseIndex[Target] = PhraseIndex("exact")
        for place in self.places:
            label, subtype = parse_kind(place.kind, "roster place")
            for abbreviation in place.abbreviations:
                index.add(abbreviation, Target(label, subtype, ROSTER_SCORE, "roster", ROSTER_TYPO_SCORE))
        return index


def _rows(path: Path, required: tuple[str, ...]) -> Iterator[tuple[int, dict[str, str]]]:
    """The rows of a roster CSV with lower-cased column names, and their line numbers."""
    try:
        content = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not valid UTF-8"
        raise ConfigError(f"cannot read roster {str(path)!r}: {reason}") from None
    reader = csv.DictReader(io.StringIO(content))
    try:
        columns = [name.strip().lower() for name in reader.fieldnames or ()]
        missing = [name for name in required if name not in columns]
        if missing:
            raise ConfigError(f"roster {path.name!r}: the header lacks {missing} ({len(columns)} columns)")
        reader.fieldnames = columns
        for row in reader:
            cells = {k: v.strip() for k, v in row.items() if isinstance(k, str) and isinstance(v, str)}
            for name, cell in cells.items():
                if len(cell) > MAX_VALUE_CHARS:
                    raise ConfigError(f"roster {path.name!r} line {reader.line_num}: {name} is too long")
            yield reader.line_num, cells
    except csv.Error as exc:
        raise ConfigError(f"roster {path.name!r}: malformed CSV ({exc})") from None


def read_clinicians(path: Path | str) -> tuple[Clinician, ...]:
    """The clinicians of a roster CSV (``given``, ``family``)."""
    path = Path(path)
    found = []
    for _, row in _rows(path, ("given", "family")):
        if row.get("given") or row.get("family"):
            found.append(Clinician(row.get("given", ""), row.get("family", "")))
    return tuple(found)


def read_places(path: Path | str) -> tuple[Place, ...]:
    """The facilities, wards and units of a roster CSV (``name``, ``abbreviations``, ``kind``)."""
    path = Path(path)
    found = []
    for line, row in _rows(path, ("name",)):
        abbreviations = tuple(a.strip() for a in _ABBREVIATION_SPLIT.split(row.get("abbreviations", "")))
        kind = row.get("kind") or DEFAULT_PLACE_KIND
        parse_kind(kind, f"roster {path.name!r} line {line}")
        if row.get("name") or any(abbreviations):
            found.append(Place(row.get("name", ""), tuple(a for a in abbreviations if a), kind))
    return tuple(found)


def read_roster(clinicians: Path | str | None = None, places: Path | str | None = None) -> Roster:
    """The roster of the files given (either may be None)."""
    return Roster(
        read_clinicians(clinicians) if clinicians is not None else (),
        read_places(places) if places is not None else (),
    )
