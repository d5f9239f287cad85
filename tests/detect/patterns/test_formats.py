"""Identifier formats from their specifications: found with the right label and subtype, and only them.

Cases are built from the formats' published rules and example values (ISO 8601, ISO/IEC 7812, ISO 13616,
IRS ITIN ranges, CMS NPI and MBI, NHS Digital, HMRC, Royal Mail, IEEE 802 MAC, RFC 5952 IPv6).
"""

from __future__ import annotations

import pytest

from anonymed.detect.patterns.detector import PatternDetector, PatternParams
from anonymed.detect.patterns.formats import RECOGNIZERS
from anonymed.detect.patterns.recognizer import Recognizer


def spans(text: str, lang: str = "en", **options: bool) -> dict[str, tuple[str, float]]:
    """Span text -> (full label, score) for every span the pattern detector finds."""
    found = PatternDetector(PatternParams(**options)).detect_text(text, lang)
    return {span.text: (span.full_label, span.score) for span in found}


def labels(text: str, lang: str = "en") -> set[tuple[str, str]]:
    """(full label, text) of every span found."""
    return {(label, value) for value, (label, _) in spans(text, lang).items()}


@pytest.mark.parametrize(
    ("text", "value", "label"),
    [
        ("Event logged at 2024-03-15T14:30:00Z by the pump.", "2024-03-15T14:30:00Z", "DATE"),
        ("221 Rue Sainte-Catherine, Montréal, QC H2X 1L3", "H2X 1L3", "LOCATION/zip"),  # Canada Post
        ("Medicare HICN 123-45-6789A on file", "123-45-6789A", "ID/plan"),  # SSN + beneficiary code
        ("HICN: 123456789C1", "123456789C1", "ID/plan"),
        ("Toronto, ON M5V2T6 since May", "M5V2T6", "LOCATION/zip"),
        ("at 2024-03-15T14:30:00.123+01:00 exactly", "2024-03-15T14:30:00.123+01:00", "DATE"),
        ("stamp 2024-03-15T14:30-05:00", "2024-03-15T14:30-05:00", "DATE"),
        ("basic format 20240315T143000Z", "20240315T143000Z", "DATE"),
        ("drawn 2024-03-15 14:30:00 in ED", "2024-03-15 14:30:00", "DATE"),
        ("Admitted 5-MAY-2021 via ED", "5-MAY-2021", "DATE"),
        ("born 22-nov-1972 in town", "22-nov-1972", "DATE/birth"),
        ("last seen May-21 in clinic", "May-21", "DATE"),
        ("report of SEP-2019 reviewed", "SEP-2019", "DATE"),
        ("host fe80::1 refused", "fe80::1", "LOCATION/ip"),
        ("network 2001:db8::/32 blocked", "2001:db8::/32", "LOCATION/ip"),
        (
            "from 2001:0db8:85a3:0000:0000:8a2e:0370:7334 today",
            "2001:0db8:85a3:0000:0000:8a2e:0370:7334",
            "LOCATION/ip",
        ),
        ("pump MAC 00:1A:2B:3C:4D:5E registered", "00:1A:2B:3C:4D:5E", "ID/device"),
        ("adapter 00-1a-2b-3c-4d-5e", "00-1a-2b-3c-4d-5e", "ID/device"),
        ("switch port 001A.2B3C.4D5E", "001A.2B3C.4D5E", "ID/device"),
        ("IBAN GB82 WEST 1234 5698 7654 32 for refunds", "GB82 WEST 1234 5698 7654 32", "ID/account"),
        ("virement FR1420041010050500013M02606 reçu", "FR1420041010050500013M02606", "ID/account"),
        ("Medicare MBI 1EG4-TE5-MK73 on file", "1EG4-TE5-MK73", "ID/plan"),
        ("beneficiary 1EG4TE5MK73", "1EG4TE5MK73", "ID/plan"),
        ("NHS number 943 476 5919 confirmed", "943 476 5919", "ID/mrn"),
        ("NI number AB 12 34 56 C on the form", "AB 12 34 56 C", "ID/other"),
        ("National Insurance: JG103759A", "JG103759A", "ID/other"),
        ("Postcode SW1A 1AA, London", "SW1A 1AA", "LOCATION/zip"),
        ("lives at 10 High St, Manchester M1 1AE", "M1 1AE", "LOCATION/zip"),
        ("address: Flat 2, CR2 6XH", "CR2 6XH", "LOCATION/zip"),
        ("paid with card 4111 1111 1111 1111 today", "4111 1111 1111 1111", "ID/account"),
        ("Amex 3782 822463 10005 on file", "3782 822463 10005", "ID/account"),
        ("cc 5500-0000-0000-0004", "5500-0000-0000-0004", "ID/account"),
        ("ITIN 912-70-1234 filed", "912-70-1234", "ID/ssn"),
        ("prescriber NPI 1234567893", "1234567893", "ID/other"),
        ("routing number 021000021", "021000021", "ID/account"),
        ("my ssn is 078-051121", "078-051121", "ID/ssn"),
        ("SSN: 078 05 1120", "078 05 1120", "ID/ssn"),
        (
            "Pacemaker UDI (01)00643169007222(17)160128(21)BLC200461H implanted",
            "(01)00643169007222(17)160128(21)BLC200461H",
            "ID/device",
        ),
        ("box label (01)09506000134352 (10)LOT42", "(01)09506000134352 (10)LOT42", "ID/device"),
        ("Attends mass. Instagram @maria_g_1985.", "@maria_g_1985", "CONTACT/handle"),
        ("follow her on twitter: @JaneDoe_RN", "@JaneDoe_RN", "CONTACT/handle"),
        ("IG: @rn.life.22 posts daily", "@rn.life.22", "CONTACT/handle"),
        ("son's TikTok account is @x_9", "@x_9", "CONTACT/handle"),
        ("Last seen Spring 2023.", "Spring 2023", "DATE"),  # the season had been read as a surname
        ("SUMMER OF 2002 surgery", "SUMMER OF 2002", "DATE"),
    ],
)
def test_formats_are_found_with_their_label(text: str, value: str, label: str) -> None:
    assert (label, value) in labels(text)


@pytest.mark.parametrize(
    ("text", "value", "label"),
    [
        ("month 13: 2024-13-15T14:30:00Z", "2024-13-15T14:30:00Z", "DATE"),
        ("times 10:30:45 and 12::30", "10:30:45", "LOCATION/ip"),
        ("times 10:30:45 and 12::30", "12::30", "LOCATION/ip"),
        ("five pairs 00:1A:2B:3C:4D only", "00:1A:2B:3C:4D", "ID/other"),
        ("seven pairs 00:1A:2B:3C:4D:5E:6F", "00:1A:2B:3C:4D:5E:6F", "ID/other"),
        ("code GB82 WEST 1234 5698 7654 33 unchecked", "GB82 WEST 1234 5698 7654 33", "ID/account"),
        ("MBI 1SG4-TE5-MK73 has an S", "1SG4-TE5-MK73", "ID/plan"),  # S is not an MBI letter
        ("MBI 0EG4-TE5-MK73 starts with 0", "0EG4-TE5-MK73", "ID/plan"),
        ("NI number GB 12 34 56 A", "GB 12 34 56 A", "ID/other"),  # GB never issued
        ("NI number QQ 12 34 56 C", "QQ 12 34 56 C", "ID/other"),  # Q never first (HMRC's dummy prefix)
        ("NI number AB 12 34 56 E", "AB 12 34 56 E", "ID/other"),  # suffix A to D only
        ("Q1 1AA is no postcode", "Q1 1AA", "LOCATION/zip"),  # Q never starts a postcode
        ("SW1A 1CA is no postcode", "SW1A 1CA", "LOCATION/zip"),  # C never in the inward code
        ("compact SW1A1AA here", "SW1A1AA", "LOCATION/zip"),  # without its space, only with a cue
        ("ITIN 912-40-1234", "912-40-1234", "ID/ssn"),  # middle group 40: outside the ITIN ranges
        ("code 1234567893 alone", "1234567893", "ID/account"),  # an NPI shape is no account
        ("ssn 12345", "12345", "ID/ssn"),  # five digits are not an SSN
        ("code H2X 1L3 alone", "H2X 1L3", "LOCATION/zip"),  # a Canadian code only after its province
        ("lab 123-45-6789A result", "123-45-6789A", "ID/plan"),  # a HICN only after its name
        ("Montréal, QC D2X 1L3", "D2X 1L3", "LOCATION/zip"),  # D never in a Canadian code
        ("Whitehorse, YT W1A 1A1", "W1A 1A1", "LOCATION/zip"),  # W never first
        ("part (01)0950600013435 short", "(01)0950600013435", "ID/other"),  # 13 digits: no GTIN-14
        ("d/c @home with VNA", "@home", "CONTACT/handle"),  # no network named: nursing shorthand
        ("PACING @ 60, @bedside", "@bedside", "CONTACT/handle"),
        ("instagram: email jane.doe@gmail.com", "@gmail.com", "CONTACT/handle"),  # an e-mail's domain
        ("@home per instagram", "@home", "CONTACT/handle"),  # the network named after it
        ("on instagram @123", "@123", "CONTACT/handle"),  # digits alone
        ("Spring 20233 units", "Spring 20233", "DATE"),  # no year
        ("in the spring of 2002", "spring of 2002", "DATE"),  # lower case: the year alone, as before
    ],
)
def test_near_misses_are_not_taken_for_the_format(text: str, value: str, label: str) -> None:
    assert (label, value) not in labels(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("verified identity with DOB and last 4 SSN 4471.", "4471"),
        ("last four of her social security number: 0937", "0937"),
        ("SSN ending in 2210, confirmed", "2210"),
        ("SSN (last 4) 8812", "8812"),
        ("SSN XXX-XX-6643 on file", "6643"),
        ("ss# ***-**-1029", "1029"),
    ],
)
def test_the_last_four_digits_of_an_ssn_are_an_identifier(text: str, value: str) -> None:
    assert ("ID/other", value) in labels(text)


@pytest.mark.parametrize(
    "text",
    [
        "last 4 days SSN pending 2210",  # "last 4" of something else
        "SSN on file, 4 weeks ago, 2210 mL",
        "XXX-XX-66431",  # five digits after the mask
        "last 4 readings 1200",
    ],
)
def test_four_digits_without_their_ssn_announcement_are_not_its_last_four(text: str) -> None:
    assert not any(value.isdigit() and len(value) == 4 for _, value in labels(text))


def test_a_valid_check_digit_raises_the_score_and_a_wrong_one_lowers_it() -> None:
    valid = spans("IBAN GB82 WEST 1234 5698 7654 32")["GB82 WEST 1234 5698 7654 32"]
    typo = spans("IBAN GB82 WEST 1234 5698 7654 33")["GB82 WEST 1234 5698 7654 33"]
    assert valid == ("ID/account", 1.0)
    assert typo[0] == "ID/account" and typo[1] < valid[1]  # a mistyped IBAN is still an identifier
    card, bad_card = spans("card 4111 1111 1111 1111"), spans("card 4111 1111 1111 1112")
    assert card["4111 1111 1111 1111"][1] > bad_card["4111 1111 1111 1112"][1] > 0.5
    npi, bad_npi = spans("NPI 1234567893"), spans("NPI 1234567890")
    assert npi["1234567893"] == ("ID/other", 1.0) and bad_npi["1234567890"][1] < 1.0
    nhs, bad_nhs = spans("NHS no 943 476 5919"), spans("NHS no 943 476 5918")
    assert nhs["943 476 5919"] == ("ID/mrn", 1.0)
    assert bad_nhs["943 476 5918"][0] == "ID/mrn" and bad_nhs["943 476 5918"][1] < 1.0


def test_a_udi_whose_gtin_check_fails_is_still_a_device_identifier() -> None:
    valid = spans("UDI (01)09506000134352(21)A1")["(01)09506000134352(21)A1"]
    typo = spans("UDI (01)09506000134353(21)A1")["(01)09506000134353(21)A1"]
    assert valid == ("ID/device", 1.0)
    assert typo[0] == "ID/device" and 0.9 < typo[1] < valid[1]  # still above a phone reading of its digits


def test_a_grouped_card_with_a_wrong_check_digit_is_still_an_account_number() -> None:
    assert spans("paid 4111 1111 1111 1112")["4111 1111 1111 1112"][0] == "ID/account"


def test_a_cued_ssn_with_an_unissuable_area_is_an_identifier_but_not_an_ssn() -> None:
    assert spans("SSN: 666-12-3456")["666-12-3456"][0] == "ID/other"


def test_adjacent_card_numbers_stay_separate_spans() -> None:
    text = "cards 4111 1111 1111 1111 5500 0000 0000 0004, 4012888888881881 on file"
    found = spans(text)
    assert {"4111 1111 1111 1111", "5500 0000 0000 0004", "4012888888881881"} <= set(found)
    assert all(label == "ID/account" for label, _ in found.values())


@pytest.mark.parametrize(
    "text",
    [
        "Call +44 20 7946 0958 today",
        "Call +44 (0)20 7946 0958 today",
        "UK office 020 7946 0958",
        "Call 0049 30 901820 today",
        "phone +33 1 42 68 53 00",
        "tel +61 2 9374 4000",
        "+7 495 123-45-67 office",
        "Mobile: +91 98765 43210",
        "call +81 3-1234-5678",
    ],
)
def test_foreign_phone_numbers_are_phones(text: str) -> None:
    found = [label for label, _ in spans(text).values()]
    assert found == ["CONTACT/phone"]


@pytest.mark.parametrize(
    "text", ["Dose 2.5 mg", "range 12.0-16 today", "see page 1/1", "pg 2/2 of the flowsheet"]
)
def test_numbers_that_are_not_dates(text: str) -> None:
    assert not any(label.startswith("DATE") for label, _ in spans(text).values())


def test_every_recognizer_is_declared_as_data() -> None:
    assert all(isinstance(r, Recognizer) and r.pattern.pattern for r in RECOGNIZERS)
    assert len({r.name for r in RECOGNIZERS}) == len(RECOGNIZERS)


@pytest.mark.parametrize(
    ("text", "lang", "is_date"),
    [
        ("settings of 15/5 tolerated", "en", False),  # English notes write month/day
        ("secured at 21/2 at the lip", "en", False),
        ("seen on 13/10 in clinic", "en", True),  # a date word before it
        ("vu le 13/10 en consultation", "fr", True),  # French notes write day/month
        ("drain placed 7/22", "en", True),
    ],
)
def test_english_short_dates_are_month_first(text: str, lang: str, is_date: bool) -> None:
    assert any(label.startswith("DATE") for label, _ in spans(text, lang).values()) is is_date


@pytest.mark.parametrize(
    "text",
    [
        "admitted 01sep2018 via ED",
        "seen on Monday's round, 5-MAY-2021",
        "born 22-nov-1972",
        "due 3 mars 2020",
    ],
)
def test_a_shared_view_finds_the_same_named_dates_as_a_plain_scan(text: str) -> None:
    from anonymed.detect.view import NoteView
    from anonymed.document import Document

    detector = PatternDetector()
    lang = "fr" if "mars" in text else "en"
    via_view = detector.detect_view(NoteView(Document("d", text, {"lang": lang})))
    plain = detector.detect_text(text, lang)
    assert via_view == plain and any(span.label.value == "DATE" for span in plain)


@pytest.mark.parametrize(
    ("text", "value", "found"),
    [
        ("Immatriculation du véhicule : GH-447-KL.", "GH-447-KL", True),  # a French plate (SIV)
        ("Plaque AB-123-CD, voiture grise", "AB-123-CD", True),
        ("Bilan IO-123-UU", "IO-123-UU", False),  # I, O and U are never issued
        ("lot SS-123-AB", "SS-123-AB", False),  # nor SS first
        ("plaque AB-000-CD", "AB-000-CD", False),  # nor 000
        ("ref XAB-123-CD", "AB-123-CD", False),  # inside a longer code
    ],
)
def test_french_plates_in_french_notes(text: str, value: str, found: bool) -> None:
    assert (("ID/vehicle", value) in labels(text, "fr")) is found
