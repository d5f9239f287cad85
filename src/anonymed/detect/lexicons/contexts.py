"""Context rules for names and places in English notes, as hints for the tagger (and a detector of their own).

Each rule marks the words a context announces, with its own source (``contexts.title``...), so that the
tagger learns how far to trust each one:

- ``title``: after Mr / Mrs / Ms / Dr / Rabbi / Father ("mrs. Park", "MS SANTANGELO", "Dr. o rourke");
- ``speech``: after per / as per / spoke with / reported to / discussed with ("per W. MAROTTA");
- ``role``: after a role abbreviation, in any case ("NP Carol", "ho smith");
- ``credential``: before a credential without a comma ("Stord-Painter MD", "J. Chang PA");
- ``initial``: an initial, its period and a word ("D. Phyl", "S. DOMINICO");
- ``patient``: two name words or more, capitalised, after "patient" / "pt" in a cased note ("Pt Kwame Boateng
  seen", "Patient: Chidinma Okonkwo-Eze"), names that no list holds;
- ``described``: capitalised name words opening a sentence before "is a" / "was an" and an age ("Rajeshwari
  Venkatesan is a 54 yo woman", the opening of a history), names that no list holds;
- ``family``: a word before "family" ("KEEP ROMERO FAMILY AWARE");
- ``kin``: words before a kin word in parentheses or a phone label ("Jane Roe (daughter)", "Jane Roe cell#");
- ``subject``: a listed first name opening a clause before a verb of contact ("bill called", "bob visited");
- ``institution``: words before an institution word or after an institution prefix ("Baltimore Rehab",
  "LAUREL REGIONAL", "Holy Cross", "U Maryland", "St. Agnes");
- ``residence``: a town after a verb of living ("lives in Cranford", "resides nearby in brookline");
- ``region``: a compass word and a geographic noun ("FROM THE WESTERN SHORE", "on South Campus");
- ``county``: capitalised words before "County" / "Parish" / "Borough" in a cased note ("Ulster County Office
  for the Aging", "Prince George's County"), common words included ("Orange County");
- ``area``: capitalised words between "in" / "the" / "from" and "area" ("in Millbrook area");
- ``caller``: a capitalised listed name inside a sentence before a verb of contact ("Harrington phoned");
- ``abbreviation``: two to four capitals after a place cue that are no common abbreviation ("at GH").

A name word is one that is not a common word of the language (the shipped lists), not a role or function
word; after an unambiguous title (Mrs, Dr, Rabbi) any word but those goes. The word classes are general
clinical English, not names of any corpus.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import ClassVar, Final

from anonymed.detect.base import Detector, DetectorParams
from anonymed.detect.lexicons.context import FUNCTION_WORDS
from anonymed.detect.lexicons.contexts_words import (
    ABBREVIATION_CUES,
    AMBIGUOUS_TITLES,
    AREA_CUES,
    COMPASS,
    CONTACT_VERBS,
    COUNTY_WORDS,
    CREDENTIALS,
    DESCRIBING_VERBS,
    DOCUMENTS,
    FIELD_LABELS,
    GENERIC_TAILS,
    INSTITUTION_HEADS,
    INSTITUTION_TAILS,
    KIN,
    NAMING_TAILS,
    NOT_SUBJECTS,
    PA_NOUNS,
    PATIENT_CUES,
    PHONE_LABELS,
    REGION_NOUNS,
    RESIDENCE_LINKS,
    RESIDENCE_VERBS,
    ROLE_WORDS,
    ROLES,
    SAINTS,
    SPECIES,
    SPEECH_AFTER,
    TITLES,
    TRIGGERS,
    UNITS,
    WEAK_HEADS,
)
from anonymed.detect.lexicons.resources import NameLists, name_lists
from anonymed.detect.tokens import LOWER, UPPER, Token, capitalised
from anonymed.detect.view import NoteView
from anonymed.document import Document, Span
from anonymed.labels import Label

SOURCE: Final = "contexts"

#: a hit: (first word, end word exclusive, label, subtype, rule)
Hit = tuple[int, int, Label, str | None, str]


class ContextDetector(Detector[DetectorParams]):
    """Names and places announced by their context (English); mostly a source of hints for the tagger."""

    name: ClassVar[str] = SOURCE
    languages: ClassVar[frozenset[str]] = frozenset({"en"})

    def detect(self, doc: Document) -> list[Span]:
        """Spans of ``doc.text`` announced by a context (source ``contexts.<rule>``)."""
        return self.detect_view(NoteView(doc))

    def detect_view(self, view: NoteView) -> list[Span]:
        """Spans of the view's document, over its shared words."""
        tokens = view.words
        if not tokens:
            return []
        caps = view.upper_ratio >= 0.5
        rules = _Rules(view.text, tokens, name_lists(), view.lang, caps)
        spans = []
        for first, end, label, subtype, rule in rules.hits():
            start, stop = tokens[first].start, tokens[end - 1].end
            spans.append(
                Span.of(view.text, start, stop, label, source=f"{SOURCE}.{rule}", score=0.7, subtype=subtype)
            )
        return spans


#: "a 54 yo", "an 81-year-old", "a 3 month old" right after a describing verb
_AGE_DESCRIPTION: Final = re.compile(
    r"[ \t]+an?[ \t]+\d{1,3}[ \t-]*(?:y/?o\b|y\.o\.|yrs?\b|years?\b|-?year-old|mo(?:nths?)?\b)", re.I
)
#: words that open a noun phrase and never a county's name ("Each County", "Any Borough")
_DETERMINERS: Final = frozenset({"each", "every", "any", "another", "some", "either", "neither", "whichever"})


class _Rules:
    """The rules over one note's words."""

    def __init__(self, text: str, tokens: list[Token], lists: NameLists, lang: str, caps: bool) -> None:
        self.text = text
        self.tokens = tokens
        self.lists = lists
        self.lang = lang
        self.caps = caps
        self.cased = not self.caps and any(t.shape not in (LOWER, UPPER) for t in tokens)

    def common(self, i: int) -> bool:
        return self.lists.is_common(self.tokens[i].key.removesuffix("'s"), self.lang)

    def joined(self, i: int) -> bool:
        """Whether word i and word i+1 are on one line, separated by a space, a hyphen or an initial's dot."""
        token = self.tokens[i]
        if token.newline or i + 1 >= len(self.tokens):
            return False
        return token.gap == "" or token.hyphen or (token.gap == "." and len(token.text) == 1)

    def name_word(self, i: int, *, loose: bool = False) -> bool:
        """Whether word i can be (part of) a person's name here."""
        token = self.tokens[i]
        key = token.key.removesuffix("'s")
        if not key.replace("'", "").replace("-", "").isalpha() or key in FUNCTION_WORDS or key in ROLE_WORDS:
            return False
        if key in FIELD_LABELS:
            return False
        if len(key) == 1:
            return token.text.isupper() or token.dot or loose
        if not self.caps and token.shape == LOWER and not loose and self.common(i):
            return False
        return loose or not self.common(i)

    def listed(self, i: int) -> bool:
        """Whether word i is a listed first or last name."""
        return self.lists.is_name(self.tokens[i].key.removesuffix("'s"))

    def sentence_start(self, i: int) -> bool:
        """Whether word i opens its line or a sentence."""
        if i == 0 or self.tokens[i - 1].newline:
            return True
        previous = self.tokens[i - 1]
        if (previous.gap == "." and len(previous.key) == 1) or previous.hyphen:
            return False  # after an initial ("D. Phyl") or inside a hyphenated name ("Stord-Painter")
        return previous.gap[-1:] in (".", ":", ";", "!", "?", "-", "*", "/", "(")

    def strong(self, i: int) -> bool:
        """A name word that looks like one: listed, long, or capitalised inside a sentence of a cased note."""
        if not self.name_word(i):
            return False
        token = self.tokens[i]
        if self.cased and token.shape == LOWER:
            return False  # a note that capitalises names would have capitalised this one
        if self.listed(i) or len(token.key) >= 5:
            return True
        return self.cased and token.shape != LOWER and not self.sentence_start(i)

    def name_from(self, i: int, *, loose: bool = False, limit: int = 3) -> int:
        """End (exclusive) of the name starting at word i: an initial and up to ``limit`` words."""
        end = i
        while end < len(self.tokens) and end - i < limit and self.name_word(end, loose=loose and end == i):
            if len(self.tokens[end].key) > 1:
                loose = False
            end += 1
            if not self.joined(end - 1):
                break
        while end > i and len(self.tokens[end - 1].key) == 1:
            end -= 1  # a name does not end on an initial
        return end

    def hits(self) -> Iterator[Hit]:
        for i, token in enumerate(self.tokens):
            if token.key in TRIGGERS or len(token.key) == 1:  # most words start no rule: one lookup each
                yield from self._at(i)

    def _at(self, i: int) -> Iterator[Hit]:
        token = self.tokens[i]
        key = token.key
        nxt = i + 1
        if nxt < len(self.tokens) and not token.newline:
            if key in TITLES and token.gap in ("", "."):
                loose = key not in AMBIGUOUS_TITLES or (token.dot and token.shape != UPPER)
                subtype = "clinician" if key in ("dr", "drs", "doctor") else None
                yield from self._name(nxt, "title", subtype, loose)
            if key in SPEECH_AFTER and token.gap in ("", ":"):
                yield from self._speech(i)
            if key in ROLES and token.gap in ("", ":", "-") and self.strong(nxt):
                yield from self._name(nxt, "role", "clinician", False)
            if self._is_initial(i):
                yield from self._initial(i)
            if key in PATIENT_CUES and token.gap in ("", ":", ".") and self.cased:
                yield from self._patient(nxt)
            if key == "family" and i > 0 and self.strong(i - 1):
                yield from self._before(i, "family", "patient")
        if key in CREDENTIALS and i > 0 and token.text.isupper() and not self._pulmonary(i):
            yield from self._before(i, "credential", "clinician")
        if key in DESCRIBING_VERBS and i > 0 and self.cased and _AGE_DESCRIPTION.match(self.text, token.end):
            yield from self._described(i)
        if key in CONTACT_VERBS and i > 0:
            yield from self._subject(i)
        if (key in KIN or key in PHONE_LABELS) and i > 0:
            yield from self._kin(i)
        if key in KIN and token.gap == "(" and nxt < len(self.tokens):
            yield from self._kin_after(nxt)
        yield from self._places(i)

    def _speech(self, i: int) -> Iterator[Hit]:
        """A name after per / spoke with / reported to (no document: "per carevue")."""
        follow = SPEECH_AFTER[self.tokens[i].key]
        start = i + 1
        if "" not in follow:
            if self.tokens[start].key not in follow or self.tokens[start].newline:
                return
            start += 1
        if start >= len(self.tokens) or self.tokens[start].key in DOCUMENTS:
            return
        first = start + 1 if len(self.tokens[start].key) == 1 and start + 1 < len(self.tokens) else start
        if self.strong(first) or (self.listed(first) and self.name_word(first)):
            yield from self._name(start, "speech", None, False)  # "spoke with suzette" in a cased note

    def _is_initial(self, i: int) -> bool:
        """A lone letter with its period, after a space, that is no part of an acronym (H.O., I.S.)."""
        token = self.tokens[i]
        if len(token.key) != 1 or not token.dot or not token.text.isalpha() or self.sentence_start(i):
            return False
        before = self.text[token.start - 1 : token.start] if token.start else " "
        if not before.isspace() and before != "(":
            return False
        return i + 1 < len(self.tokens) and len(self.tokens[i + 1].key) > 1

    def _pulmonary(self, i: int) -> bool:
        """ "PA line", "PA 54/18": the pulmonary artery, not a physician assistant."""
        if self.tokens[i].key != "pa" or i + 1 >= len(self.tokens) or self.tokens[i].newline:
            return False
        nxt = self.tokens[i + 1]
        return nxt.key in PA_NOUNS or nxt.text[0].isdigit()

    def _name(self, start: int, rule: str, subtype: str | None, loose: bool) -> Iterator[Hit]:
        if start >= len(self.tokens):
            return
        end = self.name_from(start, loose=loose)
        if (
            end == start
            and rule == "title"
            and self.tokens[start].text.isupper()
            and len(self.tokens[start].key) == 1
        ):
            end = start + 1  # "mr I": a patient known by an initial
        if end > start:
            yield (start, end, Label.NAME, subtype, rule)

    def _patient(self, start: int) -> Iterator[Hit]:
        """Two to four capitalised name words (initials aside) after a patient cue, listed or not."""
        end = start
        while end < len(self.tokens) and end - start < 4 and self._capitalised_name(end):
            end += 1
            if not self.joined(end - 1):
                break
        while end > start and len(self.tokens[end - 1].key) == 1:
            end -= 1
        if self._words(start, end) >= 2:
            yield (start, end, Label.NAME, "patient", "patient")

    def _described(self, verb: int) -> Iterator[Hit]:
        """Two to four capitalised name words (initials aside) that open the sentence ``verb`` continues."""
        start = verb
        while start > 0 and verb - start < 4 and self.joined(start - 1) and self._capitalised_name(start - 1):
            start -= 1
        if start == verb or not self.sentence_start(start) or len(self.tokens[verb - 1].key) == 1:
            return
        if self._words(start, verb) >= 2:
            yield (start, verb, Label.NAME, "patient", "described")

    def _words(self, start: int, end: int) -> int:
        """How many of words ``start`` to ``end`` (exclusive) are more than an initial."""
        return sum(1 for j in range(start, end) if len(self.tokens[j].key) > 1)

    def _capitalised_name(self, i: int) -> bool:
        """A name word written capitalised or in capitals, or an initial with its period."""
        token = self.tokens[i]
        if len(token.key) == 1:
            return token.text.isupper() and token.dot
        return token.shape != LOWER and self.name_word(i)

    def _initial(self, i: int) -> Iterator[Hit]:
        nxt = i + 1
        if self.tokens[nxt].key in SPECIES or (self.cased and self.tokens[nxt].shape == LOWER):
            return
        if not self.strong(nxt) and not self.listed(nxt):
            return
        end = self.name_from(i)
        if end > nxt:
            yield (i, end, Label.NAME, None, "initial")

    def _before(self, i: int, rule: str, subtype: str | None) -> Iterator[Hit]:
        """One or two name words right before word i, on its line (capitalised words in a cased note)."""
        start = i
        while start > 0 and i - start < 3 and self.joined(start - 1) and self._named(start - 1):
            start -= 1
        if start < i and len(self.tokens[start].key) == 1 and start + 1 == i:
            return
        if start < i and rule == "credential" and self._surname_first(start - 1):
            start -= 1
        if start < i:
            yield (start, i, Label.NAME, subtype, rule)

    def _surname_first(self, i: int) -> bool:
        """A surname written first, with a comma, opening its line or field ("Chen, David L MD")."""
        if i < 0 or self.tokens[i].gap != "," or self.tokens[i].newline or len(self.tokens[i].key) < 2:
            return False
        return self.sentence_start(i) and self._named_capital(i)

    def _named_capital(self, i: int) -> bool:
        """A name word written capitalised or in capitals."""
        return self.tokens[i].shape != LOWER and self.name_word(i, loose=True)

    def _named(self, i: int) -> bool:
        """A name word, or a capitalised word inside a sentence of a cased note ("Stord-Painter MD")."""
        token = self.tokens[i]
        written_as_name = (
            self.cased and token.shape != LOWER and len(token.key) > 1 and not self.sentence_start(i)
        )
        return self.name_word(i, loose=written_as_name)

    def _kin(self, i: int) -> Iterator[Hit]:
        """One to three name words right before "(son)" or before a phone label and its number."""
        before = self.tokens[i - 1]
        if before.newline:
            return
        if self.tokens[i].key in KIN:
            if before.gap != "(" or self.tokens[i].gap[:1] != ")":
                return
        else:
            after = self.text[self.tokens[i].end : self.tokens[i].end + 4].lstrip("#:. ")
            if before.gap or not after[:1].isdigit():
                return
        start = i - 1
        while start >= 0 and i - start <= 3 and self._kin_name(start):
            if start < i - 1 and not self.joined(start):
                break
            start -= 1
        start += 1
        if start < i and any(self.strong(j) or self.listed(j) for j in range(start, i)):
            yield (start, i, Label.NAME, "relative", "kin")

    def _kin_after(self, first: int) -> Iterator[Hit]:
        """One to three name words in parentheses after a kin word ("wife (Jane Roe)")."""
        end = first
        while end < len(self.tokens) and end - first < 3 and self._kin_name(end):
            end += 1
            if self.tokens[end - 1].gap[:1] == ")":
                if any(self.strong(j) or self.listed(j) for j in range(first, end)):
                    yield (first, end, Label.NAME, "relative", "kin")
                return
            if not self.joined(end - 1):
                return

    def _kin_name(self, i: int) -> bool:
        """A name word, or a listed name capitalised at a line's start ("Hank Roe (son)")."""
        token = self.tokens[i]
        if token.key in KIN or token.key in PHONE_LABELS:
            return False
        return self._named(i) or (self.listed(i) and token.shape != LOWER and self.name_word(i, loose=True))

    def _subject(self, verb: int) -> Iterator[Hit]:
        """A listed first name (and a word after it) opening the clause that ``verb`` continues."""
        start = verb - 1
        if (
            start > 0
            and self.joined(start - 1)
            and self.name_word(start)
            and self.tokens[start - 1].key in self.lists.first
        ):
            start -= 1
        token = self.tokens[start]
        if token.key not in self.lists.first and self._caller(verb - 1):
            yield (verb - 1, verb, Label.NAME, None, "caller")  # "her psychiatrist Harrington phoned"
            return
        if token.key not in self.lists.first or (token.key in NOT_SUBJECTS and not token.text[0].isupper()):
            return
        if token.key in ROLE_WORDS or token.key in FUNCTION_WORDS or not self.joined(verb - 1):
            return
        before = self.tokens[start - 1] if start > 0 else None
        if before is None or before.newline or before.gap[-1:] in (".", ":", ";", ",", "-", ")", "("):
            yield (start, verb, Label.NAME, None, "subject")

    def _caller(self, i: int) -> bool:
        """A capitalised listed name inside a sentence of a cased note, right before a verb of contact."""
        token = self.tokens[i]
        if not self.cased or token.shape == UPPER or not self.joined(i) or self.sentence_start(i):
            return False
        return token.shape != LOWER and self.listed(i) and self.strong(i)

    def _places(self, i: int) -> Iterator[Hit]:
        key = self.tokens[i].key
        if key in INSTITUTION_TAILS and i > 0 and self.joined(i - 1):
            yield from self._institution_tail(i)
        if key in INSTITUTION_HEADS:
            yield from self._institution_head(i)
        if key in ABBREVIATION_CUES and i + 1 < len(self.tokens) and not self.tokens[i].newline:
            yield from self._abbreviation(i + 1)
        if key in RESIDENCE_VERBS:
            yield from self._residence(i)
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

    def _residence(self, verb: int) -> Iterator[Hit]:
        """One or two place words after a verb of living and one or two links ("lives nearby in X")."""
        start = verb + 1
        while start < len(self.tokens) and start - verb <= 2 and self.tokens[start].key in RESIDENCE_LINKS:
            if self.tokens[start - 1].newline:
                return
            start += 1
        if start == verb + 1 or start >= len(self.tokens) or self.tokens[start - 1].newline:
            return
        stop = self._joined_run(start, 2, self._town_word)
        if stop > start:
            yield (start, stop, Label.LOCATION, "city", "residence")

    def _joined_run(self, start: int, most: int, word: Callable[[int], bool]) -> int:
        """End of a run of at most ``most`` tokens from ``start`` passing ``word``, each joined onward."""
        stop = start
        while stop < len(self.tokens) and stop - start < most and word(stop):
            stop += 1
            if not self.joined(stop - 1):
                break
        return stop

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
        stop = self._joined_run(end, 3, self._place_word)
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
