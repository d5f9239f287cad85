"""Names a record's layout gives away: "SURNAME,FIRSTNAME" headers, dictation initials, signature lines."""

from __future__ import annotations

import pytest

from anonymed.detect.patterns.detector import PatternDetector


def labels(text: str) -> set[tuple[str, str]]:
    """(full label, text) of every span the pattern detector finds."""
    return {(span.full_label, span.text) for span in PatternDetector().detect_text(text, "en")}


@pytest.mark.parametrize(
    ("text", "name", "number"),
    [
        ("SMITH,JOHN 1234567\nAdmission note", "SMITH,JOHN", "1234567"),
        ("DOE, JANE A MRN: 00123456", "DOE, JANE A", "00123456"),
        ("VAN DYKE,MARY    #44-55-661", "VAN DYKE,MARY", "44-55-661"),
        ("Okafor,Chidi 987654", "Okafor,Chidi", "987654"),
        ("Boateng, Kwame (MRN 4471823)", "Boateng, Kwame", "4471823"),  # the number in parentheses
        ("Venkatesan, Rajeshwari (#00981234)\nSeen today", "Venkatesan, Rajeshwari", "00981234"),
    ],
)
def test_a_surname_comma_given_name_header_and_its_record_number_are_two_spans(
    text: str, name: str, number: str
) -> None:
    found = labels(text)
    assert ("NAME/patient", name) in found
    assert ("ID/mrn", number) in found


@pytest.mark.parametrize(
    "text",
    [
        "Boston, MA 02114",  # a city and a state code before a ZIP code
        "Springfield,Ohio 45502-1234",  # a ZIP+4
        "BP,HR 120",  # vital signs
        "Seen today, Smith 123456",  # not at the start of the line
    ],
)
def test_no_header_without_its_shape(text: str) -> None:
    assert not any(label == "NAME/patient" for label, _ in labels(text))


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Patient: HALVORSEN, INGRID M    DOB 2/2/1951", "HALVORSEN, INGRID M"),
        ("PATIENT NAME: Ng, Theodore", "Ng, Theodore"),
        ("Name: O'Brien-Walsh, Siobhan", "O'Brien-Walsh, Siobhan"),
        ("Re. pt: VAN DER BERG, ANNEKE J.", "VAN DER BERG, ANNEKE J."),
    ],
)
def test_a_surname_comma_given_name_after_a_field_label_is_the_patient(text: str, name: str) -> None:
    assert ("NAME/patient", name) in labels(text)


@pytest.mark.parametrize(
    "text",
    [
        "PT: ALERT, ORIENTED X3",  # common words after the label
        "Patient: awake, calm",  # lower case
        "Patient: Stable, Afebrile",
        "outpatient: Monday, Tuesday",  # the label inside a word
    ],
)
def test_no_name_field_of_common_words(text: str) -> None:
    assert not any(label.startswith("NAME") for label, _ in labels(text))


@pytest.mark.parametrize(
    ("text", "author", "typist"),
    [
        ("Plan as above.\nABC/xyz\nD: 01/02/2020 T: 01/03/2020", "ABC", "xyz"),
        ("JS/mk", "JS", "mk"),
        ("  RTW/jl 03/04/2019", "RTW", "jl"),
    ],
)
def test_dictation_initials_lines(text: str, author: str, typist: str) -> None:
    found = labels(text)
    assert ("NAME/clinician", author) in found
    assert ("NAME", typist) in found


@pytest.mark.parametrize(
    ("text", "author", "typist"),
    [
        ("Signed on 11/20/2026 at 16:42. Dictated by: PYG/kld", "PYG", "kld"),
        ("Transcribed by JS/mk on 01/03/2020", "JS", "mk"),
        ("DICTATED BY: RTW/jl.", "RTW", "jl"),
    ],
)
def test_dictation_initials_after_dictated_by(text: str, author: str, typist: str) -> None:
    found = labels(text)
    assert ("NAME/clinician", author) in found
    assert ("NAME", typist) in found


@pytest.mark.parametrize(
    "text",
    [
        "CP/pul edema ruled out",  # an abbreviation pair inside a sentence
        "GI/gu: no issues",  # a heading with its colon
        "s/p CABG",
        "POC/pt status discussed",
    ],
)
def test_no_dictation_line_inside_prose(text: str) -> None:
    assert not any(label.startswith("NAME") for label, _ in labels(text))


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("John Smith, M.D.", "John Smith"),
        ("Electronically signed: Smith, M.D.", "Smith"),
        ("SEEN BY JOHN SMITH, M.D. TODAY", "JOHN SMITH"),
        ("plan reviewed. Nancy Jones, RN", "Nancy Jones"),
        ("Emily Parker,RN", "Emily Parker"),
        ("J. Chang, PA saw the patient", "J. Chang"),
        ("Mary O'Neil, NP", "Mary O'Neil"),
        ("SIGNED BY\nJANE DOE, RN", "JANE DOE"),
    ],
)
def test_signature_lines(text: str, name: str) -> None:
    assert ("NAME/clinician", name) in labels(text)


@pytest.mark.parametrize(
    "text",
    [
        "records from Annapolis, MD 21401",  # a city and Maryland before a ZIP code
        "transferred from Annapolis, MD.",  # one word before MD: a city
        "CARDIOLOGY, MD AWARE OF LABS",  # capitals in prose: not a signature line
        "abd hernia of some kind, MD's notified",
    ],
)
def test_no_signature_for_places_or_prose(text: str) -> None:
    assert not any(label == "NAME/clinician" for label, _ in labels(text))
