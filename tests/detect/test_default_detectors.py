"""The default detectors (shipped tagger + patterns, merged as the pipeline merges them) on identifier
formats: the tagger never turns a confident format into another label nor glues two identifiers together."""

from __future__ import annotations

import pytest

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.pipeline import Pipeline


@pytest.fixture(scope="module")
def default() -> Pipeline:
    """The default English detectors."""
    return Pipeline(PipelineConfig(lang="en"))


def found(pipeline: Pipeline, text: str) -> list[tuple[str, str]]:
    """(full label, text) of the merged spans, in order."""
    return [(s.full_label, s.text) for s in pipeline.detect(Document("d", text)).spans]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Paid by card 4111 1111 1111 1111 today.", ("ID/account", "4111 1111 1111 1111")),
        ("ITIN 912-70-1234 on the tax form.", ("ID/ssn", "912-70-1234")),
        ("Prescriber NPI 1234567893 signed.", ("ID/other", "1234567893")),
        ("NHS number 943 476 5919 confirmed.", ("ID/mrn", "943 476 5919")),
        ("Email jane.doe@example.com for results.", ("CONTACT/email", "jane.doe@example.com")),
        ("Call her at +44 20 7946 0958 tomorrow.", ("CONTACT/phone", "+44 20 7946 0958")),
        ("my ssn is 078-051121", ("ID/ssn", "078-051121")),
        ("Event logged at 2024-03-15T14:30:00Z by the pump.", ("DATE", "2024-03-15T14:30:00Z")),
        ("John Smith, M.D.", ("NAME/clinician", "John Smith")),
        ("Lives at 123 Main Street, Apt. 236, alone.", ("LOCATION/street", "123 Main Street, Apt. 236")),
        ("Lives alone in Apt 4B, has VNA.", ("LOCATION/street", "Apt 4B")),
        ("Son's phone 001-541-754-3010.", ("CONTACT/phone", "001-541-754-3010")),
    ],
)
def test_formats_keep_their_label_through_the_default_detectors(
    default: Pipeline, text: str, expected: tuple[str, str]
) -> None:
    assert expected in found(default, text)


def test_adjacent_identifiers_stay_separate_spans(default: Pipeline) -> None:
    text = "Cards on file: 4111 1111 1111 1111 5500 0000 0000 0004 4012 8888 8888 1881."
    cards = [value for label, value in found(default, text) if label == "ID/account"]
    assert cards == ["4111 1111 1111 1111", "5500 0000 0000 0004", "4012 8888 8888 1881"]


def test_an_address_with_its_unit_its_town_zip_and_phone_are_separate_spans(default: Pipeline) -> None:
    text = "Lives at 12 Oak Ave, Apt 4, Boston, MA 02114, tel 617-555-1234."
    spans = found(default, text)
    assert ("LOCATION/street", "12 Oak Ave, Apt 4") in spans
    assert ("LOCATION/zip", "02114") in spans
    assert ("CONTACT/phone", "617-555-1234") in spans


def test_hospital_units_rooms_and_appointments_are_no_places(default: Pipeline) -> None:
    text = "Pt transferred to unit 5, rm 12 on floor 3, then OR Suite 2; f/u apt 2 wks."
    assert not [span for span in found(default, text) if span[0].startswith("LOCATION")]


def test_a_header_name_and_its_record_number_are_two_spans(default: Pipeline) -> None:
    assert found(default, "SMITH,JOHN 1234567\nSeen in clinic.")[:2] == [
        ("NAME/patient", "SMITH,JOHN"),
        ("ID/mrn", "1234567"),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # an outsider's probe notes: each was left in the output before
        ("Pt's roommate Caitlin found her at home.", ("NAME", "Caitlin")),
        ("Daughter-in-law Priyanka joined from Toronto.", ("NAME", "Priyanka")),
        ("Submitting physician: Chen, David L MD\nSpecimen: core biopsy.", ("NAME", "Chen, David L")),
        ("Rx sent to Publix Pharmacy #1172, 4030 Bee Ridge Rd. Portal.", ("LOCATION", "Bee Ridge Rd")),
        ("Works at Walgreens on Clark St. Denies SI.", ("LOCATION", "Clark St")),
        ("1400 Hillcrest Ave, Apt 212, Boise ID 83706.", ("LOCATION/city", "Boise")),
    ],
)
def test_relatives_display_names_streets_and_towns_are_found(
    default: Pipeline, text: str, expected: tuple[str, str]
) -> None:
    assert expected in found(default, text)


def test_words_around_a_french_phone_number_are_no_contact() -> None:
    french = Pipeline(PipelineConfig(lang="fr"))
    text = "Sa fille, Mme Camille Roux, joignable au 07 81 22 45 90 ou camille.roux@orange.fr."
    contacts = [span for label, span in found(french, text) if label.startswith("CONTACT")]
    assert contacts == ["07 81 22 45 90", "camille.roux@orange.fr"]


def test_french_words_for_relatives_stay_out_of_a_name() -> None:
    french = Pipeline(PipelineConfig(lang="fr"))
    spans = found(french, "Son voisin M. Lopez passe tous les jours.")
    names = [span for label, span in spans if label == "NAME"]
    assert names == ["M. Lopez"]


def test_a_type_of_diabetes_is_no_date() -> None:
    french = Pipeline(PipelineConfig(lang="fr"))
    # the tagger took the "2" for a day, and the moved dates wrote "diabète de type 21"
    assert found(french, "Antécédents : HTA, diabète de type 2.") == []
