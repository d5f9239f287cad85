"""From per-token label probabilities to spans: propagation, initials, anchors, and joining tokens."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from typing import Final

from anonymed.detect.lexicons import context as cx
from anonymed.detect.lexicons.contexts_words import FIELD_LABELS, INSTITUTION_TAILS
from anonymed.detect.lexicons.resources import NameLists
from anonymed.detect.lexicons.streets import plain_street
from anonymed.detect.patterns.textdates import FRENCH_ONLY_MONTHS
from anonymed.detect.tagger.model import OUTSIDE
from anonymed.detect.tokens import TaggerToken, fold, word_set
from anonymed.document import Span
from anonymed.labels import Label

SOURCE: Final = "tagger"

#: characters that may separate two tokens of one span ("J. Smith", "O'Brien", "12/03/2020", "Jean-Marc")
JOINERS: Final = frozenset(" \t.'’-/,:")

#: a possessive ending, left out of a name's span
_POSSESSIVES: Final = frozenset({"'s", "’s", "'S", "’S"})
#: a rule span at or above this score, from these sources, is an anchor: its edges and label are trusted
ANCHOR_SCORE: Final = 0.9
ANCHOR_SOURCES: Final = frozenset({"patterns"})
#: the words that say what kind of place a place is, not which one ("Hospital", "Center", "Psychiatric", "Rd")
KIND_WORDS: Final = (
    cx.HOSPITAL_SUFFIXES
    | INSTITUTION_TAILS
    | cx.HOSPITAL_PREFIXES
    | cx.STREET_TYPES_EN
    | cx.STREET_TYPES_FR
    | frozenset(word for tails in cx.SUFFIX_TAILS.values() for word in tails)
)


def best_label(probabilities: dict[str, float]) -> str:
    """The most probable label other than ``O``."""
    return max((label for label in probabilities if label != OUTSIDE), key=probabilities.__getitem__)


def extend_initials(tokens: Sequence[TaggerToken], labels: list[str]) -> None:
    """Tag ``NAME`` on a one-letter token followed by ``.`` and a name on the same line ("J. Smith")."""
    for index in range(len(tokens) - 1, 0, -1):
        token, after = tokens[index - 1], tokens[index]
        if (
            labels[index] == "NAME"
            and labels[index - 1] == OUTSIDE
            and len(token.text) == 1
            and token.text.isalpha()
            and after.before == "."
            and not after.newline_before
        ):
            labels[index - 1] = "NAME"


def drop_field_labels(tokens: Sequence[TaggerToken], labels: list[str]) -> None:
    """Untag a record field's label right before the value it announces ("MRN: 0048...", "NIR 1 48 ...",
    "IPP 8812345"), whatever label it was given: a value follows on its line after a colon or "#", or starts
    with a digit ("Nir Barzilai" stays a name)."""
    for index in range(len(tokens) - 1):
        if labels[index] == OUTSIDE or fold(tokens[index].text) not in FIELD_LABELS:
            continue
        after = tokens[index + 1]
        if not after.newline_before and (after.text[0].isdigit() or any(c in after.before for c in ":#")):
            labels[index] = OUTSIDE


#: the closing words of a letter, English and French ("Sincerely,", "Best regards,", "Confraternellement,")
_VALEDICTIONS: Final = word_set(
    "sincerely regards respectfully cordially yours thanks cordialement confraternellement salutations"
)


def drop_valedictions(tokens: Sequence[TaggerToken], labels: list[str]) -> None:
    """Untag a letter's closing word before its comma or line end, whatever label it was given ("Sincerely,
    Harold Lindqvist, MD": "Sincerely" had become a surname)."""
    for index, token in enumerate(tokens):
        if labels[index] == OUTSIDE or fold(token.text) not in _VALEDICTIONS:
            continue
        after = tokens[index + 1] if index + 1 < len(tokens) else None
        if after is None or after.newline_before or after.before.startswith(","):
            labels[index] = OUTSIDE


#: words of a grade, a stage or a class that a small number follows ("diabète de type 2", "stade 3", "NYHA
#: class 2"), English and French
_GRADES: Final = word_set(
    "type types stade stage stages grade grades classe class niveau level score phase nyha"
)


def drop_foreign_months(tokens: Sequence[TaggerToken], labels: list[str]) -> None:
    """Untag, in an English note, a French-only month form in capitals tagged as a date: an abbreviation
    ("AVR 2011", an aortic valve replacement, had become "JUIN 2009")."""
    for index, token in enumerate(tokens):
        if labels[index] == "DATE" and token.text.isupper() and fold(token.text) in FRENCH_ONLY_MONTHS:
            labels[index] = OUTSIDE


def drop_graded_numbers(tokens: Sequence[TaggerToken], labels: list[str]) -> None:
    """Untag a number of one or two digits tagged as a date alone right after a grade word: "diabète de
    type 2" is a type, not a day ("type 21" after the dates moved)."""
    for index in range(1, len(tokens)):
        token = tokens[index]
        if labels[index] != "DATE" or not token.text.isdigit() or len(token.text) > 2:
            continue
        alone = labels[index - 1] != "DATE" and (index + 1 == len(tokens) or labels[index + 1] != "DATE")
        if alone and not token.before and fold(tokens[index - 1].text) in _GRADES:
            labels[index] = OUTSIDE


def drop_unlikely_common_words(
    tokens: Sequence[TaggerToken],
    marginals: Sequence[dict[str, float]],
    labels: list[str],
    lists: NameLists,
    lang: str,
) -> None:
    """Untag the words after a comma inside a place that the model finds more likely outside (P(O) >= 0.5,
    kept only by a threshold that favours recall) when they are lower-case common words: in "21000 Dijon,
    hospitalisée au CHU de Dijon" the address and the hospital stay two places and the words between them
    stay text. Words inside an address ("sept allée des roses") are left as tagged."""
    dropping = False
    for index in range(1, len(tokens)):
        starts = "," in tokens[index].before and labels[index - 1] == "LOCATION"
        dropping = (
            (dropping or starts)
            and labels[index] == "LOCATION"
            and _unlikely_common(tokens[index], marginals[index], lists, lang)
        )
        if dropping:
            labels[index] = OUTSIDE


def _unlikely_common(
    token: TaggerToken, probabilities: dict[str, float], lists: NameLists, lang: str
) -> bool:
    """A lower-case common word the model finds more likely outside any span."""
    text = token.text
    return (
        probabilities[OUTSIDE] >= 0.5
        and text.isalpha()
        and text.islower()
        and lists.is_common(fold(text), lang)
    )


def propagate(
    tokens: Sequence[TaggerToken],
    marginals: Sequence[dict[str, float]],
    labels: list[str],
    label: str,
    above: float,
    extra: set[str] | frozenset[str] = frozenset(),
) -> None:
    """Tag ``label`` on the untagged mentions of words tagged ``label`` with probability above ``above``
    (and of the folded words of ``extra``), whatever their case ("SMITH", "Smith", "smith's"); a place's
    kind words (hospital, center, street...) are no such mention."""
    unsure = 1.0 - above  # a label above ``above`` leaves P(O) below 1 - above: most tokens skip at once
    sure = {
        fold(t.text)
        for t, p in zip(tokens, marginals, strict=True)
        if p[OUTSIDE] < unsure and len(t.text) > 2 and p.get(label, 0.0) > above
    } | set(extra)
    if label == "LOCATION":
        sure -= KIND_WORDS  # "Psychiatric" of "Creedmoor Psychiatric Center" names no place elsewhere
    if sure:
        for index, token in enumerate(tokens):
            if labels[index] == OUTSIDE and fold(token.text) in sure:
                labels[index] = label


def trust_key(hint: Span) -> str:
    """The name a hint is trusted by: its rule (``contexts.kin``), or ``lexicons.street`` for a street written
    plainly ("4030 Bee Ridge Rd", "Clark St"; not "3 EPISODES ST", sinus tachycardia, nor "294,Dear Dr")."""
    source = hint.source.split("+")[0]
    if source == "lexicons" and hint.subtype == "street" and plain_street(hint.text):
        return "lexicons.street"
    return source


def trust_hints(
    tokens: Sequence[TaggerToken], hints: Sequence[Span], labels: list[str], sources: frozenset[str]
) -> dict[str, set[str]]:
    """Tag the tokens of the hints from ``sources`` with their label; per label, their folded words (three
    letters or more) for propagation to the note's other mentions."""
    words: dict[str, set[str]] = {}
    starts = [token.start for token in tokens]
    for hint in hints:
        if trust_key(hint) not in sources:
            continue
        label = hint.label.value
        index = bisect_left(starts, hint.start)
        while index < len(tokens) and tokens[index].end <= hint.end:
            if labels[index] == OUTSIDE or (label == "NAME" and labels[index] == "LOCATION"):
                labels[index] = label  # a name rule outranks the model's place ("Tendai Moyo is a 54 yo")
            if len(tokens[index].text) > 2:
                words.setdefault(label, set()).add(fold(tokens[index].text))
            index += 1
    return words


def anchor_tokens(tokens: Sequence[TaggerToken], hints: Sequence[Span], labels: list[str]) -> list[int]:
    """The anchor each token lies in (-1: none); tagged tokens inside an anchor take its label.

    Anchors are the confident spans of rule detectors (a card number, an e-mail address, a header name):
    their boundaries and labels are more reliable than the tagger's, so a tagged span never crosses them
    and three card numbers in a row stay three spans.
    """
    groups = [-1] * len(tokens)
    starts = [token.start for token in tokens]
    for number, hint in enumerate(hints):
        if hint.score < ANCHOR_SCORE or hint.source.split("+")[0] not in ANCHOR_SOURCES:
            continue
        index = bisect_left(starts, hint.start)
        while index < len(tokens) and tokens[index].end <= hint.end:
            groups[index] = number
            if labels[index] != OUTSIDE:
                labels[index] = hint.label.value
            index += 1
    return groups


def spans_of(
    text: str,
    tokens: Sequence[TaggerToken],
    marginals: Sequence[dict[str, float]],
    labels: Sequence[str],
    groups: Sequence[int] = (),
) -> list[Span]:
    """Join neighbouring tokens of one label (and one anchor) into spans, across short punctuation only."""
    spans: list[Span] = []
    run: list[int] = []
    grouped = bool(groups)
    for index, label in enumerate(labels):
        if run:
            last = run[-1]
            split = label != labels[last] or not _joinable(text, tokens[last], tokens[index])
            split = split or (label == "NAME" and sentence_end(tokens[last], tokens[index]))
            if split or (grouped and groups[index] != groups[last]):
                spans.append(_span(text, tokens, marginals, run, labels[run[0]]))
                run = []
        if label != OUTSIDE:
            run.append(index)
    if run:
        spans.append(_span(text, tokens, marginals, run, labels[run[0]]))
    return spans


def on_new_line(tokens: Sequence[TaggerToken], index: int) -> bool:
    """Whether a line break comes right before token ``index``."""
    return tokens[index].newline_before


def label_runs(
    tokens: Sequence[TaggerToken],
    labels: Sequence[str],
    label: str,
    broken: Callable[[Sequence[TaggerToken], int], bool] = on_new_line,
) -> list[tuple[int, int]]:
    """(first, last) token indexes of each run of ``label`` tokens, a run stopping before a token where
    ``broken`` says so (by default a new line)."""
    runs: list[tuple[int, int]] = []
    start = -1
    for i, tag in enumerate(labels):
        inside = tag == label and not (start >= 0 and broken(tokens, i))
        if start >= 0 and not inside:
            runs.append((start, i - 1))
            start = -1
        if tag == label and start < 0:
            start = i
    if start >= 0:
        runs.append((start, len(labels) - 1))
    return runs


def written_contact(text: str, span: Span) -> bool:
    """Whether a span can be a contact: any but a ``CONTACT`` holds or touches a digit or one of ``@ . / :``
    (a phone, fax, pager, e-mail, URL or handle does, "fr" of "jl@fr" too; "joignable" and "ou" around a
    French phone number do not, nor a word before a sentence's full stop)."""
    if span.label is not Label.CONTACT:
        return True
    written = text[max(0, span.start - 1) : span.end + 1]
    if text[span.end : span.end + 1] == "." and not text[span.end + 1 : span.end + 2].strip():
        written = written[:-1]  # a sentence's full stop ("joignable." after a number) is no contact's sign
    return any(char.isdigit() or char in "@./:" for char in written)


#: words of three letters or more that a period abbreviates inside a name ("Chas. Smith", "Ste. Marie")
_NAME_ABBREVIATIONS: Final = frozenset({"ste", "chas", "jas", "geo", "thos"})


def sentence_end(left: TaggerToken, right: TaggerToken) -> bool:
    """Whether a period ends a sentence between two tokens: after a word of three letters or more, not an
    abbreviation ("partner Frank. Son Michael" holds two names; "J. Smith", "Wm. Smith", "Pj. Dugave" one)."""
    return (
        right.before == "."
        and len(left.text) > 2
        and left.text.isalpha()
        and fold(left.text) not in _NAME_ABBREVIATIONS
    )


def _joinable(text: str, left: TaggerToken, right: TaggerToken) -> bool:
    gap = text[left.end : right.start]
    return len(gap) <= 3 and all(char in JOINERS for char in gap)


def _span(
    text: str,
    tokens: Sequence[TaggerToken],
    marginals: Sequence[dict[str, float]],
    run: list[int],
    label: str,
) -> Span:
    score = sum(1.0 - marginals[i][OUTSIDE] for i in run) / len(run)
    start, end = tokens[run[0]].start, tokens[run[-1]].end
    if label == "NAME" and text[end - 2 : end] in _POSSESSIVES and end - 2 > start:
        end -= 2  # "Mr. Jones's class": the name is "Jones" (a surrogate keeps the "'s" of the text)
    return Span.of(text, start, end, label, source=SOURCE, score=min(1.0, max(0.0, score)))
