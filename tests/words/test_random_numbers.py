"""Numbers become random digits of the same shape, never themselves."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from anonymed.randomness import RandomSource
from anonymed.words.numbers import random_numbers


@given(st.lists(st.from_regex(r"\A[0-9]{1,18}\Z"), max_size=20), st.integers(0, 1000))
def test_same_length_digits_never_the_original(numbers: list[str], seed: int) -> None:
    out = random_numbers(numbers, RandomSource(seed))
    for old, new in zip(numbers, out, strict=True):
        assert len(new) == len(old) and new.isascii() and new.isdigit() and new != old


def test_leading_digit_stays_non_zero_unless_it_was_zero() -> None:
    out = random_numbers(["45"] * 300 + ["007"] * 300, RandomSource(1))
    assert all(v[0] != "0" for v in out[:300])
    assert any(v[0] == "0" for v in out[300:])


def test_single_digits_cover_the_other_nine() -> None:
    assert set(random_numbers(["5"] * 500, RandomSource(2))) == set("012346789")


def test_unicode_digits_are_replaced_by_ascii_digits() -> None:
    (out,) = random_numbers(["\u0661\u0662\u0663"], RandomSource(3))  # Arabic-Indic 123
    assert len(out) == 3 and out.isascii() and out != "123"
