"""Identifiers: SSN with invalid areas refused, NIR only with a checking key, numbers after context words."""

from __future__ import annotations

import pytest

from anonymed.detect.patterns.detector import PatternDetector, PatternParams
from anonymed.detect.patterns.ids import nir_key_is_valid, ssn_is_valid
from anonymed.document import Document
from anonymed.pipeline import Pipeline


def found(text: str, lang: str = "en", **options: bool) -> set[tuple[str, str]]:
    """(full label, text) of every span the detector finds."""
    spans = PatternDetector(PatternParams(**options)).detect_text(text, lang)
    return {(span.full_label, span.text) for span in spans}


@pytest.mark.parametrize(
    ("area", "group", "serial", "valid"),
    [
        ("123", "45", "6789", True),  # ordinary
        ("000", "45", "6789", False),  # area 000 never issued
        ("666", "45", "6789", False),  # area 666 never issued
        ("912", "45", "6789", False),  # 9xx areas are ITINs
        ("123", "00", "6789", False),  # group 00
        ("123", "45", "0000", False),  # serial 0000
    ],
)
def test_ssn_validity_follows_the_issuing_rules(area: str, group: str, serial: str, valid: bool) -> None:
    assert ssn_is_valid(area, group, serial) is valid


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Here's my SSN: 460-89-9847", "460-89-9847"),  # dashes and a cue
        ("SSN 460899847 on file", "460899847"),  # bare digits after a cue
        ("card 123-45-6789 shown", "123-45-6789"),  # dashes alone
    ],
)
def test_valid_ssns_are_found(text: str, expected: str) -> None:
    assert ("ID/ssn", expected) in found(text)


@pytest.mark.parametrize(
    "text",
    [
        "SSN: 666-12-3456",  # invalid area
        "SSN: 000-12-3456",  # invalid area
        "SSN: 912-12-3456",  # invalid area
        "ref 460899847 only",  # nine bare digits without a cue are not an SSN
    ],
)
def test_invalid_or_uncued_ssns_are_not_ssns(text: str) -> None:
    assert not any(label == "ID/ssn" for label, _ in found(text))


@pytest.mark.parametrize(
    ("nir", "valid"),
    [
        ("185057800608491", True),  # key 91 = 97 - (1850578006084 mod 97)
        ("269029934173285", True),  # another valid number
        ("185057800608490", False),  # key off by one
        ("185057800608591", False),  # body changed, key kept
        ("185052A00608435", True),  # Corsica 2A counts as 19
        ("185052B00608462", True),  # Corsica 2B counts as 18
        ("185052A00608462", False),  # 2A with the 2B key
        ("1850578006084", False),  # no key at all
        ("18505780060849A", False),  # letters in the key
    ],
)
def test_nir_key_is_checked(nir: str, valid: bool) -> None:
    assert nir_key_is_valid(nir) is valid


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("NIR 1 85 05 78 006 084 91 connu", "1 85 05 78 006 084 91"),  # usual grouping
        ("numéro 185057800608491.", "185057800608491"),  # compact
        ("assuré 1 85 05 2A 006 084 35", "1 85 05 2A 006 084 35"),  # Corsica
        ("code 1 8 5 0 5 7 8 0 0 6 0 8 4 9 1 fin", "1 8 5 0 5 7 8 0 0 6 0 8 4 9 1"),  # letter-spaced
    ],
)
def test_nirs_with_a_valid_key_are_nirs(text: str, expected: str) -> None:
    assert ("ID/nir", expected) in found(text, "fr")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("NIR 1 85 05 78 006 084 90 connu", "1 85 05 78 006 084 90"),  # wrong key: an identifier, not a NIR
        ("assuré 1 81 0249 181386 ok", "1 81 0249 181386"),  # thirteen digits without key
    ],
)
def test_nir_shaped_numbers_without_a_valid_key_are_other_ids(text: str, expected: str) -> None:
    result = found(text, "fr")
    assert ("ID/other", expected) in result
    assert not any(label == "ID/nir" for label, _ in result)


def test_a_mistyped_nir_named_as_such_outranks_a_phone_reading() -> None:
    """ "Numéro de sécurité sociale : 2 84 11 75 112 045 12" (wrong key) had come out a phone number."""
    text = "Numéro de sécurité sociale : 2 84 11 75 112 045 12."
    spans = Pipeline().detect(Document("d", text, {"lang": "fr"})).spans
    assert [(s.full_label, s.text) for s in spans] == [("ID/other", "2 84 11 75 112 045 12")]
    scores = {s.text: s.score for s in PatternDetector().detect(Document("d", text, {"lang": "fr"}))}
    assert scores["2 84 11 75 112 045 12"] >= 0.9
    plain = {
        s.text: s.score
        for s in PatternDetector().detect(Document("d", "réf 2 84 11 75 112 045 12", {"lang": "fr"}))
    }
    assert plain.get("2 84 11 75 112 045 12", 0.0) < 0.9  # unnamed: still only a shape


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("MRN: 1234567 admitted", "en", ("ID/mrn", "1234567")),  # MRN
        ("medical record number 00123456", "en", ("ID/mrn", "00123456")),  # spelled out
        ("IPP: 5820136284", "fr", ("ID/mrn", "5820136284")),  # French patient id
        ("Son IPP est 8392.", "fr", ("ID/mrn", "8392")),  # filler word, short value
        ("NDA : 837264503 - IPP", "fr", ("ID/account", "837264503")),  # French stay number
        ("account # 9988776655", "en", ("ID/account", "9988776655")),  # account
        ("Dossier N° 9281973 du", "fr", ("ID/account", "9281973")),  # dossier
        ("N° RPPS 2003968383.", "fr", ("ID/other", "2003968383")),  # professional id
        ("specimen no. SP-2231-77 sent", "en", ("ID/other", "SP-2231-77")),  # letters and dashes
        ("Requisition 7729-4481-0  Collected", "en", ("ID/other", "7729-4481-0")),  # a lab order's number
        ("OHIP 1234-567-890-AB on file", "en", ("ID/plan", "1234-567-890-AB")),  # a provincial health card
        # a state's code between the cue and the number, a licence in groups of three digits (New York's)
        ("Driver's license (NY) 123456789 verified", "en", ("ID/license", "123456789")),
        ("Driver's license (NY) 123 456 789 verified", "en", ("ID/license", "123 456 789")),
        ("PHN: 9123456789", "en", ("ID/plan", "9123456789")),
        ("Identifiant de la visite: 42bg98765", "fr", ("ID/account", "42bg98765")),  # mixed value
    ],
)
def test_numbers_after_context_words_are_ids(text: str, lang: str, expected: tuple[str, str]) -> None:
    assert expected in found(text, lang)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("| 9010572683 | 10294875403 |", "10294875403"),  # long bare number in a table
        ("Visite 28BG04493 faite", "28BG04493"),  # mixed letters and digits
    ],
)
def test_long_bare_numbers_are_other_ids(text: str, expected: str) -> None:
    assert ("ID/other", expected) in found(text, "fr")


@pytest.mark.parametrize(
    "text",
    [
        "ID: tmax 101.2 on abx",  # infectious-disease heading with a temperature
        "pt #3 of the day",  # short number after #
        "bed No. 12",  # short number after No.
        "gave 1000000 units",  # quantity
        "plt 250000 today",  # six digits are not an id by default
    ],
)
def test_measurements_are_not_ids(text: str) -> None:
    assert not any(label.startswith("ID") for label, _ in found(text))


def test_six_digit_numbers_are_ids_in_high_recall_mode() -> None:
    assert ("ID/other", "250000") in found("plt 250000 today", high_recall=True)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("FIN: 2210987 / MRN 7730042", ("ID/account", "2210987")),  # Financial Identification Number
        ("license plate 7ABC123 noted by EMS", ("ID/vehicle", "7ABC123")),  # HIPAA: vehicle identifiers
        ("Licence Plate #: 7ABC123", ("ID/vehicle", "7ABC123")),
        ("plate number 4ABC567", ("ID/vehicle", "4ABC567")),
        ("pump S/N 88231XZ checked", ("ID/device", "88231XZ")),  # HIPAA: device serial numbers
        ("SN: 88231XZ", ("ID/device", "88231XZ")),
        ("device serial SN-88231-XZ", ("ID/device", "SN-88231-XZ")),
        ("DL# S530-4605-3429", ("ID/license", "S530-4605-3429")),  # a driver's licence number
        ("DL: S530-4128-7712. Employer: Raytheon", ("ID/license", "S530-4128-7712")),  # with a colon
        ("Driver's license: D1234567", ("ID/license", "D1234567")),
        ("Medicaid member ID YH84729103", ("ID/plan", "YH84729103")),  # a health plan beneficiary number
        ("insurance policy # 99887766", ("ID/plan", "99887766")),
        ("Medicaid ID MN0023381945.", ("ID/plan", "MN0023381945")),  # had been a French phone, "MN" left
        ("Medicaid #: 0023381945", ("ID/plan", "0023381945")),
        ("Subscriber ID: XEB948271635", ("ID/plan", "XEB948271635")),
        ("Insurance ID 88213477", ("ID/plan", "88213477")),
        ("Workers' comp claim WC-2025-118274.", ("ID/other", "WC-2025-118274")),  # had lost only its digits
        ("Claim number: 2025-118274-01", ("ID/other", "2025-118274-01")),
        ("VA claim # 28 443 912. Reports", ("ID/other", "28 443 912")),  # a VA file number in groups
        ("Campus police report #CPD-25-00871.", ("ID/other", "CPD-25-00871")),  # letters right after "#"
        # had stayed: an Army service number, a member ID after its insurer's letters, a group number
        ("Veteran, service number RA 12 345 678, Desert Storm.", ("ID/other", "RA 12 345 678")),
        ("Member: ID UHC 998 877 665, Group 0704512.", ("ID/plan", "UHC 998 877 665")),
        ("Member: ID UHC 998 877 665, Group 0704512.", ("ID/plan", "0704512")),
        ("group # 88-1204 on the card", ("ID/plan", "88-1204")),
        # had stayed: a plate without "number", a video visit's meeting ID and passcode, a portal user name
        ("Driver's license on file; plate FJK-4471.", ("ID/vehicle", "FJK-4471")),
        ("Zoom meeting ID 812 4471 9920, passcode 5531.", ("ID/other", "812 4471 9920")),
        ("Zoom meeting ID 812 4471 9920, passcode 5531.", ("ID/other", "5531")),
        ("Patient portal username: gwhitaker52.", ("ID/account", "gwhitaker52")),
        ("Login: j.doe for MyChart", ("ID/account", "j.doe")),
        ("user id: ab_cd; then", ("ID/account", "ab_cd")),
    ],
)
def test_hipaa_identifier_kinds_after_their_short_names(text: str, expected: tuple[str, str]) -> None:
    assert expected in found(text)


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("à la fin 2019 le patient allait bien", "fr"),  # "fin" is the end of a period in French
        ("serial 2 doses given", "en"),  # too few digits for an identifier
        ("sn 2 tabs", "en"),
        ("pt claims 2 falls this week", "en"),
        ("claim 3 days ago", "en"),
        ("claim 2 3 days", "en"),
        ("bed #A then room #B12", "en"),  # letters after "#" still need four digits
        ("Medicaid pending since 2024", "en"),  # a year is no identifier
        ("glucose 120 mg/dl 4500 kcal", "en"),  # "dl" the unit, no "#"
        ("Glucose mg/dL: 1200450 fasting", "en"),  # "dL:" right after a slash is the unit
        ("Group A strep positive; group 2 tumor", "en"),  # a group of too few digits
        ("support group 3 times a week", "en"),
        ("on active service 2 weeks", "en"),  # no "number" after "service"
        ("Platelets 145, plate 2.", "en"),  # too few digits after "plate"
        ("Username: pending reset. User name unknown. login to portal failed.", "en"),  # words, no account
        ("Meeting ID to follow, passcode by email", "en"),
    ],
)
def test_short_identifier_names_need_an_identifier_after_them(text: str, lang: str) -> None:
    assert not any(label.startswith("ID") for label, _ in found(text, lang))


def test_a_clinical_trial_registry_number_is_no_identifier_of_a_person() -> None:
    """ClinicalTrials.gov identifiers ("NCT" and 8 digits) name a public study (had become "QZP90581074")."""
    assert not found("Enrolled in NCT01234567 last year.")
    assert ("ID/other", "NCT01234567") in found("ID: NCT01234567")  # a cue still makes it one
    assert ("ID/other", "NCX01234567") in found("Enrolled in NCX01234567 last year.")
