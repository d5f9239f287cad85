"""Check digits, tested on the examples their specifications publish and on one-digit changes of them."""

from __future__ import annotations

import pytest

from anonymed.detect.patterns.checksums import aba_ok, card_ok, gtin_ok, iban_ok, luhn_ok, nhs_ok, npi_ok


@pytest.mark.parametrize(
    ("number", "valid"),
    [
        ("79927398713", True),  # the Luhn algorithm's textbook example
        ("79927398710", False),
        ("4111111111111111", True),  # card networks' test numbers
        ("5500000000000004", True),
        ("378282246310005", True),
        ("4111111111111112", False),
        ("", False),  # no digit at all
    ],
)
def test_luhn(number: str, valid: bool) -> None:
    assert luhn_ok(number) is valid


@pytest.mark.parametrize(
    ("number", "valid"),
    [
        ("4111 1111 1111 1111", True),
        ("3782 822463 10005", True),  # American Express grouping
        ("4111-1111-1111-1112", False),  # wrong check digit
        ("79927398713", False),  # passes Luhn, too short for a card (13 to 19 digits)
    ],
)
def test_card_numbers_need_a_card_length_and_luhn(number: str, valid: bool) -> None:
    assert card_ok(number) is valid


@pytest.mark.parametrize(
    ("iban", "valid"),
    [
        ("GB82 WEST 1234 5698 7654 32", True),  # ISO 13616 / SWIFT registry examples
        ("DE89370400440532013000", True),
        ("FR1420041010050500013M02606", True),
        ("GB82 WEST 1234 5698 7654 33", False),  # one digit changed
        ("GB28 WEST 1234 5698 7654 32", False),  # check digits swapped
        ("GB82WEST", False),  # too short
        ("8282 WEST 1234 5698 7654 32", False),  # no country code
    ],
)
def test_iban_mod_97(iban: str, valid: bool) -> None:
    assert iban_ok(iban) is valid


@pytest.mark.parametrize(
    ("number", "valid"),
    [
        ("943 476 5919", True),  # NHS Digital's example number
        ("9434765919", True),
        ("943 476 5918", False),  # wrong check digit
        ("943 476 591", False),  # nine digits
    ],
)
def test_nhs_mod_11(number: str, valid: bool) -> None:
    assert nhs_ok(number) is valid


def test_an_nhs_number_whose_check_would_be_ten_is_never_valid() -> None:
    # weights 10..2 over 100000001 give 10 + 2 = 12 -> remainder 1 -> check 10: no valid number
    assert not any(nhs_ok(f"100000001{d}") for d in "0123456789")


@pytest.mark.parametrize(
    ("npi", "valid"),
    [("1234567893", True), ("1234567890", False), ("3234567893", False), ("123456789", False)],
)
def test_npi_luhn_over_the_80840_prefix(npi: str, valid: bool) -> None:
    assert npi_ok(npi) is valid  # CMS's example NPI is 1234567893; NPIs start with 1 or 2


@pytest.mark.parametrize(
    ("routing", "valid"),
    [("011000015", True), ("021000021", True), ("021000022", False), ("02100002", False)],
)
def test_aba_routing_numbers(routing: str, valid: bool) -> None:
    assert aba_ok(routing) is valid


@pytest.mark.parametrize(
    ("gtin", "valid"),
    [
        ("09506000134352", True),  # GTIN-14 of GS1's own examples (GS1 Digital Link)
        ("09506000134353", False),
        ("4006381333931", True),  # GTIN-13 (EAN-13) example of the GS1 check digit calculator
        ("012345678905", True),  # GTIN-12 (UPC-A)
        ("012345678904", False),
        ("96385074", True),  # GTIN-8
        ("0950600013435", False),  # a digit short: 13 digits whose check fails
        ("0950600013435X", False),  # not all digits
    ],
)
def test_gs1_gtin_mod_10(gtin: str, valid: bool) -> None:
    assert gtin_ok(gtin) is valid
