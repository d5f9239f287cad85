"""Families of the errors of a cross-validation run: missed gold tokens and false-positive tokens.

Used by ``tagger_cv.py --errors FILE``; the families are the ones issue 16 names, decided from the error's
own text and the words just before it (general clinical English, no corpus names).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from anonymed.document import Document, Span
from anonymed.evaluate.tokens import TOKEN_RE

_SPEECH = re.compile(
    r"\b(?:as per|per|spoke (?:with|to)|talked (?:with|to)|called|paged|notified|aware|by)\W*$", re.I
)
_TITLE = re.compile(r"\b(?:mr|mrs|ms|miss|dr|rabbi|father|sister|rev)\.?\W*$", re.I)
_ROLE = re.compile(r"\b(?:np|ho|rn|md|pa|rt|sw|cm|dr's|attending|resident|fellow|intern)\.?\W*$", re.I)
_KIN = re.compile(
    r"\b(?:wife|husband|son|daughter|mother|father|sister|brother|friend|niece|nephew|proxy|hcp)\W*$", re.I
)
_INSTITUTION_WORD = re.compile(
    r"\b(?:hospital|hosp|medical|center|centre|clinic|rehab|health|memorial|regional|university|"
    r"holy|sacred|saint|st|general|nursing|manor|house|campus)\b",
    re.I,
)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_RATIO = re.compile(r"^\d{1,2}/\d{1,2}$")
_ROLE_WORDS = _words(
    "patient pt son daughter wife husband mother father family nurse doctor md rn np team "
    "attending resident fellow son's sister brother"
)
_LOOKS_CLINICAL = _words(
    "swan ganz kussmaul douglas foley hickman babinski murphy homan trendelenburg cheyne stokes "
    "parkinson alzheimer crohn hodgkin cushing addison doppler holter penrose jackson pratt "
    "salem dobhoff quinton groshong yankauer valsalva whipple nissen orange yellow pink purple "
    "amber tan coumadin lasix levophed neo vanco"
)


def _before(doc: Document, start: int, width: int = 30) -> str:
    return doc.text[max(0, start - width) : start].replace("\n", " ")


def miss_family(doc: Document, gold: Span, token: str, start: int) -> str:
    """The family of one missed gold token."""
    before = _before(doc, start)
    label = gold.label.value
    if label == "NAME":
        if len(token) == 1:
            return "NAME: initial"
        if _SPEECH.search(before):
            return "NAME: after per / spoke with / aware"
        if _TITLE.search(before):
            return "NAME: after a title (Mr, Mrs, Dr...)"
        if _ROLE.search(before):
            return "NAME: after a role abbreviation (NP, RN, md...)"
        if _KIN.search(before):
            return "NAME: after a kin word"
        if token.islower():
            return "NAME: lower case, other context"
        return "NAME: other context"
    if label == "LOCATION":
        if token.isupper() and 2 <= len(token) <= 4:
            return "LOCATION: 2-4 capital abbreviation"
        if _INSTITUTION_WORD.search(gold.text) or len(gold.text.split()) > 1:
            return "LOCATION: multi-word institution"
        return "LOCATION: single word"
    if label == "DATE":
        if token.isdigit() and len(token) == 2 and gold.subtype == "year":
            return "DATE: bare two-digit year"
        if token.isalpha():
            return "DATE: month or day word"
        return "DATE: numeric"
    return f"{label}: all"


def false_positive_family(doc: Document, span: Span, token: str, start: int, gold_near: bool) -> str:
    """The family of one false-positive token (``gold_near``: the same predicted span holds gold)."""
    key = token.lower()
    if gold_near:
        return "word glued onto a real span"
    if span.label.value == "AGE":
        return "age under 90" if span.subtype is None else "AGE: other"
    if span.label.value == "DATE":
        if _RATIO.match(span.text.strip()):
            return "DATE: ratio or score read as a date"
        return "DATE: other"
    if span.label.value == "ID":
        return "ID: setting, size or number read as an identifier"
    if span.label.value == "CONTACT":
        return "CONTACT: reading taken for an address or phone"
    if span.label.value == "NAME":
        if key in _ROLE_WORDS:
            return "NAME: role word (Patient, SON...)"
        if key in _LOOKS_CLINICAL:
            return "NAME: eponym, device, drug or colour"
        return "NAME: other word"
    return f"{span.label.value}: other"


def _tokens(text: str, start: int, end: int) -> Iterable[tuple[int, int]]:
    return (m.span() for m in TOKEN_RE.finditer(text, start, end))


def errors(pairs: Sequence[tuple[Document, Sequence[Span]]]) -> dict[str, Any]:
    """Missed and false-positive tokens of a run, counted by family, with examples."""
    missed: Counter[str] = Counter()
    spurious: Counter[str] = Counter()
    rows: list[dict[str, Any]] = []
    for doc, predicted in pairs:
        gold_mask = bytearray(len(doc.text))
        for gold in doc.gold:
            gold_mask[gold.start : gold.end] = b"\x01" * (gold.end - gold.start)
        pred_mask = bytearray(len(doc.text))
        for span in predicted:
            pred_mask[span.start : span.end] = b"\x01" * (span.end - span.start)
        for gold in doc.gold:
            for start, end in _tokens(doc.text, gold.start, gold.end):
                if not any(pred_mask[start:end]):
                    family = miss_family(doc, gold, doc.text[start:end], start)
                    missed[family] += 1
                    rows.append(_row("miss", family, doc, start, end))
        for span in predicted:
            near = any(gold_mask[span.start : span.end])
            for start, end in _tokens(doc.text, span.start, span.end):
                if not any(gold_mask[start:end]):
                    family = false_positive_family(doc, span, doc.text[start:end], start, near)
                    spurious[family] += 1
                    rows.append(_row("false positive", family, doc, start, end))
    return {
        "missed": dict(missed.most_common()),
        "false_positives": dict(spurious.most_common()),
        "rows": rows,
    }


def _row(kind: str, family: str, doc: Document, start: int, end: int) -> dict[str, Any]:
    context = doc.text[max(0, start - 40) : end + 40].replace("\n", " / ")
    return {"kind": kind, "family": family, "doc": doc.id, "token": doc.text[start:end], "context": context}


def table(counts: dict[str, int]) -> str:
    """A Markdown table of counts by family."""
    lines = ["| family | tokens |", "|---|---:|"]
    lines += [f"| {family} | {count} |" for family, count in counts.items()]
    return "\n".join(lines)
