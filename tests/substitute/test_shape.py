"""Shape helpers: case patterns, layouts, initials, and the guarantee that a surrogate differs."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anonymed.randomness import RandomSource
from anonymed.substitute.shape import (
    Case,
    acceptable,
    apply_case,
    case_pattern,
    count_alnum,
    force_different,
    is_initial,
    mask,
    overlay,
    random_like,
)


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        ("SMITH", Case.UPPER),  # all capitals
        ("smith", Case.LOWER),  # all lower case
        ("Smith", Case.TITLE),  # capitalised word
        ("J", Case.TITLE),  # a lone capital is an initial, not shouting
        ("O'Brien", Case.TITLE),  # apostrophes split words
        ("Jean-Pierre Dupont", Case.TITLE),  # every word capitalised
        ("McDonald", Case.MIXED),  # inner capital
        ("DUPONT jean", Case.MIXED),  # words disagree
        ("12/05", Case.NONE),  # no letters
    ],
)
def test_case_pattern_of_table(text: str, pattern: Case) -> None:
    assert case_pattern(text) is pattern


@pytest.mark.parametrize(
    ("surrogate", "pattern", "expected"),
    [
        ("Martin", Case.UPPER, "MARTIN"),  # upper-case original
        ("Martin", Case.LOWER, "martin"),  # lower-case original
        ("MARTIN DUBOIS", Case.TITLE, "Martin Dubois"),  # shouting surrogate recased word by word
        ("moniteur de ski", Case.TITLE, "Moniteur de ski"),  # lower-case surrogate: capital first letter
        ("McKay", Case.TITLE, "McKay"),  # native mixed case is left alone
        ("McKay", Case.MIXED, "McKay"),  # mixed originals keep the surrogate's own case
        ("4 rue X", Case.NONE, "4 rue X"),  # no letters in the original: unchanged
    ],
)
def test_apply_case_table(surrogate: str, pattern: Case, expected: str) -> None:
    assert apply_case(surrogate, pattern) == expected


@pytest.mark.parametrize(
    ("text", "layout"),
    [
        ("(617) 555-0142", "(999) 999-9999"),  # digits masked, separators kept
        ("Ab-12x", "Aa-99a"),  # case of letters kept
        ("é2", "a9"),  # accented letters are letters
    ],
)
def test_mask_table(text: str, layout: str) -> None:
    assert mask(text) == layout


@pytest.mark.parametrize(
    ("token", "initial"),
    [("J.", True), ("J", True), ("é.", True), ("Jo", False), ("J..", False), ("1.", False)],
)
def test_is_initial_table(token: str, initial: bool) -> None:
    assert is_initial(token) is initial


def test_overlay_writes_over_letters_and_digits_only() -> None:
    assert overlay("1 85-05 A", "290341") == "2 90-34 1"
    assert count_alnum("1 85-05 A") == 6
    with pytest.raises(ValueError, match="needs 6"):
        overlay("1 85-05 A", "29")


@given(st.text(max_size=40), st.integers(0, 2**32))
def test_random_like_keeps_the_layout(text: str, seed: int) -> None:
    assert mask(random_like(text, RandomSource(seed))) == mask(text)


@given(st.text(min_size=1, max_size=30), st.integers(0, 2**32))
def test_force_different_always_yields_an_acceptable_surrogate(text: str, seed: int) -> None:
    surrogate = force_different(text, text, RandomSource(seed))
    assert acceptable(surrogate, text)
    assert surrogate.casefold() != text.casefold()


@pytest.mark.parametrize(
    ("candidate", "original", "ok"),
    [
        ("Mark", "John", True),  # unrelated
        ("JOHN", "John", False),  # same ignoring case
        ("Joseph", "Jo", False),  # the original would show at its position
        ("Jo", "Joseph", False),  # a prefix of the original could complete it with the next text
        ("", "x", False),  # an empty surrogate is a prefix of everything
    ],
)
def test_acceptable_table(candidate: str, original: str, ok: bool) -> None:
    assert acceptable(candidate, original) is ok
