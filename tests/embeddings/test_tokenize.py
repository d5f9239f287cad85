"""Layout-preserving tokenization and case patterns."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anonymed.embeddings.tokenize import (
    LOWER,
    TITLE,
    UPPER,
    apply_case,
    case_pattern,
    is_stable,
    lower_all,
    split,
    words,
)


@given(st.text())
def test_split_then_join_gives_the_text_back(text: str) -> None:
    cut = split(text)
    assert cut.join(cut.tokens) == text
    assert len(cut.layout) == len(cut.tokens) + 1


#: the word pattern as first written, one letter or mark at a time (tokenize.WORD unrolls it for speed)
_REFERENCE = re.compile(
    r"([^\W\d_](?:[^\W\d_]|[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f])*|\d{1,18})"
)
_MIXED = st.text(
    st.one_of(
        st.sampled_from("aZé1 _-.\n\u0301\u0308\u1ab0\u20d0\ufe20\u0660ß"),
        st.characters(),
    )
)


@given(_MIXED)
def test_split_cuts_as_the_one_character_at_a_time_pattern(text: str) -> None:
    cut = split(text)
    parts = _REFERENCE.split(text)
    assert (cut.layout, cut.tokens) == (parts[0::2], parts[1::2])


@given(st.lists(st.text(st.characters(blacklist_characters="\x00"), min_size=1)))
def test_lower_all_matches_lowering_each_token(tokens: list[str]) -> None:
    assert lower_all(tokens) == [t.lower() for t in tokens]


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("Pain: 7/10, x2.", ["Pain", "7", "10", "x", "2"]),  # digits and letters are separate tokens
        ("patient's", ["patient", "s"]),  # apostrophe is layout
        ("Café naïve", ["Café", "naïve"]),  # accented letters are letters
        ("e\u0301te\u0301", ["e\u0301te\u0301"]),  # combining accents stay in the word
        ("under_score", ["under", "score"]),  # underscore is layout
        ("1234567890123456789012", ["123456789012345678", "9012"]),  # long digit runs cut at 18
    ],
)
def test_split_finds_words_and_numbers(text: str, tokens: list[str]) -> None:
    assert split(text).tokens == tokens


def test_words_drops_numbers_and_lowers() -> None:
    assert words("BP 120/80, Mr. SMITH") == ["bp", "mr", "smith"]


@pytest.mark.parametrize(
    ("token", "pattern"),
    [
        ("pain", LOWER),
        ("Pain", TITLE),
        ("PAIN", UPPER),
        ("A", TITLE),  # one capital letter is a title, not shouting
        ("McDonald", TITLE),  # mixed case with a leading capital
        ("iPhone", LOWER),  # mixed case without one
    ],
)
def test_case_pattern(token: str, pattern: int) -> None:
    assert case_pattern(token) == pattern


@pytest.mark.parametrize(("pattern", "expected"), [(LOWER, "knee"), (TITLE, "Knee"), (UPPER, "KNEE")])
def test_apply_case(pattern: int, expected: str) -> None:
    assert apply_case("knee", pattern) == expected


@pytest.mark.parametrize(
    ("word", "stable"),
    [
        ("knee", True),
        ("straße", False),  # upper() is STRASSE, which lowers to strasse: could not be emitted as written
        ("Knee", False),  # not lower case
        ("ǆ", True),  # a digraph letter: Ǆ lowers back to ǆ
        ("", False),  # empty
    ],
)
def test_is_stable(word: str, stable: bool) -> None:
    assert is_stable(word) is stable
