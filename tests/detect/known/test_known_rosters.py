"""The site's rosters: clinicians and places from CSV files, matched like known identifiers."""

from __future__ import annotations

from pathlib import Path

import pytest

from anonymed.config import PipelineConfig
from anonymed.detect.known.detector import KnownDetector, KnownParams
from anonymed.detect.known.rosters import Clinician, Place, Roster, read_clinicians, read_places, read_roster
from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.pipeline import Pipeline

SECRET = "Quackenbush"
ROSTER = Roster(
    clinicians=(Clinician("Anna", "Jones"), Clinician("Hope", "White"), Clinician("", "de la Cruz")),
    places=(
        Place("Cardiac Intensive Care Unit", ("CICU",)),
        Place("Hôpital Saint-Louis", ("HSL",), "LOCATION/hospital"),
        Place("Fondation Lenval", (), "ORGANIZATION"),
    ),
)


def found(text: str, roster: Roster = ROSTER, **options: bool) -> list[tuple[str, str, str]]:
    spans = KnownDetector(KnownParams(roster=roster, **options)).detect(Document("d", text))
    return sorted((s.text, s.full_label, s.source) for s in spans)


def test_clinicians_by_whole_name_either_order_family_alone_and_initials() -> None:
    text = "Seen by Anna Jones, then JONES, ANNA, Dr Jones and A. Jones; Dr De La Cruz too."
    assert [t for t, _, _ in found(text)] == ["A. Jones", "Anna Jones", "De La Cruz", "JONES, ANNA", "Jones"]
    assert {label for _, label, _ in found(text)} == {"NAME/clinician"} and found(text)[0][2] == "roster"


def test_a_roster_s_given_name_alone_is_not_a_match_and_common_words_need_capitals() -> None:
    assert found("Anna called; white count; no hope") == []
    assert [t for t, _, _ in found("Dr White saw her")] == ["White"]


def test_places_by_folded_name_and_abbreviation_as_written() -> None:
    text = (
        "Moved from the cardiac intensive care unit to HSL (hopital saint louis); cicu is not CICU; "
        "Fondation Lenval."
    )
    assert found(text) == [
        ("CICU", "LOCATION/hospital", "roster"),
        ("Fondation Lenval", "ORGANIZATION", "roster"),
        ("HSL", "LOCATION/hospital", "roster"),
        ("cardiac intensive care unit", "LOCATION/hospital", "roster"),
        ("hopital saint louis", "LOCATION/hospital", "roster"),
    ]


def test_roster_typos_only_when_asked() -> None:
    assert found("Dr Jnoes") == []
    roster = Roster(clinicians=(Clinician("Zebulon", "Quackenbush"),))
    assert [t for t, _, _ in found("Dr Quackenbsh", roster, roster_typos=True)] == ["Quackenbsh"]


def test_roster_files(tmp_path: Path) -> None:
    staff = tmp_path / "staff.csv"
    staff.write_text("Given,Family,Badge\nAnna,Jones,17\n,de la Cruz,\n,,\n", encoding="utf-8")
    units = tmp_path / "units.csv"
    units.write_text("name,abbreviations,kind\nCardiac ICU,CICU|CCU; CSU,\nClinique du Parc,,ORGANIZATION\n")
    roster = read_roster(staff, units)
    assert roster.clinicians == (Clinician("Anna", "Jones"), Clinician("", "de la Cruz"))
    assert roster.places == (
        Place("Cardiac ICU", ("CICU", "CCU", "CSU"), "LOCATION/hospital"),
        Place("Clinique du Parc", (), "ORGANIZATION"),
    )
    assert "Jones" not in repr(roster) and "2 clinicians, 2 places" in repr(roster)


@pytest.mark.parametrize(
    ("reader", "content", "reason"),
    [
        (read_clinicians, f"name\n{SECRET}\n", r"the header lacks \['given', 'family'\]"),
        (read_places, f"name,kind\n{SECRET},PLACE/ward\n", "line 2: unknown label 'PLACE/ward'"),
        (read_clinicians, f"given,family\nA,{SECRET * 20}\n", "line 2: family is too long"),
    ],
)
def test_bad_roster_files_name_file_and_line_never_a_name(
    tmp_path: Path, reader: object, content: str, reason: str
) -> None:
    path = tmp_path / "roster.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError, match=reason) as caught:
        reader(path)  # type: ignore[operator]
    assert SECRET not in str(caught.value)


def test_rosters_named_in_a_configuration_file_relative_to_it(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "staff.csv").write_text("given,family\nAnna,Jones\n", encoding="utf-8")
    (tmp_path / "site" / "units.csv").write_text("name,abbreviations\nCardiac ICU,CICU\n", encoding="utf-8")
    config_file = tmp_path / "site" / "site.toml"
    config_file.write_text(
        '[pipeline]\ndetectors = ["patterns"]\n[known]\nclinicians = "staff.csv"\nplaces = "units.csv"\n'
    )
    config = PipelineConfig.from_toml(config_file)
    doc = Pipeline(config).detect(Document("d", "Dr Jones moved him to CICU."))
    assert [(s.text, s.full_label) for s in doc.spans] == [
        ("Jones", "NAME/clinician"),
        ("CICU", "LOCATION/hospital"),
    ]
    with pytest.raises(ConfigError, match="cannot read roster"):
        PipelineConfig.from_mapping({"known": {"clinicians": "absent.csv"}}, base=tmp_path)
