"""The record's other known identifiers: numbers with other separators, dates in other layouts, contacts,
addresses; and the contract's items checked without showing a value."""

from __future__ import annotations

import pytest

from anonymed.detect.known.detector import KnownDetector
from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.known import MAX_ITEMS, known_items

SECRET = "Quackenbush"


def found(text: str, *known: tuple[str, str], lang: str = "en") -> list[tuple[str, str]]:
    items = [{"kind": kind, "value": value} for kind, value in known]
    spans = KnownDetector().detect(Document("d", text, {"known": items, "lang": lang}))
    return sorted((s.text, s.full_label) for s in spans)


def test_a_record_number_with_other_separators() -> None:
    text = (
        "MRN 123-456-789; also 123 456 789, 123.456.789 and (123) 456/789. Not 91234567890 nor 123456789012."
    )
    assert [t for t, _ in found(text, ("ID/mrn", "123456789"))] == [
        "(123) 456/789", "123 456 789", "123-456-789", "123.456.789",
    ]  # fmt: skip


def test_letters_and_digits_case_folded() -> None:
    assert found("ipp ab-12-34 and AB1234", ("ID/mrn", "AB 12 34")) == [
        ("AB1234", "ID/mrn"),
        ("ab-12-34", "ID/mrn"),
    ]


def test_a_phone_given_with_its_country_code_is_found_in_national_form() -> None:
    text = "Tel 06 12 34 56 78 or +33 6 12 34 56 78."
    spans = found(text, ("CONTACT/phone", "+33 6 12 34 56 78"))
    assert ("06 12 34 56 78", "CONTACT/phone") in spans and (
        "+33 6 12 34 56 78"[1:],
        "CONTACT/phone",
    ) in spans
    us = found("call (617) 555-0123", ("CONTACT/phone", "+1 617 555 0123"))
    assert ("(617) 555-0123", "CONTACT/phone") in us


def test_short_numbers_are_not_looked_for() -> None:
    assert found("room 123, bed 12", ("ID/other", "123")) == []


def test_a_zip_plus_four_is_also_found_as_five_digits() -> None:
    assert found("Boston MA 02139.", ("LOCATION/zip", "02139-4307")) == [("02139", "LOCATION/zip")]


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("born 03/14/1950", "en"),
        ("born 14/03/1950", "fr"),
        ("born March 14, 1950", "en"),
        ("née le 14 mars 1950", "fr"),
        ("born 3/14/50", "en"),
        ("born 1950-03-14", "en"),
        ("born 14.03.1950", "fr"),
        ("birthday March 14th", "en"),  # without a year: day and month
    ],
)
def test_a_known_date_in_other_layouts(text: str, lang: str) -> None:
    spans = found(text, ("DATE/birth", "1950-03-14"), lang=lang)
    assert len(spans) == 1 and spans[0][1] == "DATE/birth" and text.endswith(spans[0][0])


def test_other_dates_are_not_the_known_one() -> None:
    assert found("seen 03/15/1950 and 03/14/1951", ("DATE/birth", "1950-03-14")) == []


def test_a_known_date_written_ambiguously_matches_both_readings() -> None:
    assert found("dob 04/03/1950", ("DATE/birth", "03/04/1950")) == [("04/03/1950", "DATE/birth")]


def test_e_mail_addresses_as_written_case_folded() -> None:
    text = "Mail J.Smith@Example.org or j.smith@example.org.uk today"
    assert found(text, ("CONTACT/email", "j.smith@example.org")) == [("J.Smith@Example.org", "CONTACT/email")]


def test_a_street_with_abbreviations_and_a_city_with_saint() -> None:
    spans = found(
        "Lives at 12 Main St., near St-Louis; moved from 12 main street.",
        ("LOCATION/street", "12 Main Street"),
        ("LOCATION/city", "Saint Louis"),
    )
    assert spans == [
        ("12 Main St", "LOCATION/street"),
        ("12 main street", "LOCATION/street"),
        ("St-Louis", "LOCATION/city"),
    ]


def test_a_one_word_place_that_is_a_common_word_needs_a_capital() -> None:
    assert found("reading is fine; lives in Reading", ("LOCATION/city", "Reading")) == [
        ("Reading", "LOCATION/city")
    ]


def test_items_are_checked_and_errors_show_no_value() -> None:
    with pytest.raises(ConfigError, match="item 1: unknown label 'PLACE'") as caught:
        known_items([{"kind": "NAME/patient", "value": SECRET}, {"kind": "PLACE", "value": SECRET}])
    assert SECRET not in str(caught.value)
    with pytest.raises(ConfigError, match="item 0: value has 330 characters") as long_value:
        known_items([{"kind": "NAME", "value": SECRET * 30}])
    assert SECRET not in str(long_value.value)
    with pytest.raises(ConfigError, match=f"more than {MAX_ITEMS} items"):
        known_items([{"kind": "ID", "value": str(n)} for n in range(MAX_ITEMS + 1)])
    with pytest.raises(ConfigError, match="item 0: expected an object"):
        known_items([SECRET])
    with pytest.raises(ConfigError, match="expected a list"):
        known_items({"kind": "NAME", "value": SECRET})  # type: ignore[arg-type]


def test_items_are_deduplicated_numbers_read_as_text_and_empty_values_skipped() -> None:
    items = known_items(
        [
            {"kind": "ID/mrn", "value": 1234567},
            {"kind": "ID/mrn", "value": "1234567"},
            {"kind": "NAME", "value": " "},
        ]
    )
    assert [item.to_json() for item in items] == [{"kind": "ID/mrn", "value": "1234567"}]
    assert "1234567" not in repr(items[0]) and repr(items[0]) == "Known(ID/mrn, 7 characters)"


def test_one_detector_reuses_a_records_list_and_never_pickles_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The texts of one patient carry the same list: it is sorted once, every text gets the spans a fresh
    detector finds, a different list is sorted again, and a pickled detector carries no kept list."""
    import pickle

    from anonymed.detect.known import detector as module

    calls: list[int] = []
    sort = module._sort
    monkeypatch.setattr(module, "_sort", lambda items, lang: calls.append(len(items)) or sort(items, lang))
    items = [{"kind": "NAME/patient", "value": SECRET}, {"kind": "ID/mrn", "value": "123456789"}]
    detector = KnownDetector()
    texts = [f"{SECRET} seen, MRN 123-456-789.", f"Called {SECRET} again.", "Nothing here."]
    for text in texts:
        doc = Document("d", text, {"known": items, "lang": "en"})
        assert detector.detect(doc) == KnownDetector().detect(doc)
    assert calls[0] == 2 and len(calls) == 1 + len(texts)  # once for `detector`, once per fresh one
    detector.detect(Document("d", SECRET, {"known": items[:1], "lang": "en"}))
    assert len(calls) == 2 + len(texts)
    assert detector._records and SECRET.lower().encode() not in pickle.dumps(detector).lower()
