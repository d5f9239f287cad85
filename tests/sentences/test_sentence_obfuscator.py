"""Sentence substitution: never an identical sentence, only bank sentences, layout kept, reproducible."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sentence_corpus import PLANTED, PLANTED_WORDS, notes, sentence, tiny_bank

from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.randomness import RandomSource
from anonymed.sentences.banks import normalise
from anonymed.sentences.obfuscator import SentenceObfuscator
from anonymed.sentences.splitter import layout, split_sentences

NOTE = (
    "HISTORY OF PRESENT ILLNESS:\nThe patient was examined with mild pain. She improved without complication."
    "\nMEDICATIONS:\n1. The knee was prepped in the usual sterile fashion."
    "\n2. He was treated and was discharged home.\n"
)


def parts(text: str) -> tuple[list[str], list[str]]:
    found = split_sentences(text)
    return [text[s.start : s.end] for s in found], layout(text, found)


def test_every_sentence_is_replaced_by_a_different_bank_sentence_and_layout_is_kept() -> None:
    bank = tiny_bank()
    out = SentenceObfuscator(bank, k=5, random_state=1).transform([NOTE])[0]
    before, gaps_before = parts(NOTE)
    after, gaps_after = parts(out)
    assert gaps_after == gaps_before and len(after) == len(before)
    assert all(normalise(a) != normalise(b) for a, b in zip(after, before, strict=True))
    assert set(after) <= set(bank.sentences)


sentences_from_the_bank = st.lists(st.integers(0, 10_000), min_size=1, max_size=12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(picks=sentences_from_the_bank, shout=st.booleans(), k=st.integers(2, 6))
def test_a_replacement_never_equals_its_sentence(picks: list[int], shout: bool, k: int) -> None:
    """Notes made of bank sentences themselves (the worst case: the nearest hit is the sentence itself)."""
    bank = tiny_bank()
    chosen = [bank.sentences[i % len(bank)] for i in picks]
    text = "\n".join(s.upper() if shout else s for s in chosen)
    out = SentenceObfuscator(bank, k=k).transform([text])[0]  # secure randomness
    before, _ = parts(text)
    after, _ = parts(out)
    assert len(after) == len(before)
    assert all(normalise(a) != normalise(b) for a, b in zip(after, before, strict=True))


def test_planted_phi_never_comes_out_even_when_asked_for() -> None:
    out = SentenceObfuscator(tiny_bank(), k=5).transform([" ".join(PLANTED)] * 20)
    assert not [text for text in out if any(word in text for word in PLANTED_WORDS)]


def test_a_seed_reproduces_the_output_and_streams_are_per_document() -> None:
    docs = [Document(f"d{i}", note) for i, note in enumerate(notes(4, seed=9))]
    first = [d.output for d in SentenceObfuscator(tiny_bank(), random_state=4).obfuscate_many(docs)]
    one_by_one = [
        SentenceObfuscator(tiny_bank(), random_state=4).obfuscate_document(d).output for d in docs[::-1]
    ]
    assert first == one_by_one[::-1]
    other = [d.output for d in SentenceObfuscator(tiny_bank(), random_state=5).obfuscate_many(docs)]
    assert other != first


def test_the_choice_is_uniform_over_the_k_neighbours() -> None:
    bank = tiny_bank()
    text = sentence(random.Random(3))
    seen = {SentenceObfuscator(bank, k=3).obfuscate(text, RandomSource()).text for _ in range(60)}
    assert len(seen) == 3


def test_document_report_counts_sentences() -> None:
    doc = SentenceObfuscator(tiny_bank(), k=4, random_state=0).obfuscate_document(Document("n1", NOTE))
    report = doc.privacy["sentences"]
    assert report["sentences"] == len(split_sentences(NOTE)) and report["k"] == 4
    assert report["encoder"] == "doc2vec" and doc.output != NOTE


def test_text_without_sentences_is_left_as_it_is() -> None:
    assert SentenceObfuscator(tiny_bank()).transform(["", " \n--\n"]) == ["", " \n--\n"]


@pytest.mark.parametrize("k", [1, 0, True])
def test_k_below_two_is_refused(k: int) -> None:
    with pytest.raises(ConfigError, match="k"):
        SentenceObfuscator(tiny_bank(), k=k)


def test_k_larger_than_the_bank_is_refused() -> None:
    with pytest.raises(ConfigError, match="needs a bank"):
        SentenceObfuscator(tiny_bank(), k=10_000).loaded_bank()
