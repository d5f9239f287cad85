"""Place tables and the candidates of the exponential mechanism (paper's Figure 6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from anonymed.errors import ResourceError
from anonymed.substitute.mechanisms import exponential_probabilities
from anonymed.substitute.places import load_places, parse_places, place_key

# Tchouka et al., Figure 6: Dijon's ten candidates (radius 100 km, k = 10, epsilon = 1/4):
# city, distance, score, normalised distribution. The paper's text extraction lost the tenth row (AUTUN);
# its probability is what the other nine leave: 1 - 0.909592 = 0.090408.
FIGURE_6 = [
    ("DIJON", 0.000000, 1.000000, 0.133468),
    ("BESANCON", 0.418721, 0.581279, 0.120203),
    ("CHALON SUR SAONE", 1.170695, -0.170695, 0.099602),
    ("DOLE", 1.349742, -0.349742, 0.095242),
    ("LONS LE SAUNIER", 1.450857, -0.450857, 0.092865),
    ("LE CREUSOT", 1.466909, -0.466909, 0.092493),
    ("VESOUL", 1.475195, -0.475195, 0.092301),
    ("BEAUNE", 1.497015, -0.497015, 0.091799),
    ("MONTCEAU LES MINES", 1.504867, -0.504867, 0.091619),
    ("AUTUN", 1.558105, -0.558105, 0.090408),
]


def test_figure_6_is_reproduced_from_the_communes_table() -> None:
    table = load_places("bfc_communes")
    assert table.feature_names == ("overall population", "cancer incidence rate", "stroke")
    dijon = table.lookup("Dijon")
    assert dijon is not None
    found = table.candidates(dijon, features=table.feature_names, radius_km=100.0, k=10)
    probabilities = exponential_probabilities(found.utilities, 0.25)
    got = [
        (table.names[r], round(d, 6), round(u, 6), round(p, 6))
        for r, d, u, p in zip(found.rows, found.distances, found.utilities, probabilities, strict=True)
    ]
    assert got == FIGURE_6
    assert max(found.kilometres) < 100.0


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Chalon-sur-Saône", "chalon sur saone"),  # accents and hyphens
        ("CHALON SUR SAONE", "chalon sur saone"),
        ("St. Louis", "saint louis"),  # saint abbreviated
        ("Ste-Foy", "sainte foy"),
        ("  Dijon ", "dijon"),
    ],
)
def test_place_names_are_matched_loosely(text: str, key: str) -> None:
    assert place_key(text) == key


def test_default_table_holds_world_cities_with_population() -> None:
    table = load_places("default")
    assert len(table) > 30000
    assert table.feature_names == ("population",)
    assert table.names[table.lookup("Baltimore") or 0] == "Baltimore"
    assert table.lookup("Quartermain Hospital") is None


def test_shared_names_resolve_to_the_most_populous_place() -> None:
    table = load_places("default")
    paris = table.lookup("Paris")
    assert paris is not None and table.columns["population"][paris] > 2_000_000


def test_user_csv_with_aliases_and_health_indicators(tmp_path: Path) -> None:
    path = tmp_path / "places.csv"
    path.write_text(
        "name,latitude,longitude,aliases,region,population,radon,site_id\n"
        "Alpha,45.0,5.0,Alphaville|A-Town,north,1000,3.5,1\n"
        "Beta,45.1,5.1,,north,2000,1.5,2\n",
        encoding="utf-8",
    )
    table = load_places(str(path))
    assert table.feature_names == ("population", "radon")  # text columns and ids are not features
    assert table.lookup("a town") == 0
    assert table.lookup("BETA") == 1


def test_isolated_places_still_get_k_candidates() -> None:
    table = parse_places(
        "name,latitude,longitude,population\nA,0,0,1\nB,0,10,2\nC,10,0,3\nD,40,40,4\n", "inline"
    )
    found = table.candidates(0, features=("population",), radius_km=1.0, k=3)
    assert len(found.rows) == 3 and found.rows[0] == 0


@pytest.mark.parametrize(
    ("csv_text", "fragment"),
    [
        ("town,lat\nA,1\n", "needs columns"),  # no name / coordinates
        ("name,latitude,longitude\n", "empty"),
        ("name,latitude,longitude\nA,north,3\n", "line 2"),  # non-numeric coordinate
    ],
)
def test_bad_tables_raise_resource_errors_naming_the_problem(csv_text: str, fragment: str) -> None:
    with pytest.raises(ResourceError, match=fragment):
        parse_places(csv_text, "user.csv")


def test_missing_table_file_raises_a_resource_error(tmp_path: Path) -> None:
    with pytest.raises(ResourceError, match="cannot read"):
        load_places(str(tmp_path / "nope.csv"))
