"""The dp_date operator: Laplace noise in the value's unit, format kept, chronology kept, budget shared."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from dp_montecarlo import check_ratio, make_doc, outputs, substituter
from hypothesis import given, settings
from hypothesis import strategies as st

from anonymed.errors import ConfigError
from anonymed.randomness import RandomSource
from anonymed.substitute.registry import build_operator


@pytest.mark.parametrize(
    ("text", "target", "lang", "pattern"),
    [
        ("Seen on 02/12/2020.", "02/12/2020", "en", r"Seen on \d\d/\d\d/\d{4}\."),
        (
            "Vu le 26 février 2020.",
            "26 février 2020",
            "fr",
            r"Vu le (1er|\d{1,2}) (janvier|février|mars) 2020\.",
        ),
        (
            "Seen February 26, 2020.",
            "February 26, 2020",
            "en",
            r"Seen (January|February|March) \d{1,2}, 2020\.",
        ),
        ("Seen 3 months ago.", "3 months ago", "en", r"Seen (1 month|\d+ months) ago\."),
        ("Vu il y a 10 ans.", "il y a 10 ans", "fr", r"Vu il y a (1 an|\d+ ans)\."),
        ("Seen on 8/14.", "8/14", "en", r"Seen on \d{1,2}/\d{1,2}\."),
        ("Born in 1992.", "1992", "en", r"Born in (19|20)\d\d\."),
    ],
)
def test_surrogate_dates_keep_format_and_language(text: str, target: str, lang: str, pattern: str) -> None:
    doc = make_doc(text, [(target, "DATE")], lang=lang)
    for _ in range(20):
        out = substituter(1.0)(doc, RandomSource())
        assert re.fullmatch(pattern, out.result), out.result


def test_same_date_in_two_formats_shares_one_draw_and_one_charge() -> None:
    doc = make_doc(
        "Admitted 02/12/2020, i.e. February 12, 2020.",
        [("02/12/2020", "DATE"), ("February 12, 2020", "DATE")],
    )
    for _ in range(10):
        out = substituter(1.0)(doc, RandomSource())
        first, second = (r.surrogate for r in out.replacements)
        assert (
            dt.datetime.strptime(first, "%m/%d/%Y").date() == dt.datetime.strptime(second, "%B %d, %Y").date()
        )
        assert len(out.privacy["expenses"]) == 1 and out.privacy["expenses"][0]["epsilon"] == 1.0
        assert out.privacy["expenses"][0]["repeats"] == [[26, 43]]


ISO = st.lists(st.dates(dt.date(2000, 1, 1), dt.date(2030, 12, 31)), min_size=2, max_size=6, unique=True)


@settings(max_examples=40, deadline=None)
@given(dates=ISO, chronology=st.sampled_from(["sort", "gaps"]), epsilon=st.sampled_from([0.01, 0.5, 5.0]))
def test_chronology_of_the_dates_is_kept(dates: list[dt.date], chronology: str, epsilon: float) -> None:
    texts = [d.isoformat() for d in dates]
    doc = make_doc("; ".join(texts), [(t, "DATE") for t in texts])
    out = substituter(epsilon, dp_date={"chronology": chronology})(doc, RandomSource())
    released = {r.original: dt.date.fromisoformat(r.surrogate) for r in out.replacements}
    ordered = sorted(texts)
    assert [released[t] for t in ordered] == sorted(released.values())
    assert len(set(released.values())) == len(texts)  # distinct dates stay distinct
    assert out.privacy["epsilon_spent"] == pytest.approx(epsilon)


def test_gaps_chronology_charges_one_draw_per_date() -> None:
    doc = make_doc(
        "2020-01-01 to 2020-01-10 to 2020-02-01",
        [("2020-01-01", "DATE"), ("2020-01-10", "DATE"), ("2020-02-01", "DATE")],
    )
    out = substituter(0.9, dp_date={"chronology": "gaps"})(doc, RandomSource())
    kinds = sorted(e["parameters"]["noise"] for e in out.privacy["expenses"])
    assert kinds == ["laplace on the gap to the next date"] * 2 + ["laplace on the latest date"]
    assert [e["epsilon"] for e in out.privacy["expenses"]] == pytest.approx([0.3, 0.3, 0.3])


def test_yearless_dates_take_the_reference_year() -> None:
    doc = make_doc("Seen 2/29.", [("2/29", "DATE")], reference_date="2020-06-01")
    out = substituter(5.0)(doc, RandomSource())
    assert out.privacy["fallbacks"] == {}  # 2/29 exists in 2020
    assert re.fullmatch(r"Seen \d{1,2}/\d{1,2}\.", out.result)


def test_unparseable_dates_go_to_the_fallback_and_spend_nothing() -> None:
    doc = make_doc("Seen 2/31 and 3-4 weeks ago.", [("2/31", "DATE"), ("3-4 weeks ago", "DATE")])
    out = substituter(1.0)(doc, RandomSource())
    assert out.result == "Seen [DATE] and [DATE]."
    assert out.privacy["fallbacks"] == {"dp_date": 2}
    assert out.privacy["epsilon_spent"] == 0


def test_without_a_budget_each_value_gets_the_operator_epsilon() -> None:
    doc = make_doc("From 01/02/2020 to 01/09/2020.", [("01/02/2020", "DATE"), ("01/09/2020", "DATE")])
    out = substituter(None, dp_date={"epsilon": 0.7})(doc, RandomSource())
    assert out.privacy["budget"] == "per_value" and out.privacy["epsilon_total"] is None
    assert [e["epsilon"] for e in out.privacy["expenses"]] == [0.7, 0.7]


@pytest.mark.parametrize(
    "params",
    [{"chronology": "shuffle"}, {"numeric_order": "YMD"}, {"epsilon": 0.0}, {"fallback": "dp_age"}],
)
def test_bad_parameters_are_refused(params: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        build_operator("dp_date", params)


@pytest.mark.parametrize("days_apart", [1, 3])
def test_neighbouring_dates_are_indistinguishable_up_to_exp_epsilon_d(days_apart: int) -> None:
    eps, n = 0.4, 2500
    second = (dt.date(2020, 3, 10) + dt.timedelta(days=days_apart)).strftime("%m/%d/%Y")
    docs = [make_doc(f"Admitted on {d}.", [(d, "DATE")]) for d in ("03/10/2020", second)]
    sub = substituter(eps)
    result = check_ratio(outputs(sub, docs[0], n), outputs(sub, docs[1], n), eps * days_apart)
    assert result.tested >= 6
    assert result.violations == ()
