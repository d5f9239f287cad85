"""Person names: name lists, honorifics, relatives, credentials and cues, in one pass over the tokens."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from anonymed.detect.lexicons import context as cx
from anonymed.detect.lexicons.resources import NameLists
from anonymed.detect.tokens import LOWER, OTHER, TITLE, UPPER, Token

#: how a token can take part in a name
NO: Final = 0  # function word, digits, common word that is no name
STRONG: Final = 1  # a listed name that is not a common word
WEAK: Final = 2  # a listed name that is also a common word ("Bill", "Mark", "Hope"): needs context
UNKNOWN: Final = 3  # not listed, not common: a name only in a name's context
INITIAL: Final = 4  # one capital letter followed by a dot or a hyphen ("J.", "J-L")
LETTER: Final = 5  # one capital letter alone ("Dr L Rostain")

#: how far an ambiguous name (WEAK) is accepted by a rule
WEAK_NONE: Final = 0
WEAK_GIVEN: Final = 1  # listed first names only, unless capitals are informative
WEAK_ANY: Final = 2
#: how far an unknown word is accepted by a rule (every rule accepts some: no "never" level)
UNK_STAND: Final = 1  # only if it stands out by its capitals in a note not written in capitals
UNK_ANY: Final = 2

#: name words looked at on each side of a listed name by ``_plain`` (``_extend`` grows longer runs); the
#: bound keeps a long run of capitalised words linear instead of quadratic
PLAIN_REACH: Final = 8

#: name hits: token index -> (score, subtype)
Marks = dict[int, tuple[float, str | None]]


@dataclass(frozen=True)
class View:
    """The tokens of one document with what the recognizers need to know about each."""

    tokens: list[Token]
    kinds: list[int]
    capital: list[bool]  # capitalised, or capitalisation says nothing in this document
    stand: list[bool]  # capitalised in a note that is not written in capitals
    given: list[bool]  # a listed first name
    cased: bool  # whether the note mixes upper and lower case (lower case then says "no name")
    lang: str

    def joined(self, i: int) -> bool:
        """Whether tokens i and i+1 can belong to one name (same line, space, hyphen or an initial's dot)."""
        token = self.tokens[i]
        if token.newline or i + 1 >= len(self.tokens):
            return False
        return token.gap == "" or token.hyphen or (token.gap == "." and self.kinds[i] == INITIAL)


def classify(token: Token, lists: NameLists, lang: str) -> int:
    """How ``token`` can take part in a name."""
    key = token.key
    if len(key) == 1:
        if not token.text.isupper() or not token.text.isalpha():
            return NO
        return INITIAL if token.dot or token.hyphen else LETTER
    cache = lists.kinds.setdefault(lang, {})
    kind = cache.get(key)
    if kind is None:
        kind = cache[key] = _classify_key(key, lists, lang)
    return kind


def _classify_key(key: str, lists: NameLists, lang: str) -> int:
    if not key[0].isalpha():
        return NO
    if key.endswith("'s"):
        key = key[:-2]
    if len(key) < 2 or key in cx.FUNCTION_WORDS or not key.replace("'", "").isalpha():
        return NO
    if key in lists.first or key in lists.last:
        return WEAK if lists.is_common(key, lang) else STRONG
    return NO if lists.is_common(key, lang) else UNKNOWN


def build_view(tokens: list[Token], lists: NameLists, lang: str, upper_share: float) -> View:
    """Classify every token once; decide what capitals say in this document."""
    titled = sum(1 for t in tokens if t.shape != LOWER and t.shape != OTHER)
    in_caps = upper_share >= 0.5
    cased = not in_caps and titled >= max(2, len(tokens) // 50)
    return View(
        tokens,
        [classify(t, lists, lang) for t in tokens],
        [not cased or t.shape != LOWER for t in tokens],
        [_stands_out(t, in_caps) for t in tokens],
        [t.key in lists.first for t in tokens],
        cased,
        lang,
    )


def _stands_out(token: Token, in_caps: bool) -> bool:
    """Capitalised in a note not written in capitals; short all-capital words are abbreviations."""
    if in_caps:
        return False
    return (token.shape == TITLE and len(token.text) > 1) or (token.shape == UPPER and len(token.text) > 3)


def _has_word(view: View, start: int, end: int) -> bool:
    """Whether the tokens hold more than initials."""
    return any(view.kinds[j] not in (INITIAL, LETTER) for j in range(start, end))


def _part(view: View, i: int, *, weak: int, unknown: int, any_case: bool = False) -> bool:
    """Whether token i can belong to a name found by a rule with these allowances."""
    kind = view.kinds[i]
    if kind in (NO, LETTER) or not (any_case or view.capital[i]):
        return False
    if kind == WEAK:
        return weak == WEAK_ANY or (
            weak == WEAK_GIVEN and view.given[i] and (view.stand[i] or not view.cased)
        )
    if kind == UNKNOWN:
        if unknown == UNK_ANY:
            return view.stand[i] or (not view.cased and len(view.tokens[i].key) >= 3)
        return unknown == UNK_STAND and view.stand[i]
    return True


def _forward(
    view: View, start: int, *, weak: int, unknown: int, limit: int = 4, any_case: bool = False
) -> int:
    """End (exclusive) of the name that starts at ``start``; ``start`` when there is none."""
    end = start
    while end < len(view.tokens) and end - start < limit:
        if end > start and not view.joined(end - 1):
            break
        if not _part(view, end, weak=weak, unknown=unknown, any_case=any_case):
            break
        end += 1
    while end > start and view.kinds[end - 1] == INITIAL and view.tokens[end - 1].gap != ".":
        end -= 1
    return end


def _mark(marks: Marks, start: int, end: int, score: float, subtype: str | None) -> None:
    for i in range(start, end):
        old = marks.get(i)
        if old is None or (score, subtype is not None) > (old[0], old[1] is not None):
            marks[i] = (score, subtype or (old[1] if old else None))


def _coordinated(view: View, end: int, marks: Marks, score: float, subtype: str | None, *, weak: int) -> None:
    """ "Dr. Griffin and Swackhamer", "sons Smokey, Morris and Roger": names listed after a first one."""
    for _ in range(3):
        last = view.tokens[end - 1]
        if last.newline or end >= len(view.tokens):
            return
        start = end
        if view.tokens[end].key in ("and", "et", "&") and last.gap == "" and not view.tokens[end].newline:
            start = end + 1
        elif last.gap not in (",", "&"):
            return
        if start >= len(view.tokens) or view.tokens[start - 1].gap not in ("", ",", "&"):
            return
        nxt = _forward(view, start, weak=weak, unknown=UNK_STAND, limit=3)
        if nxt == start:
            return
        _mark(marks, start, nxt, score - 0.05, subtype)
        end = nxt


def _is_title(view: View, i: int) -> bool:
    """An honorific written as one: "Dr", "dr.", "Mrs"; "MS:" (mental status) and "+MR" are not."""
    token = view.tokens[i]
    key = token.key
    if key not in cx.CLINICIAN_TITLES and key not in cx.PERSON_TITLES and key != cx.MONSIEUR_DOT:
        return False
    if token.newline or token.gap not in ("", ".") or (i > 0 and view.tokens[i - 1].gap.endswith("+")):
        return False
    if key == cx.MONSIEUR_DOT:
        return token.text == "M" and token.dot
    return key not in cx.AMBIGUOUS_TITLES or token.dot or (view.cased and token.shape != UPPER)


def _after_title(view: View, i: int, marks: Marks) -> None:
    if not _is_title(view, i):
        return
    clinician = view.tokens[i].key in cx.CLINICIAN_TITLES
    start = i + 1
    if start + 1 < len(view.tokens) and view.kinds[start] == LETTER and view.joined(start):
        start += 1  # "Dr L Rostain"
    end = _forward(view, start, weak=WEAK_ANY, unknown=UNK_ANY if clinician else UNK_STAND, any_case=True)
    if not _has_word(view, start, end):
        return
    subtype = "clinician" if clinician else None
    score = 0.9 if view.kinds[start] in (STRONG, WEAK) else 0.8
    _mark(marks, i + 1, end, score, subtype)
    _coordinated(view, end, marks, score, subtype, weak=WEAK_GIVEN)


def _after_word(view: View, i: int, marks: Marks) -> None:
    """Names after a relative ("wife Helen"), a role ("NP Carol") or a label ("Nom : DUPONT")."""
    token = view.tokens[i]
    key = token.key
    if token.newline or i + 1 >= len(view.tokens):
        return
    if key in cx.RELATIVES and token.gap in ("", ",", ":", "(", "-"):
        score, subtype, weak, limit = 0.85, "relative", WEAK_GIVEN, 3
    elif key in cx.ROLES and token.gap in ("", ":", "-"):
        score, subtype, weak, limit = 0.8, "clinician", WEAK_GIVEN, 3
    elif (key in cx.COLON_CUES and token.gap == ":") or (key in cx.BARE_CUES and token.gap == ""):
        score, subtype, weak, limit = 0.8, None, WEAK_ANY, 4
    else:
        return
    start = i + 1
    if view.tokens[start].key in ("named", "is") and not token.gap:
        start += 1
    end = _forward(view, start, weak=weak, unknown=UNK_ANY, limit=limit)
    if _has_word(view, start, end):
        _mark(marks, start, end, score, subtype)
        _coordinated(view, end, marks, score, subtype, weak=WEAK_GIVEN)


def _after_caps_cue(view: View, i: int, marks: Marks) -> None:
    """In a cased note, "Patient J. PETIT", "pour RUFUNA Marine": an initial or a word in capitals."""
    token = view.tokens[i]
    if not view.cased or token.key not in cx.CAPS_CUES or token.newline or i + 1 >= len(view.tokens):
        return
    if token.gap not in ("", ":"):
        return
    nxt = view.tokens[i + 1]
    if view.kinds[i + 1] == NO or not (view.kinds[i + 1] == INITIAL or nxt.shape == UPPER):
        return
    weak = WEAK_ANY if view.kinds[i + 1] == INITIAL else WEAK_GIVEN  # "J. PETIT"
    end = _forward(view, i + 1, weak=weak, unknown=UNK_STAND)
    if _has_word(view, i + 1, end):
        _mark(marks, i + 1, end, 0.75, "patient" if token.key in ("patient", "patiente") else None)


def _before_credential(view: View, i: int, marks: Marks) -> None:
    """ "DAN A. FORMAN-LYONS, RRT", "Bernard Foley CRT", "Z. Phillot (Interne)"."""
    token = view.tokens[i]
    if i == 0 or token.key not in cx.CREDENTIALS:
        return
    prev = view.tokens[i - 1]
    comma, paren = prev.gap == ",", prev.gap == "("
    if prev.newline or not (comma or paren or prev.gap == ""):
        return
    if token.key in cx.WEAK_CREDENTIALS and not (comma and token.shape == UPPER):
        return
    if view.cased and token.shape == LOWER and not paren:
        return
    nxt = view.tokens[i + 1] if i + 1 < len(view.tokens) else None
    if nxt is not None and nxt.text.isdigit() and len(nxt.text) == 5:
        return  # "Baltimore, MD 21201": a state code, not a credential
    start = i
    while start > 0 and i - start < 4 and _part(view, start - 1, weak=WEAK_GIVEN, unknown=UNK_ANY):
        if start < i and not view.joined(start - 1):
            break
        start -= 1
    if _has_word(view, start, i):
        _mark(marks, start, i, 0.85, "clinician")


def _inverted(view: View, i: int, marks: Marks, lists: NameLists) -> None:
    """``SMITH, JOHN``: a listed last name, a comma, a listed first name, written alike."""
    token = view.tokens[i]
    if token.gap != "," or token.newline or i + 1 >= len(view.tokens) or view.kinds[i] != STRONG:
        return
    nxt = view.tokens[i + 1]
    both = view.capital[i] and view.capital[i + 1] and token.shape == nxt.shape
    if both and token.key in lists.last and view.given[i + 1] and view.kinds[i + 1] == STRONG:
        _mark(marks, i, i + 2, 0.75, None)


def _sentence_start(view: View, i: int) -> bool:
    if i == 0:
        return True
    prev = view.tokens[i - 1]
    return prev.newline or prev.gap[-1:] in (".", ":", "!", "?", ";", "-", "*", "=")


def _plain(view: View, i: int, marks: Marks, *, high_recall: bool) -> None:
    """Listed names without context: two name words with a first name among them, or one that stands out."""
    if i in marks or (not view.given[i] and view.kinds[i] != STRONG):
        return
    unknown = UNK_STAND
    start, low, high = i, max(0, i - PLAIN_REACH), min(len(view.tokens), i + 1 + PLAIN_REACH)
    while start > low and view.joined(start - 1) and _part(view, start - 1, weak=WEAK_NONE, unknown=unknown):
        start -= 1
    end = i + 1
    while end < high and view.joined(end - 1) and _part(view, end, weak=WEAK_NONE, unknown=unknown):
        end += 1
    solid = view.kinds[i] == STRONG or (view.stand[i] and not _sentence_start(view, i))
    if end - start >= 2 and solid and view.given[i] and view.capital[i]:
        _mark(marks, start, end, 0.75, None)
    elif view.kinds[i] == STRONG and view.capital[i]:
        if view.stand[i] and view.tokens[i].shape == TITLE and not _sentence_start(view, i):
            _mark(marks, i, i + 1, 0.6, None)
        elif high_recall:
            _mark(marks, i, i + 1, 0.5, None)


def _extend(view: View, marks: Marks) -> None:
    """Grow every hit over neighbouring name words ("Rich" -> "Rich Martino")."""
    for i in sorted(marks):
        score, subtype = marks[i]
        j = i + 1
        while j not in marks and j < len(view.tokens) and view.joined(j - 1):
            if not _part(view, j, weak=WEAK_NONE, unknown=UNK_STAND):
                break
            marks[j] = (score, subtype)
            j += 1
        j = i - 1
        while (
            j >= 0 and j not in marks and view.joined(j) and _part(view, j, weak=WEAK_NONE, unknown=UNK_STAND)
        ):
            if _is_title(view, j):
                break
            marks[j] = (score, subtype)
            j -= 1


def find_names(view: View, lists: NameLists, *, high_recall: bool) -> Marks:
    """Token index -> (score, subtype) for every token that belongs to a person's name."""
    marks: Marks = {}
    for i in range(len(view.tokens)):
        key = view.tokens[i].key
        if key not in cx.NAME_TRIGGERS:
            continue
        if key in cx.CLINICIAN_TITLES or key in cx.PERSON_TITLES or key == cx.MONSIEUR_DOT:
            _after_title(view, i, marks)
        if key in cx.CREDENTIALS:
            _before_credential(view, i, marks)
        if key in cx.CAPS_CUES:
            _after_caps_cue(view, i, marks)
        _after_word(view, i, marks)
    for i in range(len(view.tokens)):
        if view.kinds[i] == STRONG or view.given[i]:  # both rules need one or the other
            _inverted(view, i, marks, lists)
            _plain(view, i, marks, high_recall=high_recall)
    _extend(view, marks)
    return marks
