"""Towns, US states and countries for place surrogates: a real town like the original (same country, similar
population, the US state the note names after it), another state written as the original writes one, a
country, and capitals for an abbreviation."""

from __future__ import annotations

import re
from typing import Final

from anonymed.randomness import RandomSource
from anonymed.substitute.fake.gazetteer import Gazetteer, Town, gazetteer, similar_in, us_towns_by_state
from anonymed.substitute.places import place_key

#: the country of a note's language, where a town unknown to the gazetteer is drawn
COUNTRY_OF: Final = {"en": "US", "fr": "FR"}
#: capitals of 2 to 5 letters: an abbreviation, unless a known town or state
_CAPITALS: Final = re.compile(r"[A-Z]{2,5}")
#: a town of another country is read in capitals of 2 to 5 letters only if it has this many people ("ROME",
#: "LYON"); smaller ones are abbreviations ("BIBA", brought in by ambulance, is no town of Egypt)
_KNOWN_ABROAD: Final = 100_000


def reads_as_abbreviation(text: str, places: Gazetteer, country: str) -> bool:
    """Whether capitals of 2 to 5 letters are no state and no known town (a town abroad must be large)."""
    if _CAPITALS.fullmatch(text) is None or place_key(text) in places.states:
        return False
    town = places.town(text, country)
    return town is None or (town.country != country and town.population < _KNOWN_ABROAD)


def town(original: str, lang: str, rng: RandomSource, *, state: str | None = None) -> Town:
    """A real town like ``original``: same country, similar population (the note's country if unknown);
    in the US state ``state`` (a two-letter code) when the note names one after the town."""
    places = gazetteer()
    country = COUNTRY_OF.get(lang, "US")
    known = places.town(original, country)
    in_state = us_towns_by_state().get(state, ()) if state is not None and country == "US" else ()
    if in_state:
        like = known or Town(original, "US", 30_000)  # an unknown town: a small one of that state
        return rng.choice(similar_in(in_state, like, least=6))
    if known is not None:
        return rng.choice(places.similar(known))
    if country == "FR":
        return rng.choice(places.communes)
    pool = [t for t in places.by_country.get(country, ()) if t.population < 100_000]
    return rng.choice(pool or places.towns)


#: a US state as notes write one: its code or its name of one or two words ("TX", "Texas", "New Mexico")
_STATE_WRITTEN: Final = r"[A-Z]{2}|[A-Z][a-z]+(?: [A-Z][a-z]+)?"
#: a US state right after a town, on its line: ", TX", ", Texas", ", New Mexico", or a code and a ZIP code
#: without the comma (" ID 83706")
_STATE_AFTER: Final = re.compile(
    rf"[ \t]*,[ \t]*({_STATE_WRITTEN})(?![\w])|[ \t]+([A-Z]{{2}})(?=[ \t]+\d{{5}}(?![\w]))"
)


def state_after(after: str) -> str | None:
    """The two-letter code of a US state named right after a town ("Dallas, TX", "Boise, Idaho", "Boise ID
    83706")."""
    found = _STATE_AFTER.match(after)
    return _state_code(found.group(1) or found.group(2)) if found is not None else None


#: a US state right before a ZIP code, on its line: "TX 75201", "Texas 75201"
_STATE_BEFORE: Final = re.compile(rf"(?<![\w])({_STATE_WRITTEN})[ \t]*,?[ \t]*$")


def state_before(before: str) -> str | None:
    """The two-letter code of a US state named right before a ZIP code ("Dallas, TX 75201")."""
    found = _STATE_BEFORE.search(before)
    return _state_code(found.group(1)) if found is not None else None


def _state_code(written: str) -> str | None:
    """The two-letter code of a state written as its name or, in capitals, its code."""
    places = gazetteer()
    name = places.states.get(place_key(written))
    if name is None or (len(written) == 2 and not written.isupper()):
        return None
    return places.state_codes.get(name)


#: a town and its US state in one span: "Dayton, Ohio", "Boise, ID"
_TOWN_STATE: Final = re.compile(rf"(?P<town>[^\W\d_][^\d,]*?)(?P<sep>,[ \t]*)(?P<state>{_STATE_WRITTEN})")


def town_and_state(original: str, lang: str, rng: RandomSource) -> str | None:
    """Another state and a town of it for a span that names both ("Dayton, Ohio" -> "Fresno, California",
    the state written as in the original); None when the span is no such pair."""
    found = _TOWN_STATE.fullmatch(original.strip())
    old = _state_code(found["state"]) if found is not None and lang == "en" else None
    if found is None or old is None:
        return None
    new = state(found["state"], rng)
    while _state_code(new) == old:
        new = state(found["state"], rng)
    return town(found["town"], lang, rng, state=_state_code(new)).name + found["sep"] + new


def abbreviation(original: str, rng: RandomSource) -> str:
    """Capitals of the same length."""
    return "".join(rng.choice("ABCDEFGHJKLMNPRSTVW") for _ in original)


def state(original: str, rng: RandomSource) -> str:
    """Another US state, written as a two-letter code when the original is one."""
    places = gazetteer()
    name = rng.choice(sorted(set(places.states.values())))
    return places.state_codes[name] if len(original.strip()) == 2 else name


def country(rng: RandomSource) -> str:
    """A country."""
    return rng.choice(sorted(set(gazetteer().countries.values())))
