"""Behaviour of the lexicon tokenizer: offsets, folded keys, shapes, gaps, elisions and hyphens."""

from __future__ import annotations

import pytest

from anonymed.detect.tokens import LOWER, OTHER, TITLE, UPPER, fold, tokenize, upper_ratio


@pytest.mark.parametrize(
    ("word", "key"),
    [
        ("Hôpital", "hopital"),  # accents stripped
        ("BÉCLÈRE", "beclere"),  # upper case with accents
        ("O’Rourke", "o'rourke"),  # curly apostrophe made straight
        ("Straße", "strasse"),  # case folding, not just lower()
    ],
)
def test_fold_strips_case_and_accents(word: str, key: str) -> None:
    assert fold(word) == key


@pytest.mark.parametrize(
    ("word", "shape"),
    [
        ("SMITH", UPPER),  # all capitals
        ("Smith", TITLE),  # capitalised
        ("J", TITLE),  # one capital letter is an initial, not an abbreviation
        ("O'Rourke", TITLE),  # capitalised parts around an apostrophe
        ("smith", LOWER),  # lower case
        ("3rd", OTHER),  # starts with a digit
    ],
)
def test_shapes(word: str, shape: int) -> None:
    assert tokenize(word)[0].shape == shape


def test_tokens_slice_the_text_and_record_gaps() -> None:
    text = "Dr. J. Smith-Jones,\nRN"
    tokens = tokenize(text)
    assert [t.text for t in tokens] == ["Dr", "J", "Smith", "Jones", "RN"]
    assert all(text[t.start : t.end] == t.text for t in tokens)
    assert tokens[0].dot and tokens[1].dot
    assert tokens[2].hyphen and not tokens[3].hyphen
    assert tokens[3].gap == "," and tokens[3].newline


def test_french_elisions_are_tokens_of_their_own() -> None:
    assert [t.text for t in tokenize("l'Hôpital d'ORGE aujourd'hui")] == [
        "l'",
        "Hôpital",
        "d'",
        "ORGE",
        "aujourd'hui",
    ]


def test_upper_ratio_tells_notes_written_in_capitals() -> None:
    assert upper_ratio(tokenize("PT RESTING COMFORTABLY. WIFE AT BEDSIDE.")) == 1.0
    assert upper_ratio(tokenize("Pt resting comfortably, wife at bedside.")) == 0.0
    assert upper_ratio([]) == 0.0
