"""A document's temporal spans read once: numeric order, yearless dates' year, two-digit birth years.

Shared by the operators that move dates (``dp_date``, ``date_shift``) so that they read a document's
dates the same way. Numeric dates are read DD/MM in French and MM/DD in English unless the document's
unambiguous dates (a component above 12) say otherwise, or ``numeric_order`` forces it. Yearless dates
take the year of ``metadata["reference_date"]`` (ISO), else the most frequent year of the document's
full dates. Birth dates (subtype ``birth``) with a two-digit year are read in the century before the
reference of ages (``over89.cached_reference``).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from anonymed.dates.over89 import birth_in_past, cached_reference, has_year, reference_date
from anonymed.dates.temporal import Kind, Temporal, detect_order, parse_temporal, with_year
from anonymed.document import DocState, Document, Span, StateKey
from anonymed.labels import Label

ORDERS: Final = ("auto", "DMY", "MDY")
Values = dict[tuple[int, int], Temporal | None]


@dataclass(frozen=True)
class DatesRead:
    """What ``read_values`` chose for a document: the numeric order, the year of yearless dates, and
    each span's value."""

    order: str
    year: int | None
    values: Values


#: the key of one reader's (an operator's) reading of a document's dates
ReadingKey = StateKey[DatesRead]


class Reading(Protocol):
    """What reading a document's dates needs: the document, its language, and a per-document cache.

    The substitution ``Context`` is one; ``dates`` does not import the substitution layer.
    """

    document: Document
    lang: str
    state: DocState


def document_reading(context: Reading, key: ReadingKey) -> tuple[str, int | None]:
    """The numeric order and the year of yearless dates that ``read_values`` chose (run it first)."""
    read = context.state.get(key)
    if read is None:
        return ("DMY" if context.lang == "fr" else "MDY"), None
    return read.order, read.year


def read_values(spans: Sequence[Span], context: Reading, numeric_order: str, key: ReadingKey) -> Values:
    """Each span's parsed value (``None``: not read), computed once per document under ``key``."""
    cached = context.state.get(key)
    if cached is not None and all((s.start, s.end) in cached.values for s in spans):
        return cached.values
    order = detect_order([s.text for s in spans], context.lang) if numeric_order == "auto" else numeric_order
    reference = reference_date(context.document.metadata)
    values: Values = {
        (s.start, s.end): parse_temporal(
            s.text,
            lang=context.lang,
            order=order,
            reference=reference,
            year_only=s.subtype == "year",
            age=s.label is Label.AGE,
        )
        for s in spans
    }
    years = Counter(
        dt.date.fromordinal(int(v.quantity)).year
        for v in values.values()
        if v is not None and v.kind is Kind.DATE and has_year(v)
    )
    year = reference.year if reference else (years.most_common(1)[0][0] if years else None)
    born = cached_reference(context.document, context.state)
    for span in spans:
        value = values[(span.start, span.end)]
        if value is not None and year is not None:
            value = with_year(value, year)
        if value is not None and span.subtype == "birth":
            value = birth_in_past(value, born)
        values[(span.start, span.end)] = value
    context.state.set(key, DatesRead(order, year, values))
    return values
