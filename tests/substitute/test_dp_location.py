"""The dp_location operator: exponential mechanism over similar places (Tchouka et al., Algorithm 1)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from dp_montecarlo import check_ratio, make_doc, substituter

from anonymed.errors import ConfigError
from anonymed.randomness import RandomSource
from anonymed.substitute.dp_location import DPLocationOperator
from anonymed.substitute.mechanisms import exponential_probabilities
from anonymed.substitute.places import load_places
from anonymed.substitute.registry import build_operator

DIJON_CANDIDATES = {
    "Dijon",
    "Besancon",
    "Chalon Sur Saone",
    "Dole",
    "Lons Le Saunier",
    "Le Creusot",
    "Vesoul",
    "Beaune",
    "Montceau Les Mines",
    "Autun",
}
COMMUNES = {"dp_location": {"table": "bfc_communes"}}


def test_every_occurrence_of_a_place_gets_one_surrogate_among_its_candidates() -> None:
    doc = make_doc("Born in Dijon; accident in DIJON.", [("Dijon", "LOCATION"), ("DIJON", "LOCATION")])
    for _ in range(20):
        out = substituter(1.0, **COMMUNES)(doc, RandomSource())
        first, second = (r.surrogate for r in out.replacements)
        assert first in DIJON_CANDIDATES and second == first.upper()  # case of each occurrence kept
        assert len(out.privacy["expenses"]) == 1


def test_unknown_places_go_to_the_fallback_and_are_counted() -> None:
    doc = make_doc("Transferred from Quartermain General.", [("Quartermain General", "LOCATION")])
    out = substituter(1.0)(doc, RandomSource())
    assert out.result == "Transferred from [LOCATION]."
    assert out.privacy["fallbacks"] == {"dp_location": 1}


def test_the_run_summary_counts_the_places_left_to_the_fallback_as_the_privacy_report_does() -> None:
    text = "Transferred from Quartermain General to Baltimore."
    doc = make_doc(text, [("Quartermain General", "LOCATION"), ("Baltimore", "LOCATION")])
    out = substituter(1.0)(doc, RandomSource())
    counts = out.privacy["substitution"]["counts"]
    assert counts["LOCATION|dp_location|fallback"] == out.privacy["fallbacks"]["dp_location"] == 1
    drawn = sum(n for k, n in counts.items() if k.split("|")[2] in ("replaced", "unchanged"))
    assert drawn == 1  # Baltimore: the only value the mechanism drew


def test_default_table_replaces_a_city_by_a_nearby_one() -> None:
    table = load_places("default")
    origin = table.lookup("Baltimore")
    assert origin is not None
    km = table.kilometres(origin)
    nearby = {table.names[r] for r in range(len(table)) if km[r] < 100}
    doc = make_doc("Lives in Baltimore.", [("Baltimore", "LOCATION")])
    for _ in range(10):
        assert substituter(1.0)(doc, RandomSource()).replacements[0].surrogate in nearby


@pytest.mark.parametrize(
    "params",
    [{"k": 1}, {"radius_km": 0}, {"scaling": "half"}, {"normalise": "zscore"}, {"features": ("radon",)}],
)
def test_bad_parameters_are_refused(params: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        build_operator("dp_location", params)


@pytest.fixture()
def line_table(tmp_path: Path) -> str:
    """Eight places a few km apart: A (x=0), B (x=0.25), six at x=1; all candidates of each other."""
    rows = ["name,latitude,longitude,x", "A,45.00,5.00,0", "B,45.01,5.00,0.25"]
    rows += [f"P{i},45.0{i + 2},5.01,1" for i in range(6)]
    path = tmp_path / "line.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return str(path)


def _law(table: str, scaling: str, place: str, epsilon: float) -> list[float]:
    operator = build_operator("dp_location", {"table": table, "k": 8, "scaling": scaling})
    assert isinstance(operator, DPLocationOperator)
    places = operator.table()
    found = places.candidates(places.lookup(place) or 0, features=("x",), radius_km=100.0, k=8)
    effective = epsilon if scaling == "paper" else epsilon / 2
    probabilities = exponential_probabilities(found.utilities, effective)
    return [p for _, p in sorted(zip(found.rows, probabilities, strict=True))]


def test_paper_weights_exceed_exp_epsilon_d_but_stay_within_twice(line_table: str) -> None:
    # A and B are 0.25 apart; with exp(eps*U) the normalising factors differ and add a second exp(eps*d)
    eps, d = 4.0, 0.25
    a, b = _law(line_table, "paper", "A", eps), _law(line_table, "paper", "B", eps)
    worst = max(abs(math.log(p / q)) for p, q in zip(a, b, strict=True))
    assert eps * d < worst <= 2 * eps * d
    a, b = _law(line_table, "calibrated", "A", eps), _law(line_table, "calibrated", "B", eps)
    assert max(abs(math.log(p / q)) for p, q in zip(a, b, strict=True)) <= eps * d + 1e-12


@pytest.mark.parametrize(("scaling", "factor"), [("calibrated", 1.0), ("paper", 2.0)])
def test_neighbouring_places_are_indistinguishable_up_to_the_stated_bound(
    line_table: str, scaling: str, factor: float
) -> None:
    eps, d, n = 4.0, 0.25, 3000
    operator = build_operator("dp_location", {"table": line_table, "k": 8, "scaling": scaling})
    assert isinstance(operator, DPLocationOperator)
    places = operator.table()
    first = [operator.choose(places.lookup("A") or 0, eps) for _ in range(n)]
    second = [operator.choose(places.lookup("B") or 0, eps) for _ in range(n)]
    result = check_ratio(first, second, factor * eps * d)
    assert result.tested >= 3
    assert result.violations == ()
