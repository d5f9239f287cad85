"""Check digits of identifier formats, from their specifications: Luhn (ISO/IEC 7812 cards, US NPI),
IBAN (ISO 13616, mod 97-10), UK NHS numbers (mod 11), ABA routing numbers (3-7-1 weights), GS1 GTINs (mod 10,
weights 3-1 from the right)."""

from __future__ import annotations

from typing import Final

#: the NPI's Luhn check runs over the card-issuer prefix 80840 followed by the NPI's first nine digits
NPI_PREFIX: Final = "80840"


def digits_of(text: str) -> str:
    """The decimal digits of ``text`` in order (separators dropped)."""
    return "".join(char for char in text if "0" <= char <= "9")


def luhn_ok(digits: str) -> bool:
    """Whether a string of digits passes the Luhn (mod 10) check."""
    if not digits.isdigit() or not digits.isascii():
        return False
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2 == 1:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def card_ok(text: str) -> bool:
    """Whether a card number (13 to 19 digits, separators allowed) passes the Luhn check."""
    digits = digits_of(text)
    return 13 <= len(digits) <= 19 and luhn_ok(digits)


def npi_ok(text: str) -> bool:
    """Whether a ten-digit US National Provider Identifier has the right check digit."""
    digits = digits_of(text)
    return len(digits) == 10 and digits[0] in "12" and luhn_ok(NPI_PREFIX + digits)


def iban_ok(text: str) -> bool:
    """Whether an IBAN (spaces allowed) passes ISO 13616's mod 97 check: rearranged number mod 97 == 1."""
    compact = "".join(text.split()).upper()
    if not 15 <= len(compact) <= 34 or not compact.isascii() or not compact.isalnum():
        return False
    if not (compact[:2].isalpha() and compact[2:4].isdigit()):
        return False
    moved = compact[4:] + compact[:4]
    number = "".join(str(int(char, 36)) for char in moved)
    return int(number) % 97 == 1


def nhs_ok(text: str) -> bool:
    """Whether a ten-digit NHS number has the right mod 11 check digit (weights 10 down to 2)."""
    digits = digits_of(text)
    if len(digits) != 10:
        return False
    remainder = sum(int(d) * w for d, w in zip(digits[:9], range(10, 1, -1), strict=True)) % 11
    check = 11 - remainder
    if check == 11:
        check = 0
    return check != 10 and check == int(digits[9])


def aba_ok(text: str) -> bool:
    """Whether a nine-digit ABA routing number passes the 3-7-1 weighted check."""
    digits = digits_of(text)
    if len(digits) != 9:
        return False
    weights = (3, 7, 1) * 3
    return sum(int(d) * w for d, w in zip(digits, weights, strict=True)) % 10 == 0


def gtin_ok(text: str) -> bool:
    """Whether a GS1 GTIN (8, 12, 13 or 14 digits) has the right check digit: weights 3 and 1 alternate from
    the digit left of the check digit, and the check digit brings the sum to a multiple of 10."""
    digits = digits_of(text)
    if len(digits) not in (8, 12, 13, 14) or len(digits) != len(text):
        return False
    body = digits[:-1]
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(body)))
    return (10 - total % 10) % 10 == int(digits[-1])
