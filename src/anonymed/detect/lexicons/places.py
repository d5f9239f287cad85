"""Places: gazetteer cities, countries and states; hospitals; facilities; a city after a zip."""

from __future__ import annotations

from typing import Final

from anonymed.detect.lexicons import context as cx
from anonymed.detect.lexicons.names import NO, STRONG, UNKNOWN, View
from anonymed.detect.lexicons.resources import Gazetteer, NameLists, us_state_codes
from anonymed.detect.tokens import LOWER, OTHER, TITLE, UPPER, word_set

#: a place hit: (first token, end token exclusive, score, subtype)
Hit = tuple[int, int, float, str | None]

#: words that link the words of a place's name ("Villers-sur-Mer", "rue de la Paix", "Bay of Islands")
LINKS: Final = word_set("sur sous les le la de du des d' l' en et aux au of the")
#: common words that often make up hospital names ("Sacred Heart", "Holy Cross", "General")
_HOSPITAL_WORDS: Final = word_set(
    "general memorial sacred heart holy cross mercy university county regional community children "
    "childrens mount good samaritan union city veterans state north south east west central valley "
    "shore harbor square lady adventist baptist methodist presbyterian lutheran providence hope grace "
    "trinity faith christ kindred rehab st saint new old la de"
)


def _same_line(view: View, start: int, end: int) -> bool:
    return all(not view.tokens[j].newline and view.tokens[j].gap in ("", "-") for j in range(start, end - 1))


def name_word(view: View, i: int, lists: NameLists, *, loose: bool) -> bool:
    """A word that can be part of a hospital or street name."""
    token = view.tokens[i]
    if token.key in cx.FUNCTION_WORDS and token.key not in LINKS:
        return False
    if view.cased:
        return token.shape != LOWER or token.key in LINKS
    if token.shape == OTHER and not token.text[0].isalpha():
        return False
    if loose or token.key in _HOSPITAL_WORDS:
        return True
    return view.kinds[i] == STRONG or (
        view.kinds[i] == UNKNOWN and len(token.key) >= 5 and "'" not in token.key
    )


def _ambiguous(view: View, start: int, end: int, lists: NameLists) -> bool:
    """A one-word place that is also a common word, a person's name, or very short."""
    if end - start > 1:
        return False
    key = view.tokens[start].key
    return len(key) <= 3 or lists.is_common(key, view.lang) or lists.is_name(key)


def _cued(view: View, start: int, end: int) -> bool:
    """A place cue (in, from, à, près de...) or a zip code before the place, or ", MD" after it."""
    if start > 0:
        prev = view.tokens[start - 1]
        cues = cx.PLACE_CUES_FR if view.lang == "fr" else cx.PLACE_CUES
        if not prev.newline and (prev.key in cues or _is_zip(view, start - 1)):
            return True
    if end < len(view.tokens) and view.tokens[end - 1].gap == ",":
        nxt = view.tokens[end]
        return nxt.shape == UPPER and len(nxt.text) == 2 and nxt.key in us_state_codes()
    return False


def _is_zip(view: View, i: int) -> bool:
    """A French or US zip code ending at token i: "75013", "75 013", "2B717"."""
    text = view.tokens[i].text
    if len(text) == 5 and (text.isdigit() or (text[:2] in ("2A", "2B") and text[2:].isdigit())):
        return True
    if len(text) == 3 and text.isdigit() and i > 0:
        prev = view.tokens[i - 1]
        return len(prev.text) == 2 and prev.text.isdigit() and prev.gap == "" and not prev.newline
    return False


def _plausible(view: View, start: int, end: int, lists: NameLists) -> bool:
    """Whether a gazetteer match is a place here: a cue, or an unambiguous name written as one."""
    cued = _cued(view, start, end)
    if _ambiguous(view, start, end, lists):
        common = lists.is_common(view.tokens[start].key, view.lang) or len(view.tokens[start].key) <= 3
        return cued and (not common or (view.stand[start] and view.tokens[start].shape == TITLE))
    if end - start > 1:
        return True
    if not view.cased:
        return cued or view.tokens[start].shape == UPPER
    return cued or not _line_start(view, start)


def _line_start(view: View, i: int) -> bool:
    return i == 0 or view.tokens[i - 1].newline


def gazetteer_hits(view: View, gaz: Gazetteer, lists: NameLists) -> list[Hit]:
    """Cities, countries and states of the gazetteer, longest name first at each token."""
    hits: list[Hit] = []
    tokens = view.tokens
    index = gaz.index
    keys_at = [token.key for token in tokens]  # compared by slices: a common first word has 100+ places
    i = 0
    while i < len(tokens):
        candidates = index.get(tokens[i].key) if view.capital[i] else None
        found = None
        for keys, subtype in candidates or ():
            end = i + len(keys)
            if end > len(tokens) or tuple(keys_at[i:end]) != keys:
                continue
            if (
                not view.capital[end - 1]
                or not _same_line(view, i, end)
                or not _plausible(view, i, end, lists)
            ):
                continue
            found = (i, end, 0.7 if end - i > 1 or view.cased else 0.6, subtype)
            break
        if found is None:
            i += 1
            continue
        hits.append(found)
        i = found[1]
    return hits


def state_code_hits(view: View, codes: frozenset[str], after: list[Hit]) -> list[Hit]:
    """``Baltimore, MD`` and ``MD 21201``: a two-letter state code after a city or before a zip."""
    hits: list[Hit] = []
    city_ends = {end for _, end, _, subtype in after if subtype == "city"}
    for i, token in enumerate(view.tokens):
        if token.shape != UPPER or token.key not in codes:
            continue
        before = i in city_ends and view.tokens[i - 1].gap == ","
        nxt = view.tokens[i + 1] if i + 1 < len(view.tokens) else None
        zipped = nxt is not None and nxt.text.isdigit() and len(nxt.text) == 5 and not token.newline
        if before or zipped:
            hits.append((i, i + 1, 0.7, "state"))
    return hits


def hospital_hits(view: View, lists: NameLists, places: Gazetteer) -> list[Hit]:
    """``Calvert Hospital``, ``Holy Cross Rehab``, ``Hôpital Bichat``, ``CHU de Rennes``, ``St. Agnes``."""
    hits: list[Hit] = []
    for i, token in enumerate(view.tokens):
        key = token.key
        if key in cx.HOSPITAL_SUFFIXES and view.capital[i]:
            hit = _suffix(view, i, lists)
        elif key in cx.HOSPITAL_PREFIXES and view.capital[i]:
            hit = _prefix(view, i, lists, places)
        elif key in cx.SAINTS and view.capital[i]:
            hit = _saint(view, i)
        else:
            continue
        if hit is not None:
            hits.append(hit)
    return hits


def _suffix(view: View, i: int, lists: NameLists) -> Hit | None:
    end = i + 1
    tails = cx.SUFFIX_TAILS.get(view.tokens[i].key)
    if tails is not None:
        if end >= len(view.tokens) or view.tokens[end].key not in tails or not view.joined(i):
            return None
        end += 1
    start = i
    while (
        start > 0
        and i - start < 4
        and view.joined(start - 1)
        and name_word(view, start - 1, lists, loose=False)
    ):
        start -= 1
    while start < i and view.tokens[start].key in LINKS:
        start += 1
    if start == i:
        return None
    return (start, end, 0.8, "hospital")


#: French institutions whose names are proper names made of common words ("Clinique du Parc", "EHPAD Les
#: Tilleuls"); a "Centre de Soins" or an "Hôpital De Jour" names a kind of unit
_PROPER_KINDS: Final = word_set("ehpad clinique polyclinique")
#: a capitalised article opening the name marks a proper name in French typography ("Hôpital Les Portes")
_ARTICLES: Final = frozenset({"Les", "Le", "La", "L'", "L’"})


def _named_in_capitals(view: View, i: int, j: int) -> bool:
    """A common word that names the institution of kind word ``i`` by its capital, in a French note that mixes
    cases: after a kind whose names are proper names, or after a capitalised article ("EHPAD Les Jardins
    d'Automne"); French writes common nouns in lower case."""
    if view.lang != "fr" or not view.cased or view.tokens[j].shape != TITLE:
        return False
    return view.tokens[i].key in _PROPER_KINDS or view.tokens[i + 1].text in _ARTICLES


def _town_in_capitals(view: View, j: int, places: Gazetteer) -> bool:
    """A capitalised town of the gazetteer that is a common word too ("Centre Hospitalier de Beauvais")."""
    token = view.tokens[j]
    return token.shape == TITLE and bool(places.candidates(token.key))


def _prefix(view: View, i: int, lists: NameLists, places: Gazetteer) -> Hit | None:
    nxt = i + 1
    tails = cx.PREFIX_TAILS.get(view.tokens[i].key)
    if tails is not None and (
        nxt >= len(view.tokens) or view.tokens[nxt].key not in tails or not view.joined(i)
    ):
        return None
    end = i + 1
    while end < len(view.tokens) and end - i <= 5 and view.joined(end - 1):
        if not name_word(view, end, lists, loose=True) or view.tokens[end].text[0].isdigit():
            break  # "Clinique du Parc en 2019": a number ends the name
        end += 1
    while end > i + 1 and view.tokens[end - 1].key in LINKS:
        end -= 1
    named = any(
        view.tokens[j].key not in LINKS
        and (
            not lists.is_common(view.tokens[j].key, view.lang)
            or _named_in_capitals(view, i, j)
            or _town_in_capitals(view, j, places)
        )
        for j in range(i + 1, end)
    )
    if not named:
        return None
    return (i, end, 0.8, "hospital")


def _saint(view: View, i: int) -> Hit | None:
    if i + 1 >= len(view.tokens) or (not view.joined(i) and view.tokens[i].gap != "."):
        return None
    if view.tokens[i].newline or not view.capital[i + 1] or view.kinds[i + 1] == NO:
        return None
    if view.cased and view.tokens[i + 1].shape == LOWER:
        return None
    end = i + 2
    if view.kinds[i + 1] == UNKNOWN and not view.cased:
        return None
    return (i, end, 0.6, None)


def zip_city_hits(view: View) -> list[Hit]:
    """``94010 Créteil Cedex``, ``75 013 Paris``: capitalised words right after a zip code are a city."""
    hits: list[Hit] = []
    tokens = view.tokens
    for i, token in enumerate(tokens[:-1]):
        if not token.text[0].isdigit() or token.newline or token.gap not in ("", ",") or not _is_zip(view, i):
            continue
        end = i + 1
        while end < len(tokens) and end - i <= 4:
            word = tokens[end]
            if word.shape == OTHER or (view.cased and word.shape == LOWER and word.key not in LINKS):
                break
            if not view.cased and view.kinds[end] == NO and word.key not in LINKS and word.key != "cedex":
                break
            end += 1
            if not view.joined(end - 1):
                break
        while end > i + 1 and tokens[end - 1].key in LINKS:
            end -= 1
        if end > i + 1:
            hits.append((i + 1, end, 0.7, "city"))
    return hits


def facility_hits(view: View, lists: NameLists) -> list[Hit]:
    """ "transferred to Quartermain", "admitted to GH": a facility's name after a move to or from it."""
    hits: list[Hit] = []
    tokens = view.tokens
    for i in range(len(tokens) - 2):
        if tokens[i].key not in cx.MOVES or tokens[i].newline or tokens[i].gap:
            continue
        j = i + 1
        if tokens[j].key not in ("to", "from", "at", "a", "de", "vers") or tokens[j].gap or tokens[j].newline:
            continue
        j += 1
        if tokens[j].key in ("the", "l'", "la", "le") and not tokens[j].gap and j + 1 < len(tokens):
            j += 1
        end = j
        while end < len(tokens) and end - j < 3 and _facility_word(view, end, lists):
            end += 1
            if not view.joined(end - 1):
                break
        if end > j:
            hits.append((j, end, 0.6, "hospital"))
    return hits


def _facility_word(view: View, i: int, lists: NameLists) -> bool:
    token = view.tokens[i]
    if not token.text[0].isalpha() or lists.is_common(token.key, view.lang) or token.key in cx.FUNCTION_WORDS:
        return token.key in _HOSPITAL_WORDS and token.shape != LOWER
    if view.cased:
        return token.shape != LOWER
    return token.shape == UPPER or len(token.key) >= 4
