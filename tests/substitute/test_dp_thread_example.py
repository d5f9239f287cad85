"""The paper's thread example end to end, in English and French (Tchouka et al., Sect. 1 and 4)."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from dp_montecarlo import make_doc, substituter

from anonymed.randomness import RandomSource

EN = (
    "Mr. Durand born in Dijon, 40 years old, was admitted to the hospital from 12/02/2020 to "
    "February 26, 2020 following a road accident in Dijon."
)
FR = (
    "M. Durand, né à Dijon, âgé de 40 ans, a été hospitalisé du 12/02/2020 au 26 février 2020 "
    "suite à un accident de la route à Dijon."
)
CANDIDATES = (
    "Dijon|Besancon|Chalon Sur Saone|Dole|Lons Le Saunier|Le Creusot|Vesoul|Beaune|Montceau Les Mines|Autun"
)
EN_OUT = re.compile(
    rf"Mr\. \[NAME\] born in (?P<c1>{CANDIDATES}), (?P<age>\d+|90\+) years? old, "
    rf"was admitted to the hospital from (?P<d1>\d\d/\d\d/\d{{4}}) "
    rf"to (?P<d2>[A-Z][a-z]+ \d{{1,2}}, \d{{4}}) following a road accident in (?P<c2>{CANDIDATES})\."
)
FR_MONTHS = "janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre"
FR_OUT = re.compile(
    rf"M\. \[NAME\], né à (?P<c1>{CANDIDATES}), âgé de (?P<age>\d+|90\+) ans?, a été hospitalisé "
    rf"du (?P<d1>\d\d/\d\d/\d{{4}}) au (?P<d2>(1er|\d{{1,2}}) ({FR_MONTHS}) \d{{4}}) suite à un accident "
    rf"de la route à (?P<c2>{CANDIDATES})\."
)


def _french_date(text: str) -> dt.date:
    day, month, year = text.replace("1er", "1").split()
    return dt.date(int(year), FR_MONTHS.split("|").index(month) + 1, int(day))


@pytest.mark.parametrize(
    ("text", "lang", "age", "pattern"),
    [(EN, "en", "40 years old", EN_OUT), (FR, "fr", "40 ans", FR_OUT)],
)
def test_thread_example_end_to_end(text: str, lang: str, age: str, pattern: re.Pattern[str]) -> None:
    dates = ("12/02/2020", "February 26, 2020" if lang == "en" else "26 février 2020")
    items = [
        ("Durand", "NAME"),
        ("Dijon", "LOCATION"),
        (age, "AGE"),
        (dates[0], "DATE"),
        (dates[1], "DATE"),
        ("Dijon", "LOCATION"),
    ]
    doc = make_doc(text, items, lang=lang)
    for _ in range(25):
        out = substituter(1.0, dp_location={"table": "bfc_communes"})(doc, RandomSource())
        match = pattern.fullmatch(out.result)
        assert match is not None, out.result
        assert match["c1"] == match["c2"]  # one surrogate for both Dijons
        if lang == "en":  # English reads 12/02/2020 as December 2, after February 26
            first = dt.datetime.strptime(match["d1"], "%m/%d/%Y").date()
            second = dt.datetime.strptime(match["d2"], "%B %d, %Y").date()
            assert first > second
        else:  # French reads it as 12 February, before the 26th
            first = dt.datetime.strptime(match["d1"], "%d/%m/%Y").date()
            assert first < _french_date(match["d2"])
        report = out.privacy
        assert report["values"] == 4 and report["epsilon_spent"] == pytest.approx(1.0)
        assert [e["epsilon"] for e in report["expenses"]] == pytest.approx([0.25] * 4)
        dumped = json.dumps(dict(report))
        assert "Dijon" not in dumped and "2020" not in dumped  # offsets, not values


def test_thread_example_budget_can_be_weighted_by_label() -> None:
    items = [
        ("Dijon", "LOCATION"),
        ("40 years old", "AGE"),
        ("12/02/2020", "DATE"),
        ("February 26, 2020", "DATE"),
        ("Dijon", "LOCATION"),
    ]
    doc = make_doc(EN, items)
    sub = substituter(1.0, dp_location={"table": "bfc_communes"})
    sub.epsilon_weights = {"LOCATION": 2.0}
    report = sub(doc, RandomSource()).privacy
    by_label = {e["label"]: e["epsilon"] for e in report["expenses"]}
    assert by_label == pytest.approx({"LOCATION": 0.4, "AGE": 0.2, "DATE": 0.2})
    assert report["split"] == "weighted" and report["epsilon_spent"] == pytest.approx(1.0)
