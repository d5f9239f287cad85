"""Training spaces: hygiene of the replacement vocabulary, duplicates, patients, settings, reproducibility."""

from __future__ import annotations

import numpy as np
import pytest

from anonymed.document import Document
from anonymed.embeddings import PAPER_PARAMS, Hygiene, Space, TrainParams, train_space
from anonymed.errors import ConfigError
from anonymed.words import WordObfuscator
from kneo_corpus import PLANTED, TINY, TWO_NOTES, tiny_corpus


def test_a_name_from_one_note_is_in_the_space_but_not_a_candidate(fasttext_space: Space) -> None:
    planted = fasttext_space.index[PLANTED]
    assert fasttext_space.counts[planted] == 6 and fasttext_space.doc_freq[planted] == 1
    assert PLANTED not in fasttext_space.candidate_set


def test_a_word_from_two_notes_is_not_a_candidate_with_the_default_three(fasttext_space: Space) -> None:
    assert fasttext_space.doc_freq[fasttext_space.index[TWO_NOTES]] == 2
    assert TWO_NOTES not in fasttext_space.candidate_set


def test_lowering_the_thresholds_admits_it(word_corpus: list[str]) -> None:
    space = train_space(word_corpus, TINY, Hygiene(min_count=2, min_docs=2))
    assert TWO_NOTES in space.candidate_set and PLANTED not in space.candidate_set


def test_the_planted_name_never_comes_out(fasttext_space: Space) -> None:
    obfuscator = WordObfuscator(fasttext_space, n="2-6", random_state=1)
    outputs = obfuscator.transform(tiny_corpus(documents=20, seed=5) + [f"{PLANTED} {TWO_NOTES}"] * 50)
    words = {w.lower() for text in outputs for w in text.split()}
    assert PLANTED not in " ".join(outputs).lower() and TWO_NOTES not in words


def test_identical_notes_count_once() -> None:
    notes = tiny_corpus(30) + ["a note about Xenophon only"] * 5  # five copies of one note
    space = train_space(notes, TINY, Hygiene())
    assert space.doc_freq[space.index["xenophon"]] == 1
    assert space.meta["corpus"]["duplicates_skipped"] == 4


def test_hygiene_by_patient_counts_patients_not_notes() -> None:
    notes = [
        Document(str(i), text, {"patient_id": "p1" if i < 10 else f"p{i}"})
        for i, text in enumerate(tiny_corpus(30))
    ]
    notes += [Document(f"x{i}", f"{PLANTED} again and again", {"patient_id": "p1"}) for i in range(6)]
    space = train_space(notes, TINY, Hygiene(by="patient"))
    assert space.doc_freq[space.index[PLANTED]] == 1
    assert space.doc_freq[space.index["the"]] <= 21  # 20 other patients + p1


def test_training_is_reproducible_with_one_worker(word_corpus: list[str], fasttext_space: Space) -> None:
    again = train_space(word_corpus, TINY, Hygiene())
    assert np.array_equal(again.vectors, fasttext_space.vectors)
    assert np.array_equal(again.neighbours, fasttext_space.neighbours)


def test_papers_settings_are_available() -> None:
    assert (PAPER_PARAMS.algorithm, PAPER_PARAMS.vector_size, PAPER_PARAMS.window) == ("word2vec", 256, 15)
    assert (PAPER_PARAMS.epochs, PAPER_PARAMS.min_count) == (100, 1)


def test_float16_storage_halves_the_vectors(word_corpus: list[str]) -> None:
    space = train_space(word_corpus, TrainParams(**{**TINY.__dict__, "dtype": "float16"}), Hygiene())
    assert space.vectors.dtype == np.float16 and space.subwords is not None
    assert space.subwords.ngrams.dtype == np.float16


@pytest.mark.parametrize(
    "changes",
    [
        {"algorithm": "glove"},  # unknown algorithm
        {"n_max": 1},  # a table of one neighbour cannot satisfy N > 1
        {"dtype": "int8"},  # unsupported storage
        {"epochs": 0},  # nothing trained
    ],
)
def test_bad_training_settings_are_config_errors(changes: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        TrainParams(**changes)  # type: ignore[arg-type]


def test_a_corpus_too_small_for_the_hygiene_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="pass hygiene"):
        train_space(["one short note", "another one"], TINY, Hygiene())


def test_an_empty_corpus_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        train_space(["", "123 456"], TINY, Hygiene())
