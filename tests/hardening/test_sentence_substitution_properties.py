"""Sentence substitution on hostile text: every sentence becomes another bank sentence, layout kept."""

from __future__ import annotations

import random
import re
from unittest import mock

import pytest
from hardening_inputs import texts, unicode_texts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anonymed.sentences import obfuscator
from anonymed.sentences.bank_build import BankParams, build_bank
from anonymed.sentences.banks import Bank, normalise
from anonymed.sentences.encoders import Doc2VecParams
from anonymed.sentences.obfuscator import SentenceObfuscator
from anonymed.sentences.splitter import Sentence, layout, split_sentences

SUBJECTS = ("The patient", "She", "He", "The wound", "The knee", "The abdomen")
VERBS = ("was examined", "was treated", "improved", "tolerated the procedure", "was draped")
TAILS = ("without complication.", "with mild pain.", "and was discharged home.", "under anesthesia.")
WORD = re.compile(r"[^\W\d_]+")


@pytest.fixture(scope="module")
def bank() -> Bank:
    """A tiny Doc2Vec bank over synthetic sentences (a few seconds, once)."""
    rnd = random.Random(2)
    corpus = [
        " ".join(f"{rnd.choice(SUBJECTS)} {rnd.choice(VERBS)} {rnd.choice(TAILS)}" for _ in range(5))
        for _ in range(40)
    ]
    return build_bank(
        corpus, BankParams(doc2vec=Doc2VecParams(vector_size=16, epochs=5, infer_epochs=5, seed=1))
    )


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(text=st.one_of(texts, unicode_texts, st.just("")), seed=st.one_of(st.none(), st.integers(0, 2**64)))
def test_every_sentence_becomes_a_different_bank_sentence(bank: Bank, text: str, seed: int | None) -> None:
    captured: list[tuple[list[Sentence], list[str]]] = []
    assemble = obfuscator._assemble

    def spy(text: str, found: list[Sentence], replacements: list[str]) -> str:
        captured.append((found, replacements))
        return assemble(text, found, replacements)

    with mock.patch.object(obfuscator, "_assemble", spy):
        output = SentenceObfuscator(bank, k=3, random_state=seed).transform([text])[0]
    [(found, replacements)] = captured
    assert found == split_sentences(text)
    bank_sentences = set(bank.texts.tolist())
    for sentence, new in zip(found, replacements, strict=True):
        assert new in bank_sentences
        assert normalise(new) != normalise(text[sentence.start : sentence.end])
    gaps = layout(text, found)
    assert output == assemble(text, found, replacements)
    for gap in gaps:  # what is kept is layout: no word of the note survives between the sentences
        assert not any(len(word) > 1 for word in WORD.findall(gap)), gap
