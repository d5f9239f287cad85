"""Context rules for places in English notes: institutions, residences, areas, regions, counties and hospital
abbreviations (see ``contexts`` for the list of rules)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from anonymed.detect.lexicons.context import FUNCTION_WORDS
from anonymed.detect.lexicons.contexts_base import Hit, RuleWords
from anonymed.detect.lexicons.contexts_words import (
    ABBREVIATION_CUES,
    AREA_CUES,
    COMPASS,
    COUNTY_WORDS,
    FACILITY_CUES,
    FACILITY_KINDS,
    GENERIC_TAILS,
    INSTITUTION_HEADS,
    INSTITUTION_TAILS,
    NAMING_TAILS,
    ORIGIN_LAST,
    ORIGIN_LINKS,
    ORIGIN_VERBS,
    REGION_NOUNS,
    RESIDENCE_LINKS,
    RESIDENCE_VERBS,
    ROLE_WORDS,
    SAINTS,
    UNITS,
    WEAK_HEADS,
)
from anonymed.detect.tokens import LOWER, UPPER, capitalised
from anonymed.labels import Label

#: words that open a noun phrase and never a county's name ("Each County", "Any Borough")
_DETERMINERS: Final = frozenset({"each", "every", "any", "another", "some", "either", "neither", "whichever"})


class PlaceRules(RuleWords):
    """The place rules over one note's words."""

    def places(self, i: int) -> Iterator[Hit]:
        """The place rules that word ``i`` starts or closes."""
        key = self.tokens[i].key
        if key in INSTITUTION_TAILS and i > 0 and self.joined(i - 1):
            yield from self._institution_tail(i)
        if key in INSTITUTION_HEADS:
            yield from self._institution_head(i)
        if i > 0 and self.joined(i) and (key, self.tokens[i + 1].key) in FACILITY_KINDS:
            yield from self._facility(i)
        if key in ABBREVIATION_CUES and i + 1 < len(self.tokens) and not self.tokens[i].newline:
            yield from self._abbreviation(i + 1)
        if key in RESIDENCE_VERBS:
            yield from self._residence(i, RESIDENCE_LINKS)
        if key in ORIGIN_VERBS:
            yield from self._residence(i, ORIGIN_LINKS, ORIGIN_LAST)
        if key in COMPASS and self.joined(i) and self.tokens[i + 1].key in REGION_NOUNS:
            named = self.tokens[i + 1].key not in INSTITUTION_TAILS  # "South Campus": the campus is "South"
            yield (i, i + 1 + named, Label.LOCATION, None, "region")  # joined(i): there is a word i + 1
        if key == "area" and i > 1 and self.cased:
            yield from self._area(i)
        if key in COUNTY_WORDS and i > 0 and self.cased and self.tokens[i].shape != LOWER:
            yield from self._county(i)

    def _county(self, i: int) -> Iterator[Hit]:
        """One to three capitalised words right before a county word: the county's name, not the word."""
        start = i
        while start > 0 and i - start < 3 and self.joined(start - 1) and self._county_word(start - 1):
            start -= 1
        if start < i and self.tokens[start].key in _DETERMINERS:
            start += 1  # "Each County", "Every County": a capital that only opens the sentence
        if start < i:
            yield (start, i, Label.LOCATION, "city", "county")

    def _county_word(self, i: int) -> bool:
        """A capitalised word of a county's name: no function, role or county word."""
        token = self.tokens[i]
        key = token.key.removesuffix("'s")
        if token.shape == LOWER or not key.replace("'", "").isalpha() or len(key) < 2:
            return False
        return key not in FUNCTION_WORDS and key not in ROLE_WORDS and key not in COUNTY_WORDS

    def _area(self, i: int) -> Iterator[Hit]:
        """One or two capitalised words before "area" after "in" / "the" / "from" ("in Millbrook area")."""
        start = i
        while start > 0 and i - start < 2 and self.joined(start - 1) and self._town_word(start - 1):
            if self.tokens[start - 1].shape == LOWER:
                break
            start -= 1
        if start < i and start > 0 and self.tokens[start - 1].key in AREA_CUES and self.joined(start - 1):
            yield (start, i, Label.LOCATION, "city", "area")

    def _residence(
        self, verb: int, links: frozenset[str], last: frozenset[str] | None = None
    ) -> Iterator[Hit]:
        """One or two place words after a verb of living and one or two links ("lives nearby in X"), or after
        a verb of origin and links that end with one of ``last`` ("moved here from X")."""
        start = verb + 1
        while start < len(self.tokens) and start - verb <= 2 and self.tokens[start].key in links:
            if self.tokens[start - 1].newline:
                return
            start += 1
        if start == verb + 1 or start >= len(self.tokens) or self.tokens[start - 1].newline:
            return
        if last is not None and self.tokens[start - 1].key not in last:
            return
        stop = self.joined_run(start, 2, self._town_word)
        if stop > start:
            yield (start, stop, Label.LOCATION, "city", "residence")

    def _town_word(self, i: int) -> bool:
        """A word of a town's name: no common word, four letters or more (five in lower case)."""
        token = self.tokens[i]
        if not token.key.isalpha() or token.key in FUNCTION_WORDS or token.key in ROLE_WORDS:
            return False
        if token.key in UNITS or token.key in INSTITUTION_TAILS or self.common(i):
            return False
        return len(token.key) >= 4 and (token.shape != LOWER or len(token.key) >= 5)

    def _institution_tail(self, i: int) -> Iterator[Hit]:
        """Up to three name words before an institution word: "Baltimore Rehab", "Grieco House". The span
        holds the name words only: the institution word itself names nothing ("CALVERT HOSPITAL" is marked
        "CALVERT" in annotated corpora), and a common noun must not spread to other mentions."""
        key = self.tokens[i].key
        if key in ("health", "healthcare") and i + 1 < len(self.tokens) and self.tokens[i + 1].key == "care":
            return
        generic = key in GENERIC_TAILS
        start = i
        while start > 0 and i - start < 3 and self.joined(start - 1) and self._place_word(start - 1):
            if generic and self.common(start - 1):
                break
            start -= 1
        if start == i and not generic and self.cased and self._uncommon_lower(i - 1):
            start -= 1  # "taken to fallston hosp" in a note that forgot the capital
        if start < i:
            yield (start, i + (key in NAMING_TAILS), Label.LOCATION, "hospital", "institution")

    def _facility(self, i: int) -> Iterator[Hit]:
        """Up to three name words capitalised in a cased note before a kind of care facility, after a
        preposition of place ("to Sunny Acres Skilled Nursing"): the name, not the kind ("Discharge Plan
        Skilled Nursing" is a heading)."""
        if not self.cased:
            return
        start = i
        while start > 0 and i - start < 3 and self.joined(start - 1) and self._place_word(start - 1):
            start -= 1
        if start < i and start > 0 and self.tokens[start - 1].key in FACILITY_CUES and self.joined(start - 1):
            yield (start, i, Label.LOCATION, "hospital", "institution")

    def _uncommon_lower(self, i: int) -> bool:
        """A lower-case word of five letters or more that is no common, function or role word."""
        token = self.tokens[i]
        if token.shape != LOWER or len(token.key) < 5 or not token.key.isalpha():
            return False
        return token.key not in ROLE_WORDS and token.key not in UNITS and not self.common(i)

    def _institution_head(self, i: int) -> Iterator[Hit]:
        """Up to three name words after an institution prefix: "Holy Cross", "U Maryland", "St. Agnes"."""
        token = self.tokens[i]
        if token.gap not in ("", ".") or token.newline or i + 1 >= len(self.tokens):
            return
        end = i + 1
        if token.key in ("u", "univ", "university") and self.tokens[end].key == "of":
            end += 1
        sandwich = self._sandwich(end) if token.key in WEAK_HEADS else 0
        if sandwich:
            yield (i, sandwich, Label.LOCATION, "hospital", "institution")
            return
        stop = self.joined_run(end, 3, self._place_word)
        if stop == end:
            return
        first = self.tokens[end]
        written_as_name = self.cased and capitalised(first.text) and token.shape != LOWER
        if token.key in SAINTS and not (self.listed(end) and not self.common(end)):
            return  # "SR TO ST. HIGH", "ST. Stable" (but "St. Agnes", "Saint Joseph")
        if token.key in WEAK_HEADS and not (written_as_name or (self.listed(end) and not self.common(end))):
            return  # "GOOD AMTS", "1 U PRBC" (but "Good Samaritan", "U Maryland")
        if stop < len(self.tokens) and self.tokens[stop].key in NAMING_TAILS and self.joined(stop - 1):
            stop += 1  # "Holy Redeemer Memorial"
        yield (i, stop, Label.LOCATION, "hospital", "institution")

    def _sandwich(self, end: int) -> int:
        """End (exclusive) of one or two words of any kind closed by an institution word, after an institution
        prefix ("holy redeemer hospital", "good shepherd memorial"): 0 when there is none. A naming tail
        ("Memorial") is kept in the span, a generic one ("hospital") is not."""
        stop = end
        while stop < len(self.tokens) and stop - end < 2 and self.joined(stop):
            key = self.tokens[stop].key
            if not key.isalpha() or key in FUNCTION_WORDS or key in ROLE_WORDS or key in INSTITUTION_TAILS:
                break
            stop += 1
            if self.tokens[stop].key in INSTITUTION_TAILS:
                return stop + (self.tokens[stop].key in NAMING_TAILS)
        return 0

    def _abbreviation(self, i: int) -> Iterator[Hit]:
        """Two to four capitals after a place cue that are no common abbreviation: "at GH"."""
        token = self.tokens[i]
        shaped = token.shape == UPPER and 2 <= len(token.text) <= 4 and token.text.isalpha()
        if not self.cased:
            return  # in a note written in capitals, every word is
        after = self.text[token.end : token.end + 2].lstrip()
        if after[:1].isdigit() or after[:1] == ":":
            return
        if shaped and token.key not in UNITS and token.key not in FUNCTION_WORDS and not self.common(i):
            yield (i, i + 1, Label.LOCATION, "hospital", "abbreviation")

    def _place_word(self, i: int) -> bool:
        """A word of an institution's name: capitalised in a cased note, else no common word."""
        token = self.tokens[i]
        key = token.key.removesuffix("'s")  # "St. Agnes's"
        if not key.isalpha() or key in FUNCTION_WORDS or key in ROLE_WORDS:
            return False
        if key in UNITS or key in INSTITUTION_TAILS:
            return False
        if self.cased:
            return token.text[0].isupper() and (token.text[1:].islower() or token.shape == UPPER)
        return not self.common(i) and (len(token.key) >= 5 or self.listed(i))
