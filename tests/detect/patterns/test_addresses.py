"""US secondary address units (USPS Publication 28, Appendix C2): after a street address, and alone."""

from __future__ import annotations

import pytest

from anonymed.detect.patterns import addresses
from anonymed.detect.patterns.detector import PatternDetector


def found(text: str, lang: str = "en") -> set[tuple[str, str]]:
    """(full label, text) of every span the pattern detector finds."""
    return {(span.full_label, span.text) for span in PatternDetector().detect_text(text, lang)}


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("Lives at 123 Main Street, Apt. 236, with wife", "123 Main Street, Apt. 236"),
        ("Moved to 45 Elm St #12 last year", "45 Elm St #12"),  # "#" for an unknown designator
        ("Address: 4 Elm Rd Ste 4B", "4 Elm Rd Ste 4B"),
        ("77 N Martin Luther King Jr Blvd, Unit 12, Springfield", "77 N Martin Luther King Jr Blvd, Unit 12"),
        ("1600 Pennsylvania Ave NW, Bldg 3, Rm 12", "1600 Pennsylvania Ave NW, Bldg 3, Rm 12"),  # two units
        ("ADDRESS 55 OAK DR APT 4", "55 OAK DR APT 4"),  # in capitals
        ("Clinic at 200 First Ave, Suite 300.", "200 First Ave, Suite 300"),
        ("500 W 5th St Apt 2C", "500 W 5th St Apt 2C"),
        ("12 Oak St. Unit B", "12 Oak St. Unit B"),  # a letter for a number
        ("123 Main St, 3rd Floor", "123 Main St, 3rd Floor"),
        ("9 Harbor Way, Slip 14", "9 Harbor Way, Slip 14"),
        ("31 Pine Lane Trlr 7", "31 Pine Lane Trlr 7"),
        ("8 McDonald Road, Apt #5", "8 McDonald Road, Apt #5"),
    ],
)
def test_a_unit_after_a_street_address_is_one_street_span_with_it(text: str, address: str) -> None:
    assert ("LOCATION/street", address) in found(text)


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("Lives alone in Apt 4B, has VNA", "Apt 4B"),
        ("Apt. 236", "Apt. 236"),
        ("APARTMENT 7", "APARTMENT 7"),
        ("moved into Apartment 12-C", "Apartment 12-C"),
        ("Suite 279", "Suite 279"),  # at a line start
        ("Cardiology Associates, Suite 200", "Suite 200"),  # after a comma
        ("Her address is Suite 279.", "Suite 279"),
        ("Address: Ste 4B", "Ste 4B"),
        ("office at STE 110", "STE 110"),
    ],
)
def test_apartment_and_suite_designators_alone_are_street_spans(text: str, unit: str) -> None:
    assert ("LOCATION/street", unit) in found(text)


@pytest.mark.parametrize(
    "text",
    [
        "Pt transferred to unit 5 overnight",  # a hospital unit
        "Transferred to Unit 12 from the ED",
        "rm 12 floor 3",
        "Bldg 4, Room 210",  # rooms and buildings of the hospital
        "Floor 3 is the step-down unit",
        "taken to OR Suite 2",  # an operating room
        "Endoscopy Suite 3, then to PACU",
        "in the procedure suite 4",  # lower case
        "f/u apt 2 wks",  # an appointment
        "Next Apt 3 weeks with PCP",  # a time after the number
        "Apt 12/5 with cardiology",  # a date after the designator
        "APT 3PM",
        "APTT 32, INR 1.1",  # a coagulation test
        "Apt test negative",  # the Apt-Downey test has no number
        "#12 Fr foley placed",  # a catheter size
        "2 units PRBC given",
        "PT HAD 2 HEAD CT RM 5",  # a scan, not a court
        "LEVEL 2 AXILLARY LN #3",  # a lymph node, not a lane
        "Seen 3 times by Dr. Smith, Rm 4",
        "gave 5000 UNITS SQ #2",
        "Lives at 12 oak st apt 4",  # lower case: no street address known
    ],
)
def test_clinical_rooms_units_and_appointments_are_no_addresses(text: str) -> None:
    assert not any(label.startswith("LOCATION") for label, _ in found(text))


def test_a_zip_code_after_florida_is_no_floor() -> None:
    assert found("123 Main St, FL 33101") == {("LOCATION/zip", "33101")}


def test_an_address_its_town_zip_and_phone_stay_separate_spans() -> None:
    assert found("12 Oak Ave, Apt 4, Miami, FL 33101 555-123-4567") == {
        ("LOCATION/street", "12 Oak Ave, Apt 4"),
        ("LOCATION/city", "Miami"),
        ("LOCATION/zip", "33101"),
        ("CONTACT/phone", "555-123-4567"),
    }


def test_units_are_english_only() -> None:
    assert found("Apt. 236", "fr") == set()


@pytest.mark.parametrize(
    ("words", "capitals", "expected"),
    [("street st", False, "Street|St"), ("lane ln ct", True, "LANE")],
)
def test_suffix_alternatives_are_capitalised_longest_first(words: str, capitals: bool, expected: str) -> None:
    assert addresses._alternatives(words, capitals=capitals) == expected


@pytest.mark.parametrize(
    ("text", "street", "town"),
    [
        ("Pt resides at 88 Old Mill Pkwy, Crescent City, CA.", "88 Old Mill Pkwy", "Crescent City"),
        ("LIVES AT 45 ELM ST, DAKOTA CITY, NE", "45 ELM ST", "DAKOTA CITY"),
        ("12 Oak Ave, Apt 4, Hodgkins, IL", "12 Oak Ave, Apt 4", "Hodgkins"),
        ("7 Chapel Mews NW, Glen Echo, MD", "7 Chapel Mews NW", "Glen Echo"),
    ],
)
def test_a_street_its_town_and_state_give_the_town_without_a_zip_code(
    text: str, street: str, town: str
) -> None:
    spans = found(text)
    assert ("LOCATION/street", street) in spans
    assert ("LOCATION/city", town) in spans


@pytest.mark.parametrize(
    "text",
    [
        "Rm 12, Crescent City, CA",  # no street
        "88 Old Mill, Crescent City, CA",  # no street suffix
        "88 Old Mill Pkwy, Crescent City",  # no state after the town
        "88 Old Mill Pkwy, Crescent City, California",  # a state's name: the gazetteer's part
    ],
)
def test_no_town_without_the_whole_address_line(text: str) -> None:
    assert not any(label == "LOCATION/city" for label, _ in found(text))


@pytest.mark.parametrize(
    ("text", "town"),
    [
        ("Patient joined from her home in Brattleboro, VT.", "Brattleboro"),  # too small for the gazetteer
        ("Lives in New York, NY with her son.", "New York"),  # common words, but a city of the gazetteer
        ("moved to Saugerties, NY in May", "Saugerties"),
        ("GREW UP IN BRATTLEBORO, VT", "BRATTLEBORO"),
    ],
)
def test_a_town_and_its_state_after_a_place_preposition(text: str, town: str) -> None:
    assert ("LOCATION/city", town) in found(text)


@pytest.mark.parametrize(
    "text",
    [
        "Admitted to Unit, OR today.",  # the operating room; a common word
        "TRANSFERRED TO MICU, CO 4.5",  # a unit, the cardiac output
        "EPISODES OF DESATS, AS LOW AS 74%",  # a word in capitals after the code: the code is a word
        "SECONDARY TO ADRIAMYCIN, IN THIS CASE",
        "Seen in Rounds, MD aware.",  # a credential, never a state here
        "Referred to Quimby, PA for a consult.",
        "Brattleboro, VT is far.",  # no place preposition before it
        "lives in Brattleboro, VTach noted",  # no state code: a longer word
    ],
)
def test_no_town_of_a_state_code_without_its_context(text: str) -> None:
    assert not any(label == "LOCATION/city" for label, _ in found(text))


@pytest.mark.parametrize(
    ("text", "street", "town"),
    [
        # Royal Mail: the flat, the building number and street, then the post town and postcode
        ("Flat 2, 17 Mill Row, Oxford OX1 2AB.", "Flat 2, 17 Mill Row", "Oxford"),  # "Oxford" had been a name
        ("FLAT 4B 22 ELM GROVE, LEEDS LS6 2QT", "FLAT 4B 22 ELM GROVE", "LEEDS"),
        ("of 14 Ravenscroft Gardens, Apt 2, Harrogate HG1 2AB", "14 Ravenscroft Gardens, Apt 2", "Harrogate"),
    ],
)
def test_a_british_address_gives_its_flat_street_and_post_town(text: str, street: str, town: str) -> None:
    spans = found(text)
    assert ("LOCATION/street", street) in spans
    assert ("LOCATION/city", town) in spans


@pytest.mark.parametrize(
    "text",
    [
        "The flat 2 weeks ago, no change",  # no street after it
        "Flat 3, Cedar House",  # a building's name: left to the tagger
        "Referred by Dr Jones, GP AB1 2CD",  # two capitals before a postcode: no town
        "BP 120/80, HR 88 OX1 2AB",  # no comma right before the word
    ],
)
def test_no_british_street_or_town_without_their_shape(text: str) -> None:
    spans = found(text)
    assert not any(label in ("LOCATION/street", "LOCATION/city") for label, _ in spans)
