"""Precision rules applied to the tagger's decisions (English): the false-positive families of clinical notes.

- role, kin and title words alone are not names ("Patient", "SON", "Dr"), and such words, function words
  and credentials at the edge of a tagged name are not part of it ("REHAB OR", "Smith MD");
- an eponym names a sign, a device or a body part when a clinical noun follows it (after a possessive, a
  second hyphenated eponym or one lower-case modifier) or "of" ties it to one ("Kussmaul breathing", "Swan
  catheter", "Jackson-Pratt drain", "Deaver retractor", "pouch of Douglas", "Foley"), and a procedure when a
  surgical word follows ("Whipple pancreaticoduodenectomy", "Nissen fundoplication");
- lower-case common words alone are no place unless together they name a city or follow a locative word
  ("good", "medical"; but "at harbor");
- a word followed by a dose is a drug ("Lasix 40 mg", "Norco one tablet");
- colours and clinical words that are never names alone ("orange", "Kussmaul") are not names without a
  title before them.

The word classes are general clinical English, not names of any corpus.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from anonymed.detect.lexicons.context import CREDENTIALS
from anonymed.detect.lexicons.contexts_words import INSTITUTION_TAILS, NAMING_TAILS, TITLES, UNITS
from anonymed.detect.lexicons.detector import LexiconParams
from anonymed.detect.lexicons.resources import gazetteer, name_lists, region_keys
from anonymed.detect.tagger.decode import label_runs, sentence_end
from anonymed.detect.tagger.model import OUTSIDE
from anonymed.detect.tagger.names import surname_after_given
from anonymed.detect.tokens import TaggerToken, capitalised, fold, word_set

#: words that say who someone is, never who: alone they are no name, at a name's edge not part of it
ROLE_WORDS: Final = word_set(
    "patient patients pt pts family families team teams staff doctor doctors dr drs dr's doc physician "
    "surgeon nurse nurses md mds rn rns np nps pa ho sw cm rt ot lpn crna rrt crt phd do attending "
    "resident fellow intern hospitalist intensivist chaplain caseworker therapist sitter manager mr mrs "
    "ms miss mister sir madam wife husband spouse son sons daughter daughters mother mom father dad "
    "sister sisters brother brothers sibling siblings niece nephew grandson granddaughter grandmother "
    "grandfather grandchildren aunt uncle cousin fiance fiancee partner boyfriend girlfriend friend "
    "friends neighbor neighbour proxy hcp dtr sil dil parents kids children"
)
#: function words that a tagged span may swallow at its edges ("REHAB OR", "SMITH AND")
EDGE_WORDS: Final = word_set(
    "a an the and or but if of in on at to for by with from as is was are were be been has had have "
    "this that who here there out up am pm also so per all both then than when while via re s"
)
#: institution words that name nothing: a place's name stops before them ("CALVERT HOSPITAL" is "CALVERT")
NAMELESS_TAILS: Final = word_set("hospital hospitals hosp")
#: of those, the ones that join two names or places rather than belong to one ("Smith and Jones")
INNER_BREAKS: Final = EDGE_WORDS - {"of", "the", "s"}
#: words that are a place alone only in street addresses ("SR TO ST": sinus tachycardia)
_PLACE_FRAGMENTS: Final = word_set("st ste saint")
#: clinical nouns that make the capitalised word before them an eponym or a device, not a person
EPONYM_HEADS: Final = word_set(
    "sign signs reflex reflexes breathing respirations respiration pouch catheter catheters cath line "
    "lines tube tubes drain drains blade blades bag mask collar maneuver maneuvers manoeuvre position "
    "positioning scale score criteria classification disease syndrome test tests node nodes murmur procedure "
    "operation repair stocking stockings boots boot pump pumps filter stent splint brace bed chair lift "
    "dressing needle port ports monitor graft fistula valve valves clamp tray balloon lead leads "
    "sheath introducer device devices shunt tracing ring formula solution drops tear tears ointment oint "
    "cream lotion ale beer juice tea retractor retractors curette curettes elevator elevators forceps "
    "hook hooks stitch stitches suture sutures plate plates screw screws nail nails wire wires bar bars "
    "frame holder headrest gag speculum dilator dilators cannula fascia lesion fracture palsy cyst ulcer "
    "contracture deformity incision approach technique flap anesthesia anesthetic table"
)
#: surgical procedures ("Whipple pancreaticoduodenectomy", "Nissen fundoplication"): a capitalised word
#: before one names the procedure, not a person
_PROCEDURE: Final = re.compile(
    r"[a-z]{3,}(?:ectomy|ectomies|otomy|otomies|ostomy|ostomies|plasty|pexy|rrhaphy|plication)"
)
#: words before "of X" that make X an eponym ("pouch of Douglas", "circle of Willis", "loop of Henle")
EPONYM_OF: Final = word_set("pouch circle loop canal duct ligament triangle space sign test island tetralogy")
#: colours and clinical words (signs, devices, brands) never used as a name alone in notes; colours that are
#: common surnames (Brown, White, Green, Black, Gray) are left to the eponym and dose rules
NEVER_ALONE: Final = word_set(
    "orange yellow pink purple amber tan maroon beige crimson bloody serous sanguinous "
    "kussmaul swan ganz foley hickman groshong quinton broviac tenckhoff penrose hemovac dobhoff corpak "
    "cordis bovie ambu venturi yankauer heimlich valsalva trendelenburg babinski romberg kernig brudzinski "
    "chvostek trousseau homan homans mcburney rovsing apgar braden cheyne korotkoff quincke duroziez "
    "wenckebach mobitz brugada kerley cushingoid crohn crohns hodgkin hodgkins alzheimer alzheimers "
    "parkinson parkinsons guillain barre hashimoto raynaud sjogren wernicke korsakoff tourette bipap "
    "cpap flexiseal mepilex duoderm tegaderm kerlix xeroform aquacel vac passy passey muir god "
    "biba bibems bibp"  # triage: brought in by ambulance, by EMS, by police
)
#: the labels of a contact detail: at a name's edge not part of it ("Anne Lowell (email anne@...)");
#: not substitute/invariant.py's _CONTACT_WORDS (words a phone surrogate may keep: home, office, poste...)
CONTACT_LABELS: Final = word_set("email e-mail mail phone telephone tel fax cell pager beeper voicemail")
#: words cut off a name's edges: roles, credentials, function words and a contact's labels ("Smith DDS")
_NAME_EDGES: Final = ROLE_WORDS | CREDENTIALS | EDGE_WORDS | CONTACT_LABELS
#: the heads of an institution's name ("U Iowa", "Univ of Iowa", "Holy Redeemer"): what follows is no
#: state alone and no eponym ("Holy Redeemer Vital signs stable")
_UNIVERSITY: Final = word_set("u univ university holy sacred mount mt")
#: words after which a lower-case common word may be a place's short name ("transferred to mercy")
_LOCATIVE: Final = word_set("at from to in into near via")
_TITLES: Final = word_set("dr drs doctor mr mrs ms miss mister prof rabbi father rev reverend")
#: a dose after a word makes it a drug: "Lasix 40 mg", "Levophed 0.1 mcg", "Haldol 2mg"
_DOSE: Final = re.compile(
    r"[ \t]*(?:\d+(?:[.,]\d+)?(?:-\d+(?:[.,]\d+)?)?[ \t]*"
    r"(?:mg|mcg|g|gm|units?|u|ml|cc|meq|mmol|mcg/kg|mg/kg|mg/hr|mcg/min|mm|cm|fr|french|l|lpm)"
    r"|(?:\d+(?:/\d+)?|one|two|three|half|1/2)[ \t]+"
    r"(?:tabs?|tablets?|caps?|capsules?|puffs?|pills?|drops?))\b",
    re.I,
)


def prune_names(text: str, tokens: Sequence[TaggerToken], labels: list[str]) -> None:
    """Untag (set to ``O``) the name, place and contact tokens that the precision rules above rule out."""
    _break_inner(tokens, labels)
    for first, last in _runs(tokens, labels, "NAME"):
        keep = _trim(tokens, labels, first, last, _NAME_EDGES)
        if keep and _not_a_name(text, tokens, keep[0], keep[-1]):
            _clear(labels, keep)
    for first, last in _runs(tokens, labels, "LOCATION"):
        keep = _trim(tokens, labels, first, last, EDGE_WORDS | NAMELESS_TAILS, possessive=True)
        if keep and _not_a_place(text, tokens, keep[0], keep[-1]):
            _clear(labels, keep)
    for first, last in _runs(tokens, labels, "CONTACT"):
        words = [tokens[i].text for i in range(first, last + 1)]
        if any(word.isdigit() for word in words):  # a phone: its "Home", "Office", "cell" labels are no part
            for i in (first, last):
                if tokens[i].text.isalpha() and len(tokens[i].text) > 1:
                    labels[i] = OUTSIDE


def _clear(labels: list[str], indexes: Sequence[int]) -> None:
    for i in indexes:
        labels[i] = OUTSIDE


def _break_inner(tokens: Sequence[TaggerToken], labels: list[str]) -> None:
    """Untag the joining words inside a name or place run ("GH from Harbor", "Smith and Jones"), and the
    label of a contact inside a name run."""
    for i in range(1, len(tokens) - 1):
        label = labels[i]
        if label != "NAME" and label != "LOCATION":
            continue  # most tokens: their word is not looked up
        key = fold(tokens[i].text)
        inner_break = key in INNER_BREAKS and not _middle_initial(tokens, labels, i)
        if inner_break or (label == "NAME" and key in CONTACT_LABELS):
            labels[i] = OUTSIDE


def _middle_initial(tokens: Sequence[TaggerToken], labels: list[str], i: int) -> bool:
    """A capital letter with its period between two words of one name ("John A. Smith"): no article."""
    after = tokens[i + 1]
    return (
        len(tokens[i].text) == 1
        and tokens[i].text.isupper()
        and after.before.startswith(".")
        and not after.newline_before
        and labels[i - 1] == labels[i + 1] == "NAME"
    )


def _trim(
    tokens: Sequence[TaggerToken],
    labels: list[str],
    first: int,
    last: int,
    edge: frozenset[str],
    *,
    possessive: bool = False,
) -> list[int]:
    """Untag the edge words of a run; the indexes left. ``possessive`` keeps a final "'s" after a word of
    the run (a place's name holds it: "St. Agnes's")."""
    keep = list(range(first, last + 1))
    while keep and _at_edge(tokens[keep[0]], edge):
        labels[keep.pop(0)] = OUTSIDE
    while keep:
        last_token = tokens[keep[-1]]
        if possessive and len(keep) > 1 and fold(last_token.text) == "s" and last_token.before in ("'", "’"):
            break
        if _at_edge(last_token, edge) and not _surname_like(tokens, keep):
            labels[keep.pop()] = OUTSIDE
        elif _credential_tail(tokens, keep):
            labels[keep.pop()] = labels[keep.pop()] = OUTSIDE
        else:
            break
    return keep


def _surname_like(tokens: Sequence[TaggerToken], keep: list[int]) -> bool:
    """Whether the run's last word, a role word too ("Ho", "Do"), is the surname of the first name before
    it, both capitalised ("Jennifer Ho"; "Jennifer HO" and "Jennifer ho" are a house officer)."""
    return len(keep) > 1 and surname_after_given(tokens[keep[-2]], tokens[keep[-1]], name_lists())


def _at_edge(token: TaggerToken, edge: frozenset[str]) -> bool:
    """Whether ``token`` is one of the ``edge`` words; a capital "S" is one only as a possessive's (after an
    apostrophe): alone it is an initial ("Ms S. Care")."""
    if token.text == "S" and token.before not in ("'", "’"):
        return False
    return fold(token.text) in edge


def _credential_tail(tokens: Sequence[TaggerToken], keep: list[int]) -> bool:
    """Whether the run ends with the letters of a dotted credential ("Smith, M.D", "Hulse, R.N")."""
    if len(keep) < 3:
        return False
    letters = [tokens[i].text for i in keep[-2:]]
    if not all(len(letter) == 1 and letter.isalpha() for letter in letters):
        return False
    return (letters[0] + letters[1]).lower() in ("md", "rn", "np", "pa", "do")


def _not_a_place(text: str, tokens: Sequence[TaggerToken], first: int, last: int) -> bool:
    """Whether a tagged place is a state or country, a number, a lone "St", a hospital unit, an eponym or
    a device."""
    keys = [fold(tokens[i].text) for i in range(first, last + 1)]
    if all(key in UNITS and key != "va" for key in keys):
        return True  # "transferred from TSICU" (but "the VA": a hospital)
    if all(key.isdigit() for key in keys):
        return not any(len(key) == 5 for key in keys)  # a street number goes with its street; a ZIP stays
    if _department(keys, tokens, last):
        return True  # "OPHTHALMOLOGY CLINIC NOTE", "Cardiology": a department, not a place's name
    if keys[0] in _UNIVERSITY or _tail_after(tokens, last):
        return False  # "U Iowa scale", "Iowa Rehab", "Holy Redeemer": an institution's name
    if _common_lower_case(tokens, keys, first, last):
        return True  # "in good condition", "past medical history" (but "lives in boston": a city)
    if keys == [keys[0]] and keys[0] in _PLACE_FRAGMENTS:
        return True
    if keys == [keys[0]] and keys[0] in TITLES and _name_after(tokens, last):
        return True  # "Officer Delgado", "Trooper Haines": a person's title
    if " ".join(keys) in region_keys() and not _zip_after(tokens, last):
        return True  # HIPAA Safe Harbor lets states and countries stay
    if all(key in NEVER_ALONE for key in keys) or _eponym_of(tokens, first) or _head_after(tokens, last):
        return True
    return _DOSE.match(text, tokens[last].end) is not None  # a drug: "Norco one tablet p.o."


#: a medical specialty's name ("Ophthalmology", "Psychiatry", "Pediatrics", "Orthopaedics")
_SPECIALTY: Final = re.compile(r"[a-z]{3,}(?:ology|iatry|iatrics|pedics|paedics)|medicine|surgery|obstetrics")
#: the words that make a specialty a department ("Cardiology Clinic", "Dept of Psychiatry")
_DEPARTMENT_WORDS: Final = INSTITUTION_TAILS | word_set("dept department division service services unit of")


def _name_after(tokens: Sequence[TaggerToken], last: int) -> bool:
    """Whether a capitalised word follows the run on its line, one space after it."""
    if last + 1 >= len(tokens):
        return False
    after = tokens[last + 1]
    return after.before == "" and not after.newline_before and capitalised(after.text)


def _department(keys: list[str], tokens: Sequence[TaggerToken], last: int) -> bool:
    """Whether the run holds a specialty and otherwise department words only, with no such name after it."""
    if not any(_SPECIALTY.fullmatch(key) for key in keys):
        return False
    if not all(_SPECIALTY.fullmatch(key) or key in _DEPARTMENT_WORDS for key in keys):
        return False
    return not _tail_after(tokens, last) or fold(tokens[last + 1].text) not in NAMING_TAILS


def _common_lower_case(tokens: Sequence[TaggerToken], keys: list[str], first: int, last: int) -> bool:
    """Whether the run is lower-case common English words that together name no city, state or country, and
    no locative word comes before it ("meeting at harbor" may be a hospital's short name: kept)."""
    if not all(tokens[i].text.islower() for i in range(first, last + 1)):
        return False
    if first > 0 and fold(tokens[first - 1].text) in _LOCATIVE and not tokens[first].newline_before:
        return False
    if not all(name_lists().is_common(key, "en") for key in keys):
        return False
    places = gazetteer(LexiconParams.min_city_population).candidates(keys[0])  # the lexicons' gazetteer
    return not any(place_keys == tuple(keys) for place_keys, _ in places)


def _tail_after(tokens: Sequence[TaggerToken], last: int) -> bool:
    """Whether an institution word follows on the same line, with only spaces between ("Iowa Rehab")."""
    return _joined(tokens, last + 1, ("",)) and fold(tokens[last + 1].text) in INSTITUTION_TAILS


def _zip_after(tokens: Sequence[TaggerToken], last: int) -> bool:
    after = tokens[last + 1] if last + 1 < len(tokens) else None
    return after is not None and not after.newline_before and len(after.text) == 5 and after.text.isdigit()


def _head_after(tokens: Sequence[TaggerToken], last: int) -> bool:
    """Whether a clinical noun follows ("Swan catheter", "Murphy's sign", "Jackson-Pratt drain", "Asahi soft
    wire", "Whipple procedure", "Nissen fundoplication"), or another eponym and one ("Ortolani and Barlow
    maneuvers")."""
    end = last  # the eponym's last token
    if _joined(tokens, end + 1, ("'", "’")) and fold(tokens[end + 1].text) == "s":
        end += 1  # a possessive: "Murphy's sign"
    elif _joined(tokens, end + 1, ("-",)) and tokens[end + 1].text[:1].isupper():
        end += 1  # a second eponym: "Jackson-Pratt drain", "Hill-Sachs lesion"
    if not _joined(tokens, end + 1, ("", "-")):
        return False
    if _head(tokens[end + 1]):
        return True
    if fold(tokens[end + 1].text) in ("and", "or") and _joined(tokens, end + 2, ("",)):
        second = tokens[end + 2].text  # two eponyms, one noun: "Ortolani and Barlow maneuvers"
        if capitalised(second) and _head_after(tokens, end + 2):
            return True
    modifier = tokens[end + 1].text  # one lower-case word between: "Asahi soft wire"
    return (
        modifier.isalpha()
        and modifier.islower()
        and fold(modifier) not in EDGE_WORDS
        and _joined(tokens, end + 2, ("", "-"))
        and _head(tokens[end + 2])
    )


def _joined(tokens: Sequence[TaggerToken], index: int, gaps: tuple[str, ...]) -> bool:
    """Whether token ``index`` exists and follows the previous one on the same line across one of ``gaps``."""
    return index < len(tokens) and not tokens[index].newline_before and tokens[index].before in gaps


def _runs(tokens: Sequence[TaggerToken], labels: Sequence[str], name: str) -> list[tuple[int, int]]:
    """(first, last) token indexes of each run of ``name`` tokens on one line (a name's, in one sentence)."""
    return label_runs(tokens, labels, name, lambda run_tokens, i: _broken(run_tokens, i, name))


def _broken(tokens: Sequence[TaggerToken], i: int, name: str) -> bool:
    """Whether a run stops before token ``i`` (inside one): a new line, or (names) the end of a sentence."""
    return tokens[i].newline_before or (name == "NAME" and sentence_end(tokens[i - 1], tokens[i]))


def _not_a_name(text: str, tokens: Sequence[TaggerToken], first: int, last: int) -> bool:
    """Whether the run ``first..last`` is an eponym, a drug or a clinical word rather than a person."""
    titled = first > 0 and fold(tokens[first - 1].text) in _TITLES
    if titled:
        return False
    keys = [fold(tokens[i].text) for i in range(first, last + 1)]
    if all(key in NEVER_ALONE for key in keys):
        return True
    if _head_after(tokens, last):
        return True
    return _eponym_of(tokens, first) or _DOSE.match(text, tokens[last].end) is not None


def _eponym_of(tokens: Sequence[TaggerToken], first: int) -> bool:
    """Whether "pouch of" / "circle of"... comes right before token ``first``."""
    return first >= 2 and fold(tokens[first - 1].text) == "of" and fold(tokens[first - 2].text) in EPONYM_OF


def _head(token: TaggerToken) -> bool:
    """Whether ``token`` is a clinical noun or a procedure (its place in the line is the caller's check)."""
    key = fold(token.text)
    return key in EPONYM_HEADS or _PROCEDURE.fullmatch(key) is not None
