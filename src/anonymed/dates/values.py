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
from typing import Any, Final, Protocol

from anonymed.dates.over89 import birth_in_past, cached_reference, has_year, reference_date
from anonymed.dates.temporal import Kind, Temporal, detect_order, parse_temporal, with_year
from anonymed.document import Document, Span
from anonymed.labels import Label

ORDERS: Final = ("auto", "DMY", "MDY")
Values = dict[tuple[int, int], Temporal | None]


class Reading(Protocol):
    """What reading a document's dates needs: the document, its language, and a per-document cache.

    The substitution ``Context`` is one; ``dates`` does not import the substitution layer.
    """

    document: Document
    lang: str
    state: dict[str, Any]


def document_reading(context: Reading, cache_key: str) -> tuple[str, int | None]:
    """The numeric order and the year of yearless dates that ``read_values`` chose (run it first)."""
    order = context.state.get(cache_key + ":order")
    year = context.state.get(cache_key + ":year")
    default = "DMY" if context.lang == "fr" else "MDY"
    return (order if isinstance(order, str) else default), (year if isinstance(year, int) else None)


def read_values(spans: Sequence[Span], context: Reading, numeric_order: str, cache_key: str) -> Values:
    """Each span's parsed value (``None``: not read), computed once per document under ``cache_key``."""
    cached = context.state.get(cache_key)
    if isinstance(cached, dict) and all((s.start, s.end) in cached for s in spans):
        return cached
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
    context.state[cache_key + ":year"] = year
    context.state[cache_key + ":order"] = order
    born = cached_reference(context.document, context.state)
    for span in spans:
        value = values[(span.start, span.end)]
        if value is not None and year is not None:
            value = with_year(value, year)
        if value is not None and span.subtype == "birth":
            value = birth_in_past(value, born)
        values[(span.start, span.end)] = value
    context.state[cache_key] = values
    return values
