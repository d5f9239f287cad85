"""The merger turns overlapping detections into one non-overlapping, recall-first set."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anonymed.detect.merge import merge_spans
from anonymed.document import Span
from anonymed.labels import Label

TEXT = "Dr. John Smith seen 02/12/2020 at Mercy Hospital"


def span(start: int, end: int, label: str, score: float = 0.9, source: str = "x") -> Span:
    return Span.of(TEXT, start, end, label, score=score, source=source)


def test_overlapping_spans_become_their_union_with_the_best_label() -> None:
    merged = merge_spans(
        TEXT, [span(4, 8, "NAME", 0.6, "lex"), span(4, 14, "NAME", 0.9, "pat"), span(9, 14, "LOCATION", 0.5)]
    )
    assert len(merged) == 1
    assert (merged[0].start, merged[0].end, merged[0].label) == (4, 14, Label.NAME)
    assert merged[0].source == "lex+pat+x"


def test_a_subtype_found_by_a_lower_ranked_member_of_the_same_label_is_kept() -> None:
    # the tagger outscores the pattern that knows the date is a birth date: the union stays a birth date
    tagged = Span.of(TEXT, 20, 30, "DATE", score=0.99, source="tagger")
    pattern = Span.of(TEXT, 20, 30, "DATE", score=0.9, source="patterns", subtype="birth")
    other = Span.of(TEXT, 14, 24, "AGE", score=0.5, source="x", subtype="over89")  # another label's subtype
    merged = merge_spans(TEXT, [tagged, pattern, other])
    assert [(m.label, m.subtype) for m in merged] == [(Label.DATE, "birth")]
    assert merge_spans(TEXT, [tagged, other])[0].subtype is None


def test_touching_spans_stay_apart() -> None:
    merged = merge_spans(TEXT, [span(4, 8, "NAME"), span(8, 14, "NAME")])
    assert [(s.start, s.end) for s in merged] == [(4, 8), (8, 14)]


def test_ties_on_score_go_to_the_more_identifying_label() -> None:
    merged = merge_spans(TEXT, [span(34, 48, "ORGANIZATION"), span(34, 48, "LOCATION")])
    assert merged[0].label == Label.LOCATION


def test_chained_overlaps_merge_transitively() -> None:
    merged = merge_spans(TEXT, [span(0, 8, "NAME"), span(5, 12, "NAME"), span(10, 14, "NAME")])
    assert [(s.start, s.end) for s in merged] == [(0, 14)]


@given(
    st.lists(
        st.tuples(st.integers(0, len(TEXT) - 1), st.integers(1, 12), st.sampled_from(list(Label))),
        max_size=30,
    )
)
def test_merged_spans_are_sorted_disjoint_and_cover_every_input(raw: list[tuple[int, int, Label]]) -> None:
    spans = [Span.of(TEXT, s, min(s + n, len(TEXT)), lab) for s, n, lab in raw]
    merged = merge_spans(TEXT, spans)
    for left, right in pairwise(merged):
        assert left.end <= right.start
    for original in spans:
        assert any(m.start <= original.start and original.end <= m.end for m in merged)
    for m in merged:
        assert m.text == TEXT[m.start : m.end]


def date_span(text: str, date: str) -> Span:
    start = text.index(date)
    return Span.of(text, start, start + len(date), "DATE", score=0.9, source="patterns")


@pytest.mark.parametrize(
    ("text", "date", "widened"),
    [
        ("Next visit Tues 12/3 @ 9:30.", "12/3", "Tues 12/3"),
        ("CARDIOVERSION FRIDAY 9/17.", "9/17", "FRIDAY 9/17"),
        ("seen Monday, 11/4/2024 in clinic", "11/4/2024", "Monday, 11/4/2024"),
        ("revu le lun. 4/11/2024", "4/11/2024", "lun. 4/11/2024"),
        ("seen today 11/4/2024", "11/4/2024", "11/4/2024"),  # no weekday
        ("Salmon 11/4", "11/4", "11/4"),  # a word ending like a weekday is none
        ("seen Monday\n11/4", "11/4", "11/4"),  # another line
    ],
)
def test_a_numeric_date_takes_in_the_weekday_written_right_before_it(
    text: str, date: str, widened: str
) -> None:
    (merged,) = merge_spans(text, [date_span(text, date)])
    assert merged.text == widened and merged.label is Label.DATE


def test_a_weekday_inside_another_span_stays_there() -> None:
    text = "Dr Monday 11/4"
    name = Span.of(text, 3, 9, "NAME", score=0.9, source="tagger")
    assert [s.text for s in merge_spans(text, [name, date_span(text, "11/4")])] == ["Monday", "11/4"]
