"""Word substitution with the shipped space on hostile text: no input word at its place, vocabulary only."""

from __future__ import annotations

import pytest
from hardening_inputs import texts, unicode_texts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anonymed.embeddings import Space
from anonymed.embeddings.spaces import default_space
from anonymed.embeddings.tokenize import is_number, split
from anonymed.words import WordObfuscator

SETTINGS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(scope="module")
def space() -> Space:
    """The shipped MTSamples space (loaded once)."""
    return default_space()


def check_guarantees(space: Space, text: str, output: str) -> None:
    """Layout kept; every word replaced by a vocabulary word; every number by other digits of its length."""
    before, after = split(text), split(output)
    assert after.layout == before.layout
    assert len(after.tokens) == len(before.tokens)
    for old, new in zip(before.tokens, after.tokens, strict=True):
        if is_number(old):
            assert new.isascii() and new.isdigit() and len(new) == len(old) and new != old
        else:
            assert new.casefold() != old.casefold()
            assert new.lower() in space.candidate_set


@SETTINGS
@given(
    text=st.one_of(texts, unicode_texts, st.just("")),
    n=st.sampled_from([2, 5, "3-14"]),
    seed=st.one_of(st.none(), st.integers(0, 2**64)),
)
def test_no_input_word_survives_at_its_position(
    space: Space, text: str, n: int | str, seed: int | None
) -> None:
    output = WordObfuscator(space, n=n, random_state=seed).transform([text])[0]
    check_guarantees(space, text, output)


@pytest.mark.parametrize(
    "text",
    [
        "\u00e9" * 1_000_000,  # one word of a million letters: its subword n-grams took gigabytes (killed)
        "Patient seen, stable. Zorglub 12345 hypertensoin\n" * 20_000,  # a megabyte of ordinary note text
        "a " * 500_000,  # half a million one-letter words
    ],
    ids=["one-huge-word", "one-megabyte-note", "many-short-words"],
)
def test_huge_notes_are_replaced_whole(space: Space, text: str) -> None:
    output = WordObfuscator(space, n=5, random_state=1).transform([text])[0]
    check_guarantees(space, text, output)
