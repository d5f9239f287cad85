"""SMR, ALID, LR, LRDI and LRQI on tiny notes whose values are computed by hand."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anonymed.document import Document, Span
from anonymed.errors import ConfigError
from anonymed.evaluate.anonymity import (
    AnonymityParams,
    entity_results,
    evaluate_anonymity,
    normalise,
)


def spans(text: str, *entities: tuple[str, str]) -> tuple[Span, ...]:
    """Gold spans over every occurrence of each (needle, LABEL or LABEL/subtype)."""
    found = []
    for needle, full in entities:
        label, _, sub = full.partition("/")
        start = text.find(needle)
        while start >= 0:
            found.append(Span.of(text, start, start + len(needle), label, subtype=sub or None))
            start = text.find(needle, start + 1)
    return tuple(found)


def note(text: str, *entities: tuple[str, str], doc_id: str = "n1") -> Document:
    """A document with gold spans."""
    return Document(doc_id, text, gold=spans(text, *entities))


def similarity(text: str, needle: str, anonymized: str) -> float:
    """s(e) of the first entity."""
    results, _ = entity_results(spans(text, (needle, "NAME")), anonymized)
    return results[0].similarity


@pytest.mark.parametrize(
    ("text", "needle", "anonymized", "expected"),
    [
        ("Seen by Smith", "Smith", "Seen by Smith", 1.0),  # entity at the end, kept
        ("Seen by Smith", "Smith", "Seen by Smyth", 0.8),  # 1 edit over 5 letters
        ("Seen by Smith", "Smith", "", 0.0),  # empty output: no window at all
        ("Seen by Smith", "Smith", "?? -- !!", 0.0),  # output without a token
        ("Dr John Smith", "John Smith", "dr JOHN   smith", 1.0),  # case and whitespace normalised
        ("Dr John Smith", "John Smith", "Dr Jon Smith", 0.9),  # 2-token window "jon smith": 1 edit / 10
        ("Dr John Smith", "John Smith", "Smith", 0.5),  # fewer tokens than the entity: all of them
        ("Seen by Smith", "Smith", "Seen by Jones", 1 - 4 / 5),  # best window "seen": lev 4 ("jones": 5)
    ],
)
def test_best_window_similarity_is_normalised_levenshtein(
    text: str, needle: str, anonymized: str, expected: float
) -> None:
    assert similarity(text, needle, anonymized) == pytest.approx(expected)


def test_empty_output_removes_every_entity() -> None:
    report = evaluate_anonymity([(note("John met Mary.", ("John", "NAME"), ("Mary", "NAME")), "")])
    assert report.macro.smr == 1.0
    assert report.macro.alid == 1.0
    assert report.macro.lr == 1.0


def test_untouched_note_recalls_nothing() -> None:
    doc = note("John met Mary on 12/03/2020.", ("John", "NAME"), ("12/03/2020", "DATE"))
    report = evaluate_anonymity([(doc, doc.text)])
    assert (report.macro.smr, report.macro.alid, report.macro.lr) == (0.0, 0.0, 0.0)
    assert (report.macro.lrdi, report.macro.lrqi) == (0.0, 0.0)


def test_entity_at_the_end_with_one_edit_counts_as_anonymized_below_tau() -> None:
    report = evaluate_anonymity([(note("Seen by Smith", ("Smith", "NAME")), "Seen by Smyth")])
    assert report.micro.smr == 1.0  # "smith" no longer occurs
    assert report.micro.alid == pytest.approx(0.2)  # 1 - 0.8
    assert report.micro.lr == 1.0  # 0.8 < 0.85


def test_tau_is_configurable() -> None:
    pair = (note("Seen by Smith", ("Smith", "NAME")), "Seen by Smyth")
    assert evaluate_anonymity([pair], AnonymityParams(tau=0.75)).micro.lr == 0.0  # 0.8 >= 0.75


def test_repeated_entity_leaks_if_any_occurrence_survives() -> None:
    doc = note("Smith called. Smith left.", ("Smith", "NAME"))
    assert len(doc.gold) == 2
    report = evaluate_anonymity([(doc, "Jones called. Smith left.")])
    assert report.micro.counts["entities"] == 2
    assert report.micro.smr == 0.0  # both occurrences still find "smith"
    assert report.micro.lr == 0.0


def test_multi_token_entity_is_compared_with_windows_of_as_many_tokens() -> None:
    doc = note("Dr John Smith saw her.", ("John Smith", "NAME"))
    report = evaluate_anonymity([(doc, "Dr Jon Smith saw her.")])
    assert report.micro.smr == 1.0  # "john smith" is gone
    assert report.micro.alid == pytest.approx(0.1)
    assert report.micro.lr == 0.0  # 0.9 >= 0.85: still recognisable


@pytest.mark.parametrize(
    ("anonymized", "whole_words", "removed"),
    [
        ("Albuterol given", False, False),  # substring match, as in Pissarra et al.
        ("Albuterol given", True, True),  # whole words only: "al" is not a word here
        ("Al given", True, False),
    ],
)
def test_smr_matches_substrings_unless_whole_words(anonymized: str, whole_words: bool, removed: bool) -> None:
    results, _ = entity_results(
        spans("Al came", ("Al", "NAME")), anonymized, AnonymityParams(whole_words=whole_words)
    )
    assert results[0].removed is removed


def test_direct_and_quasi_identifiers_are_scored_apart() -> None:
    doc = note(
        "John Smith, Boston, 12/03/2020, phone 555-1234, code X1.",
        ("John Smith", "NAME/patient"),  # direct
        ("555-1234", "CONTACT/phone"),  # direct
        ("Boston", "LOCATION/city"),  # quasi
        ("12/03/2020", "DATE"),  # quasi
        ("X1", "OTHER"),  # neither
    )
    anonymized = "Paul Brown, Boston, 01/01/2001, phone 555-1234, code Q9."
    report = evaluate_anonymity([(doc, anonymized)])
    assert report.micro.counts == {"entities": 5, "direct": 2, "quasi": 2}
    assert report.micro.lrdi == 0.5  # the name went, the phone stayed
    assert report.micro.lrqi == 0.5  # the date went, the city stayed
    assert report.micro.lr == pytest.approx(3 / 5)


def test_groups_are_configurable() -> None:
    doc = note("Code X1 here.", ("X1", "OTHER"))
    report = evaluate_anonymity([(doc, "Code Q9 here.")], AnonymityParams(direct=("OTHER",)))
    assert report.micro.lrdi == 1.0
    assert report.micro.lrqi is None  # no quasi-identifier at all


def test_macro_averages_notes_and_micro_pools_entities() -> None:
    leaked = (note("Smith came.", ("Smith", "NAME"), doc_id="a"), "Smith came.")
    hidden = (
        note("Ann, Bob and Cy came.", ("Ann", "NAME"), ("Bob", "NAME"), ("Cy", "NAME"), doc_id="b"),
        "?",
    )
    empty = (note("Nothing here.", doc_id="c"), "Nothing here.")  # no entity: not in the averages
    report = evaluate_anonymity([leaked, hidden, empty])
    assert report.macro.lr == 0.5
    assert report.micro.lr == 0.75
    assert report.documents == 3
    assert report.documents_with_entities == 2
    assert report.by_label["NAME"].lr == 0.75


def test_entity_without_a_token_is_left_out_and_counted() -> None:
    text = "Seen -- by Smith"
    gold = (Span.of(text, 5, 7, "OTHER"), Span.of(text, 11, 16, "NAME"))
    report = evaluate_anonymity([(Document("x", text, gold=gold), "Seen by Jones")])
    assert report.ignored_entities == 1
    assert report.micro.counts["entities"] == 1


def test_report_json_is_rounded_and_names_parameters() -> None:
    data = evaluate_anonymity([(note("Seen by Smith", ("Smith", "NAME")), "Seen by Smyth")]).to_json()
    assert data["micro"]["alid"] == 0.2
    assert data["params"]["tau"] == 0.85
    assert data["macro"]["lrqi"] is None


@pytest.mark.parametrize(
    "params",
    [
        {"tau": 0.0},  # LR would be empty by definition
        {"tau": 1.5},
        {"direct": ("NAME",), "quasi": ("NAME",)},  # a label in both groups
    ],
)
def test_bad_parameters_are_refused(params: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        AnonymityParams(**params)  # type: ignore[arg-type]


def test_normalise_folds_case_and_whitespace() -> None:
    assert normalise("  New\n\tYORK  ") == "new york"


words = st.text(alphabet="abcdefghij", min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(st.lists(words, min_size=1, max_size=8), st.integers(min_value=0, max_value=7))
def test_unchanged_text_always_leaks_every_entity(tokens: list[str], index: int) -> None:
    text = " ".join(tokens)
    start = sum(len(t) + 1 for t in tokens[: index % len(tokens)])
    span = Span.of(text, start, start + len(tokens[index % len(tokens)]), "NAME")
    results, _ = entity_results((span,), text)
    assert results[0].similarity == pytest.approx(1.0)
    assert not results[0].removed


@settings(max_examples=60, deadline=None)
@given(words, st.text(max_size=40))
def test_similarity_stays_in_the_unit_interval(entity: str, anonymized: str) -> None:
    text = f"x {entity}"
    results, _ = entity_results((Span.of(text, 2, len(text), "NAME"),), anonymized)
    assert 0.0 <= results[0].similarity <= 1.0
    assert results[0].removed == (entity not in normalise(anonymized))
