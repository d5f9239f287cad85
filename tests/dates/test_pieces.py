"""Spans that hold several dates, a range or a partial day are read as their parts."""

from __future__ import annotations

import datetime as dt

import pytest

from anonymed.dates.model import Kind
from anonymed.dates.pieces import read_pieces

REF = dt.date(2024, 1, 1)


def parts(text: str, lang: str) -> list[tuple[str, str | None, bool]]:
    order = "DMY" if lang == "fr" else "MDY"
    found = []
    for piece in read_pieces(text, lang, order, REF):
        value = piece.value
        day = None
        if value is not None and value.kind is Kind.DATE:
            day = dt.date.fromordinal(int(value.quantity)).isoformat()
        found.append((text[piece.start : piece.end], day, piece.range_start))
    return found


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("5/30-6/2", "en", [("5/30", "2024-05-30", True), ("6/2", "2024-06-02", False)]),
        ("8/2 - 8/10", "en", [("8/2", "2024-08-02", True), ("8/10", "2024-08-10", False)]),
        ("10/03/10/04", "en", [("10/03", "2024-10-03", False), ("10/04", "2024-10-04", False)]),
        ("du 12 au 15 mars 2021", "fr", [("12", "2021-03-12", True), ("15 mars 2021", "2021-03-15", False)]),
        ("March 12-15", "en", [("March 12", "2024-03-12", True), ("15", "2024-03-15", False)]),
        ("12-09-1997 27/12/14", "fr", [("12-09-1997", "1997-09-12", False),
                                       ("27/12/14", "2014-12-27", False)]),
        ("0 1 0 7 2 0 2 0 11-09-1994", "fr", [("0 1 0 7 2 0 2 0", "2020-07-01", False),
                                              ("11-09-1994", "1994-09-11", False)]),
        ("1 9 0 8 1 9 9 0 2 3 0 8 2 0 1 8", "fr", [("1 9 0 8 1 9 9 0", "1990-08-19", False),
                                                    ("2 3 0 8 2 0 1 8", "2018-08-23", False)]),
        ("2/31", "en", [("2/31", None, False)]),  # no real date: a layout to write a real one in
        ("Phase 9", "en", []),
    ],
)  # fmt: skip
def test_a_span_is_read_as_its_dates(
    text: str, lang: str, expected: list[tuple[str, str | None, bool]]
) -> None:
    assert parts(text, lang) == expected


def test_an_identifier_glued_to_a_date_is_not_read_as_one() -> None:
    text = "09-03-2021 1 3 0 3 1 9 7 0 2 7 0 1 1 7 0 1 0 9 4 2 9"  # a date, a date, then a NIR
    assert [p[0] for p in parts(text, "fr")] == ["09-03-2021", "1 3 0 3 1 9 7 0"]


def test_a_narrow_range_stays_in_order_whatever_the_draw() -> None:
    # "du 27 au 28 mai": the first day has one or two places left in its month; 50 random draws could miss
    # them (seed 53 gave "du 5 au 3 mai 2010"), so the last resort looks at every day of the month
    import re

    from anonymed.document import Document, Span
    from anonymed.labels import Label
    from anonymed.randomness import RandomSource
    from anonymed.substitute.registry import build_operator
    from anonymed.substitute.stage import Substituter

    text = "Hospitalisé du 27 au 28 mai 1954 pour bilan."
    start = text.index("du 27")
    doc = Document("d", text, {"lang": "fr"}).with_spans([Span.of(text, start, start + 20, Label.DATE)])
    operators = {label: build_operator("fake") for label in Label}
    for seed in range(300):
        (rep,) = Substituter(operators)(doc, RandomSource(seed)).replacements
        found = re.fullmatch(r"du (\d+) au (\d+) [^\W\d_]+ \d{4}", rep.surrogate)
        assert found is not None and int(found.group(1)) < int(found.group(2)), (seed, rep.surrogate)
