"""Word substitution: the two guarantees, layout, case, degrees, randomness, unseen words, documents."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anonymed.document import Document
from anonymed.embeddings import Space
from anonymed.embeddings.tokenize import is_number, split
from anonymed.errors import ConfigError
from anonymed.randomness import RandomSource
from anonymed.words import Degree, WordObfuscator
from kneo_corpus import COMMON, PLANTED, TWO_NOTES

NOTE = "Mr. Qwertyson (MRN 0045123) denies CHEST pain.\n\tSeen 12/03/2019 -- BP normal; hypertensoin!"

_words = st.sampled_from([*COMMON, PLANTED, TWO_NOTES, "hypertensoin", "Zorglub", "ß", "İstanbul"])
_cased = st.tuples(_words, st.sampled_from([str.lower, str.upper, str.title])).map(lambda p: p[1](p[0]))
_pieces = st.one_of(
    _cased,
    st.integers(0, 10**12).map(str),
    st.sampled_from([" ", "\n", ", ", ". ", "-", "/", "'", "\t", "(", ")"]),
)
texts = st.one_of(st.lists(_pieces, max_size=40).map("".join), st.text(max_size=60))


def _check_guarantees(space: Space, text: str, output: str) -> None:
    before, after = split(text), split(output)
    assert after.layout == before.layout
    assert len(after.tokens) == len(before.tokens)
    for old, new in zip(before.tokens, after.tokens, strict=True):
        if is_number(old):
            assert new.isascii() and new.isdigit() and len(new) == len(old)
            assert int(new) != int(old) or len(old) != len(new)
        else:
            assert new.casefold() != old.casefold()
            assert new.lower() in space.candidate_set


_SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@_SETTINGS
@given(text=texts, n=st.sampled_from([2, 3, 6, "2-6", "3-5"]), seed=st.integers(0, 2**32))
def test_no_input_word_survives_and_output_words_are_candidates(
    fasttext_space: Space, text: str, n: int | str, seed: int
) -> None:
    output = WordObfuscator(fasttext_space, n=n, random_state=seed).transform([text])[0]
    _check_guarantees(fasttext_space, text, output)


@_SETTINGS
@given(text=texts, seed=st.integers(0, 2**32))
def test_guarantees_hold_with_a_word2vec_space(word2vec_space: Space, text: str, seed: int) -> None:
    output = WordObfuscator(word2vec_space, n=3, random_state=seed).transform([text])[0]
    _check_guarantees(word2vec_space, text, output)


def test_guarantees_hold_with_secure_randomness(fasttext_space: Space) -> None:
    output = WordObfuscator(fasttext_space, n=5).transform([NOTE])[0]
    _check_guarantees(fasttext_space, NOTE, output)


@pytest.mark.parametrize(
    ("word", "check"),
    [
        ("pain", str.islower),  # lower stays lower
        ("Pain", lambda w: w[0].isupper() and w[1:].islower()),  # Title stays Title
        ("PAIN", str.isupper),  # UPPER stays UPPER
    ],
)
def test_case_pattern_is_applied_to_the_replacement(fasttext_space: Space, word: str, check: object) -> None:
    outputs = WordObfuscator(fasttext_space, n=4, random_state=3).transform([word] * 30)
    assert all(check(out) for out in outputs)  # type: ignore[operator]


def test_layout_is_kept_exactly(fasttext_space: Space) -> None:
    output = WordObfuscator(fasttext_space, random_state=1).transform([NOTE])[0]
    assert split(output).layout == split(NOTE).layout
    assert output.count("\n") == 1 and "\t" in output and "--" in output


def test_each_word_comes_from_its_first_n_neighbours(fasttext_space: Space) -> None:
    outputs = WordObfuscator(fasttext_space, n=2, random_state=5).transform(["knee"] * 50)
    row = fasttext_space.neighbours[fasttext_space.index["knee"]]
    allowed = {fasttext_space.tokens[i] for i in row[:2]}
    assert set(outputs) == allowed  # both of the 2 nearest, nothing further


def test_a_degree_range_reaches_further_neighbours(fasttext_space: Space) -> None:
    outputs = set(WordObfuscator(fasttext_space, n="2-6", random_state=5).transform(["knee"] * 200))
    row = [fasttext_space.tokens[i] for i in fasttext_space.neighbours[fasttext_space.index["knee"]]]
    assert outputs <= set(row) and len(outputs) > 2


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (5, Degree(5, 5)),  # an int
        ("5", Degree(5, 5)),  # a string
        ("3-14", Degree(3, 14)),  # a range, as in the paper
        (" 2 - 4 ", Degree(2, 4)),  # spaces tolerated
        ((3, 7), Degree(3, 7)),  # a tuple
    ],
)
def test_degree_parsing(value: int | str | tuple[int, int], expected: Degree) -> None:
    assert Degree.parse(value) == expected


@pytest.mark.parametrize("value", [1, 0, "1", "1-5", "5-3", "abc", "3-", -2])
def test_degree_must_be_at_least_two(value: int | str) -> None:
    with pytest.raises(ConfigError):
        WordObfuscator(n=value)


def test_a_degree_beyond_the_table_widens_it(fasttext_space: Space) -> None:
    obfuscator = WordObfuscator(fasttext_space, n=9, random_state=1)
    _check_guarantees(fasttext_space, NOTE, obfuscator.transform([NOTE])[0])
    assert obfuscator.loaded_space().n_max == 9


def test_a_seed_reproduces_the_output(fasttext_space: Space) -> None:
    first = WordObfuscator(fasttext_space, random_state=42).transform([NOTE, NOTE])
    again = WordObfuscator(fasttext_space, random_state=42).transform([NOTE, NOTE])
    other = WordObfuscator(fasttext_space, random_state=43).transform([NOTE, NOTE])
    assert first == again and first != other
    assert first[0] != first[1]  # each text has its own stream


def test_without_a_seed_runs_differ(fasttext_space: Space) -> None:
    long_note = " ".join(COMMON * 3)
    obfuscator = WordObfuscator(fasttext_space)
    assert obfuscator.transform([long_note]) != obfuscator.transform([long_note])


def test_unseen_words_use_subwords_in_fasttext_spaces(fasttext_space: Space) -> None:
    obfuscator = WordObfuscator(fasttext_space, n=2, random_state=1)
    anchor = int(obfuscator.unseen().anchors(["hypertensoin"])[0])  # type: ignore[attr-defined]
    row = {fasttext_space.tokens[i] for i in fasttext_space.neighbours[anchor][:2]}
    assert set(obfuscator.transform(["hypertensoin"] * 20)) <= row


def test_unseen_words_get_a_candidate_of_similar_length_in_word2vec_spaces(word2vec_space: Space) -> None:
    outputs = WordObfuscator(word2vec_space, random_state=1).transform(["zzzzzzzz"] * 30)
    assert all(out in word2vec_space.candidate_set for out in outputs)
    assert np.mean([len(o) for o in outputs]) > 4


def test_paper_preprocessing_gives_lowercase_words_only(fasttext_space: Space) -> None:
    output = WordObfuscator(fasttext_space, random_state=1, paper_preprocessing=True).transform([NOTE])[0]
    assert output == output.lower() and all(w.isalpha() for w in output.split(" "))
    assert len(output.split(" ")) == sum(not is_number(t) for t in split(NOTE).tokens)


def test_obfuscate_document_sets_output_and_counts(fasttext_space: Space) -> None:
    doc = Document("n1", NOTE, {"patient_id": "p"})
    done = WordObfuscator(fasttext_space, random_state=1)(doc)
    assert done.text == NOTE and done.output is not None and done.output != NOTE
    report = done.privacy["words"]
    assert (
        report["tokens"] == len(split(NOTE).tokens) and report["numbers"] == 4 and report["unseen"] == 3
    )  # mrn, bp, hypertensoin
    again = WordObfuscator(fasttext_space, random_state=1)(doc)
    assert again.output == done.output  # the stream depends on the seed and the document id only


def test_obfuscate_document_starts_from_the_previous_stage_output(fasttext_space: Space) -> None:
    doc = Document("n1", "Qwertyson pain", output="[NAME] pain")
    done = WordObfuscator(fasttext_space, random_state=1)(doc)
    assert done.output is not None and done.output.startswith("[") and "]" in done.output


def test_empty_and_layout_only_texts_pass_through(fasttext_space: Space) -> None:
    assert WordObfuscator(fasttext_space).transform(["", " \n--\t"]) == ["", " \n--\t"]


def test_fit_trains_a_space(word_corpus: list[str]) -> None:
    from kneo_corpus import TINY

    obfuscator = WordObfuscator(n=3, random_state=0, params=TINY).fit(word_corpus)
    assert obfuscator.space_ is not None and "knee" in obfuscator.space_.candidate_set
    _check_guarantees(obfuscator.space_, NOTE, obfuscator.transform([NOTE])[0])


def test_random_source_instances_are_accepted(fasttext_space: Space) -> None:
    output = WordObfuscator(fasttext_space, random_state=RandomSource(3)).transform([NOTE])[0]
    _check_guarantees(fasttext_space, NOTE, output)
