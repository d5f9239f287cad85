"""Resolve overlapping spans from several detectors into one non-overlapping, recall-first set."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

from anonymed.dates import words
from anonymed.document import Span
from anonymed.labels import Label

#: When two overlapping spans tie on score, the more specific (more identifying) label wins.
LABEL_PRIORITY: dict[Label, int] = {
    Label.ID: 9,
    Label.CONTACT: 8,
    Label.NAME: 7,
    Label.DATE: 6,
    Label.AGE: 5,
    Label.LOCATION: 4,
    Label.ORGANIZATION: 3,
    Label.PROFESSION: 2,
    Label.OTHER: 1,
}


def _rank(span: Span) -> tuple[float, int, int]:
    return (span.score, LABEL_PRIORITY[span.label], span.end - span.start)


def _union(text: str, cluster: Sequence[Span]) -> Span:
    best = max(cluster, key=_rank)
    start = min(s.start for s in cluster)
    end = max(s.end for s in cluster)
    sources = "+".join(sorted({s.source for s in cluster}))
    # a subtype (a birth date, an age over 89) found by a lower-ranked member of the same label is kept
    same_label = sorted((s for s in cluster if s.label is best.label and s.subtype), key=_rank, reverse=True)
    subtype = best.subtype or (same_label[0].subtype if same_label else None)
    return Span(start, end, best.label, text[start:end], sources, best.score, subtype)


def merge_spans(text: str, spans: Iterable[Span]) -> list[Span]:
    """Merge overlapping spans into their union (recall first), labelled by the best-ranked member.

    The result is sorted and non-overlapping; spans that only touch are kept apart.
    """
    ordered = sorted(spans, key=lambda s: (s.start, s.end))
    merged: list[Span] = []
    cluster: list[Span] = []
    cluster_end = -1
    for span in ordered:
        if cluster and span.start >= cluster_end:
            merged.append(_union(text, cluster))
            cluster = []
        cluster.append(span)
        cluster_end = max(cluster_end, span.end) if len(cluster) > 1 else span.end
    if cluster:
        merged.append(_union(text, cluster))
    return with_weekdays(text, merged)


#: a weekday word and its dot, comma and one space, ending right before a numeric date ("Tues 12/3", "Mon,
#: 11/4/2024", "lun. 4/11")
_WEEKDAY_BEFORE: Final = re.compile(r"(?<![\w'’-])([^\W\d_]{3,9})(\.?,? ?)\Z")


def with_weekdays(text: str, spans: Sequence[Span]) -> list[Span]:
    """Numeric dates widened over the weekday written right before them: left outside, the true weekday next
    to a moved date would tell how far it moved (modulo 7); inside, the date's operator writes the new one."""
    widened: list[Span] = []
    for span in spans:
        before = widened[-1].end if widened else 0
        if span.label is Label.DATE and span.text[:1].isdigit():
            found = _WEEKDAY_BEFORE.search(text, max(before, span.start - 12), span.start)
            if found is not None and words.weekday_in_any(found.group(1)) is not None:
                span = Span(found.start(), span.end, span.label, text[found.start() : span.end], span.source,
                            span.score, span.subtype)  # fmt: skip
        widened.append(span)
    return widened
