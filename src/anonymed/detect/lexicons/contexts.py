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
- ``abbreviation``: two to four capitals after a place cue that are no common abbreviation ("at GH");
- ``quoted``: one or two capitalised words in quotes after a nickname or baby cue ('goes by "Bunny"', 'Infant
  "Aaliyah" per parents').

A name word is one that is not a common word of the language (the shipped lists), not a role or function
word; after an unambiguous title (Mrs, Dr, Rabbi) any word but those goes. The word classes are general
clinical English, not names of any corpus.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import ClassVar, Final

from anonymed.detect.base import Detector, DetectorParams
from anonymed.detect.lexicons.context import FUNCTION_WORDS
from anonymed.detect.lexicons.contexts_base import Hit
from anonymed.detect.lexicons.contexts_places import PlaceRules
from anonymed.detect.lexicons.contexts_words import (
    AMBIGUOUS_TITLES,
    CLOSING_QUOTES,
    CONTACT_VERBS,
    CREDENTIALS,
    DESCRIBING_VERBS,
    DOCUMENTS,
    KIN,
    NOT_SUBJECTS,
    OPENING_QUOTES,
    PA_NOUNS,
    PATIENT_CUES,
    PHONE_LABELS,
    QUOTE_CUES,
    ROLE_WORDS,
    ROLES,
    SPECIES,
    SPEECH_AFTER,
    TITLES,
    TRIGGERS,
)
from anonymed.detect.lexicons.resources import name_lists
from anonymed.detect.tokens import LOWER, UPPER, capitalised
from anonymed.detect.view import NoteView
from anonymed.document import Document, Span
from anonymed.labels import Label

SOURCE: Final = "contexts"


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


class _Rules(PlaceRules):
    """The name rules over one note's words, and the walk that runs every rule."""

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
            if key in QUOTE_CUES and token.gap in OPENING_QUOTES:
                yield from self._quoted(nxt)
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
        yield from self.places(i)

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

    def _quoted(self, start: int) -> Iterator[Hit]:
        """One or two capitalised words, joined, closed by a quote ('"Aaliyah"', '"Big Al"')."""
        end = start
        while end < len(self.tokens) and end - start < 2 and self._quotable(end):
            gap = self.tokens[end].gap
            end += 1
            if gap[:1] in CLOSING_QUOTES and not self.tokens[end - 1].newline:
                yield (start, end, Label.NAME, None, "quoted")
                return
            if gap or self.tokens[end - 1].newline:
                return

    def _quotable(self, i: int) -> bool:
        """A capitalised word that is no kin, role or function word ('called "Dad"' names no one)."""
        key = self.tokens[i].key
        return (
            capitalised(self.tokens[i].text)
            and key not in KIN
            and key not in ROLE_WORDS
            and key not in FUNCTION_WORDS
        )

    def _patient(self, start: int) -> Iterator[Hit]:
        """Two to four capitalised name words (initials aside) after a patient cue, listed or not."""
        end = self.without_final_initials(start, self.joined_run(start, 4, self._capitalised_name))
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
