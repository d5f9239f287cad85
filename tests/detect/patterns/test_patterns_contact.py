"""Phones, faxes, pagers, e-mails, URLs and IP addresses."""

from __future__ import annotations

import pytest

from anonymed.detect.patterns.detector import PatternDetector, PatternParams
from anonymed.labels import Label


def found(text: str, lang: str = "en", **options: bool) -> set[tuple[str, str]]:
    """(full label, text) of every span the detector finds."""
    spans = PatternDetector(PatternParams(**options)).detect_text(text, lang)
    return {(span.full_label, span.text) for span in spans}


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("call (617) 555-1234 today", "en", "(617) 555-1234"),  # US with parentheses
        ("cell# 410-322-1419 Home# 603", "en", "410-322-1419"),  # dashes, after a #
        ("office 617.555.1234.", "en", "617.555.1234"),  # dots
        ("DAUGHTER---301 944-5032 &", "en", "301 944-5032"),  # space then dash
        ("reach me at 617-555-1234 ext 22 please", "en", "617-555-1234 ext 22"),  # extension
        ("phone 6175551234 (mobile)", "en", "6175551234"),  # bare digits after a phone word
        ("+1 617 555 1234 from abroad", "en", "+1 617 555 1234"),  # country code
        ("joignable au 01 23 45 67 89.", "fr", "01 23 45 67 89"),  # French spaces
        ("Tél : 01.23.45.67.89", "fr", "01.23.45.67.89"),  # French dots
        ("tél : 06-12-34-56-78", "fr", "06-12-34-56-78"),  # French dashes
        ("Standard+33 1 23 45 67 89", "fr", "+33 1 23 45 67 89"),  # +33 glued to a word
        ("tél 0619021920, mail", "fr", "0619021920"),  # French bare digits
        ("mobile est le06.98.43.40.20. Le", "fr", "06.98.43.40.20"),  # glued to a lower-case word
        ("appeler le 0033 6 12 34 56 78", "fr", "0033 6 12 34 56 78"),  # 0033 prefix
        ("Dr X (33)265626703 ou", "fr", "(33)265626703"),  # (33) prefix
        ("joint au +44 20 7946 0958 demain", "fr", "+44 20 7946 0958"),  # other country
        ("via phone 011 27 21 555 0199.", "en", "011 27 21 555 0199"),  # NANP's exit code, then South Africa
        ("Call 011-44-20-7946-0958 today", "en", "011-44-20-7946-0958"),
        ("Pager: #54321 Time Frame", "en", "54321"),  # pager number
        ("Pager 4-7731 for questions", "en", "4-7731"),  # an internal extension
        ("please page 3-2201 with results", "en", "3-2201"),
        ("call x4-7731 if needed", "en", "4-7731"),
        ("at extension 5532.", "en", "5532"),
        ("Call ext. 204 today", "en", "204"),
        ("PG 33445", "en", "33445"),  # pager abbreviation
        ("son ,dave, (240444-1243) was in", "en", "240444-1243"),  # odd number in parentheses
        ("Standard 0 6 - 7 6 - 5 6 - 4 6 - 2 7", "fr", "0 6 - 7 6 - 5 6 - 4 6 - 2 7"),  # letter-spaced
        ("VANHOVE ( 3 3 ) 0 1 1 3 5 6 2 6 0 6 Veuillez", "fr", "( 3 3 ) 0 1 1 3 5 6 2 6 0 6"),  # spaced
    ],
)
def test_phones_are_found(text: str, lang: str, expected: str) -> None:
    assert ("CONTACT/phone", expected) in found(text, lang)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("tel 001-541-754-3010 (son)", "001-541-754-3010"),  # the international prefix 00, country code 1
        ("Son 001 (541) 754-3010 today", "001 (541) 754-3010"),
        ("son: 00 1 541 754 3010", "00 1 541 754 3010"),
        ("cell +1-541-754-3010", "+1-541-754-3010"),
        ("home 1 (541) 754-3010", "1 (541) 754-3010"),
        ("tel 001-541-154-3010", "541-154-3010"),  # an exchange starting with 1: no NANP number after 001
    ],
)
def test_a_us_number_after_its_country_code_is_one_phone_span(text: str, expected: str) -> None:
    assert {text for label, text in found(text) if label.startswith("CONTACT")} == {expected}


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("Fax: 617-555-9999", "en", "617-555-9999"),  # English fax
        ("Faxer les résultats à 03.74.14.77.00", "fr", "03.74.14.77.00"),  # French verb
        ("télécopie : 01 23 45 67 89", "fr", "01 23 45 67 89"),  # French noun
    ],
)
def test_faxes_are_typed_as_faxes(text: str, lang: str, expected: str) -> None:
    assert ("CONTACT/fax", expected) in found(text, lang)


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("Weight 617 kg", "en"),  # three digits alone
        ("RR 12-18, HR 80-110", "en"),  # ranges
        ("area code 017-555-1234", "en"),  # US area codes never start with 0 or 1
        ("IPP 5820136284", "fr"),  # ten digits not starting with 0 are not a French phone
        ("Pager # 12", "en"),  # too short for a pager
        ("See page 123 of the chart", "en"),  # a page number
        ("CABG x3 done; ext 12", "en"),  # times three; too short for an extension
        ("Output x24h 1-2000 mL", "en"),  # a range
        ("tidal volume x4-7731x", "en"),  # glued to a letter
        ("Medicaid ID MN0023381945.", "en"),  # a state's capitals glued before: an ID, not a French phone
        ("n° NA0612345678", "fr"),
    ],
)
def test_numbers_that_are_not_phones_are_not_contacts(text: str, lang: str) -> None:
    assert not any(label.startswith("CONTACT") for label, _ in found(text, lang))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("write to john.doe@mgh.harvard.edu today", "john.doe@mgh.harvard.edu"),  # subdomains
        ("email : leonie.daubert@free.fr.", "leonie.daubert@free.fr"),  # sentence end not taken
        ("contact labo-rivoli@medicale.fr", "labo-rivoli@medicale.fr"),  # dash in the local part
        ("mail tlabelle @ medimail . com", "tlabelle @ medimail . com"),  # spaced by hand
        ("(p.roux@chicreteil.com) 06/02/22", "p.roux@chicreteil.com"),  # in parentheses
    ],
)
def test_emails_are_found(text: str, expected: str) -> None:
    assert ("CONTACT/email", expected) in found(text, "fr")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("see https://www.example.com/path?x=1.", "https://www.example.com/path?x=1"),  # trailing dot dropped
        ("site www.hopital-test.fr pour infos", "www.hopital-test.fr"),  # www
        ("voir patient-portal.org demain", "patient-portal.org"),  # bare domain, common TLD
        ("He blogs at gwhitaker.blogspot.com.", "gwhitaker.blogspot.com"),  # at a sentence's end
    ],
)
def test_urls_are_found(text: str, expected: str) -> None:
    assert ("CONTACT/url", expected) in found(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("from 192.168.1.12 at night", "192.168.1.12"),  # IPv4
        ("host 2001:db8::8a2e:370:7334 down", "2001:db8::8a2e:370:7334"),  # IPv6 compressed
        ("host fe80:0:0:0:202:b3ff:fe1e:8329 ok", "fe80:0:0:0:202:b3ff:fe1e:8329"),  # IPv6 full
    ],
)
def test_ip_addresses_are_locations(text: str, expected: str) -> None:
    assert ("LOCATION/ip", expected) in found(text)


@pytest.mark.parametrize(
    "text",
    [
        "version 300.1.2.3 released",  # octet above 255
        "at 10:30:00 sharp",  # a time, not IPv6
        "e.g. i.e. q.d.",  # abbreviations with dots
        "ratio 1:2:3",  # ratio
    ],
)
def test_lookalikes_are_not_addresses(text: str) -> None:
    spans = PatternDetector().detect_text(text)
    assert not any(span.label is Label.LOCATION or span.subtype in {"url", "email"} for span in spans)
