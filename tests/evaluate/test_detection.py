"""Detection metrics on tiny hand-computed examples."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anonymed.document import Document, Span
from anonymed.errors import SpanError
from anonymed.evaluate import DetectionReport, Scores, evaluate_detection, pair_by_id
from anonymed.evaluate.tokens import TokenIndex, tokenize


def at(text: str, needle: str, label: str, occurrence: int = 0, subtype: str | None = None) -> Span:
    """The span of the ``occurrence``-th ``needle`` in ``text``."""
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(needle, start + 1)
    return Span.of(text, start, start + len(needle), label, subtype=subtype)


def score(text: str, gold: list[Span], predicted: list[Span] | None) -> DetectionReport:
    """Evaluate one document."""
    return evaluate_detection([(Document("d1", text, gold=tuple(gold)), predicted)])


def row(rows: tuple[Scores, ...], key: str) -> Scores:
    """The row with this key."""
    return next(r for r in rows if r.key == key)


NOTE = "Seen by Dr John Smith on 12/03/2020."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Seen by Dr John Smith.", ["Seen", "by", "Dr", "John", "Smith"]),  # punctuation splits
        ("12/03/2020", ["12", "03", "2020"]),  # slashes split dates
        ("Zoé_Durand-Lefèvre", ["Zoé", "Durand", "Lefèvre"]),  # accents kept, underscore splits
        ("  --  ", []),  # no alphanumeric character
        ("", []),  # empty text
        ("O'Brien", ["O", "Brien"]),  # apostrophe splits
    ],
)
def test_tokens_are_maximal_alphanumeric_runs(text: str, expected: list[str]) -> None:
    assert [text[s:e] for s, e in tokenize(text)] == expected


def test_token_index_finds_the_tokens_a_span_touches() -> None:
    index = TokenIndex.of(NOTE)
    touched = index.touched(at(NOTE, "r John Sm", "NAME"))  # starts inside "Dr", ends inside "Smith"
    assert [NOTE[index.starts[i] : index.ends[i]] for i in touched] == ["Dr", "John", "Smith"]
    assert list(index.touched(at(NOTE, " ", "OTHER"))) == []  # a space touches no token


def test_perfect_prediction_scores_one_everywhere() -> None:
    gold = [at(NOTE, "John Smith", "NAME"), at(NOTE, "12/03/2020", "DATE")]
    report = score(NOTE, gold, list(gold))
    tokens = report.overall.tokens
    assert (tokens.tp, tokens.fp, tokens.fn) == (5, 0, 0)
    assert (tokens.precision, tokens.recall, tokens.f1) == (1.0, 1.0, 1.0)
    assert (report.overall.entities.found, report.overall.entities.total) == (2, 2)


def test_partial_overlap_counts_tokens_but_not_the_entity() -> None:
    gold = [at(NOTE, "John Smith", "NAME")]
    report = score(NOTE, gold, [at(NOTE, "John Smi", "NAME")])  # "Smi" touches the token "Smith"
    tokens = report.overall.tokens
    assert (tokens.tp, tokens.fp, tokens.fn) == (2, 0, 0)  # token-level: both tokens touched
    assert report.overall.entities.recall == 0.0  # strict: "th" of Smith is left uncovered


def test_prediction_of_one_token_of_two() -> None:
    report = score(NOTE, [at(NOTE, "John Smith", "NAME")], [at(NOTE, "John", "NAME")])
    tokens = report.overall.tokens
    assert (tokens.tp, tokens.fp, tokens.fn) == (1, 0, 1)
    assert tokens.recall == 0.5
    assert tokens.f1 == pytest.approx(2 / 3)
    assert report.overall.entities.found == 0


def test_missed_entity_without_any_prediction_has_no_precision() -> None:
    report = score(NOTE, [at(NOTE, "John Smith", "NAME")], [])
    tokens = report.overall.tokens
    assert (tokens.tp, tokens.fp, tokens.fn) == (0, 0, 2)
    assert tokens.recall == 0.0
    assert tokens.precision is None  # nothing predicted: undefined, not zero
    assert tokens.f1 is None
    assert (report.overall.entities.found, report.overall.entities.total) == (0, 1)


def test_entity_at_end_of_text_is_found() -> None:
    text = "Patient: Smith"
    gold = [at(text, "Smith", "NAME")]
    report = score(text, gold, list(gold))
    assert report.overall.tokens.tp == 1
    assert report.overall.entities.recall == 1.0


def test_empty_note_counts_a_document_and_nothing_else() -> None:
    report = score("", [], [])
    assert report.documents == 1
    tokens = report.overall.tokens
    assert (tokens.tp, tokens.fp, tokens.fn) == (0, 0, 0)
    assert (tokens.precision, tokens.recall, tokens.f1) == (None, None, None)
    assert report.overall.entities.recall is None
    assert report.by_label == ()


def test_repeated_entity_counts_each_occurrence() -> None:
    text = "Smith called. Smith left."
    gold = [at(text, "Smith", "NAME"), at(text, "Smith", "NAME", occurrence=1)]
    report = score(text, gold, [at(text, "Smith", "NAME")])
    assert (report.overall.tokens.tp, report.overall.tokens.fn) == (1, 1)
    assert (report.overall.entities.found, report.overall.entities.total) == (1, 2)


@pytest.mark.parametrize(
    ("predicted", "tp", "fp", "precision"),
    [
        (["Seen"], 0, 1, 0.0),  # only a false positive
        (["Dr John Smith"], 2, 1, 2 / 3),  # the title is one spurious token
        (["Dr", "John Smith", "on"], 2, 2, 0.5),  # two separate spurious tokens
    ],
)
def test_false_positives_lower_precision_only(
    predicted: list[str], tp: int, fp: int, precision: float
) -> None:
    report = score(NOTE, [at(NOTE, "John Smith", "NAME")], [at(NOTE, p, "NAME") for p in predicted])
    tokens = report.overall.tokens
    assert (tokens.tp, tokens.fp) == (tp, fp)
    assert tokens.precision == pytest.approx(precision)
    assert tokens.recall == (1.0 if tp == 2 else 0.0)


def test_false_positive_on_a_note_without_gold_has_no_recall() -> None:
    report = score(NOTE, [], [at(NOTE, "Seen", "NAME")])
    assert report.overall.tokens.fp == 1
    assert report.overall.tokens.recall is None
    assert row(report.by_label, "NAME").tokens.precision == 0.0


def test_punctuation_only_gold_span_is_ignored_and_counted_apart() -> None:
    text = "Call - now"
    report = score(text, [at(text, "-", "OTHER")], [])
    assert report.ignored_gold_spans == 1
    assert report.overall.entities.total == 0  # not an entity: nothing to leak
    assert report.overall.tokens.fn == 0
    assert row(report.by_label, "OTHER").entities.total == 0


def test_punctuation_only_prediction_is_not_a_false_positive() -> None:
    text = "Call - now"
    report = score(text, [], [at(text, "-", "OTHER")])
    assert report.overall.tokens.fp == 0


def test_entity_only_needs_its_alphanumeric_characters_covered() -> None:
    text = "Seen by J. Smith"
    gold = [at(text, "J. Smith", "NAME")]
    predicted = [at(text, "J", "NAME"), at(text, "Smith", "NAME")]  # the dot and space are left out
    assert score(text, gold, predicted).overall.entities.recall == 1.0


def test_entity_covered_by_several_predictions_of_other_labels_is_found() -> None:
    text = "Lives at 12 Main Street"
    gold = [at(text, "12 Main Street", "LOCATION", subtype="street")]
    predicted = [at(text, "12", "ID"), at(text, "Main Street", "NAME")]
    assert score(text, gold, predicted).overall.entities.found == 1


PER_LABEL = "Dr Adams saw Ann Lee on 3 May 2020 in Boston."


def per_label_spans() -> tuple[tuple[Span, ...], list[Span]]:
    """Gold: clinician, patient, date, city. Predicted: 2 names, the city as NAME, the date, a bad date."""
    text = PER_LABEL
    gold = (
        at(text, "Adams", "NAME", subtype="clinician"),
        at(text, "Ann Lee", "NAME", subtype="patient"),
        at(text, "3 May 2020", "DATE"),
        at(text, "Boston", "LOCATION", subtype="city"),
    )
    predicted = [at(text, w, "NAME") for w in ("Adams", "Ann", "Boston")]
    predicted += [at(text, "3 May 2020", "DATE"), at(text, "saw", "DATE")]
    return gold, predicted


def per_label_report(unknown_predictions: int = 0) -> DetectionReport:
    """The report of the per-label example."""
    gold, predicted = per_label_spans()
    doc = Document("d1", PER_LABEL, gold=gold)
    return evaluate_detection([(doc, predicted)], unknown_predictions=unknown_predictions)


def test_per_label_overall_is_label_blind() -> None:
    overall = per_label_report().overall
    assert (overall.tokens.tp, overall.tokens.fp, overall.tokens.fn) == (
        6,
        1,
        1,
    )  # Lee missed, "saw" spurious
    assert (overall.entities.found, overall.entities.total) == (3, 4)  # Ann Lee only half covered


@pytest.mark.parametrize(
    ("key", "found", "missed", "correct", "spurious", "entities"),
    [
        ("NAME", 2, 1, 3, 0, (1, 2)),  # Boston predicted as NAME is still a correct PHI token
        ("DATE", 3, 0, 3, 1, (1, 1)),  # "saw" is the DATE detector's false positive
        ("LOCATION", 1, 0, 0, 0, (1, 1)),  # found by a NAME prediction; no LOCATION prediction
    ],
)
def test_per_label_rows(
    key: str, found: int, missed: int, correct: int, spurious: int, entities: tuple[int, int]
) -> None:
    scores = row(per_label_report().by_label, key)
    tokens = scores.tokens
    assert (tokens.found, tokens.missed, tokens.correct, tokens.spurious) == (
        found,
        missed,
        correct,
        spurious,
    )
    assert (scores.entities.found, scores.entities.total) == entities


def test_per_label_rows_follow_the_taxonomy_order() -> None:
    report = per_label_report()
    assert [r.key for r in report.by_label] == ["NAME", "DATE", "LOCATION"]
    assert [r.key for r in report.by_full_label] == [
        "NAME",
        "NAME/clinician",
        "NAME/patient",
        "DATE",
        "LOCATION/city",
    ]


@pytest.mark.parametrize(
    ("key", "recall", "precision", "entity_recall"),
    [
        ("NAME", None, 1.0, None),  # predictions carry no subtype: precision only
        ("NAME/clinician", 1.0, None, 1.0),  # gold only: recall only
        ("NAME/patient", 0.5, None, 0.0),  # Ann found, Lee missed
        ("LOCATION/city", 1.0, None, 1.0),
    ],
)
def test_per_full_label_rows(
    key: str, recall: float | None, precision: float | None, entity_recall: float | None
) -> None:
    scores = row(per_label_report().by_full_label, key)
    assert scores.tokens.recall == recall
    assert scores.tokens.precision == precision
    assert scores.entities.recall == entity_recall


def test_token_in_two_gold_spans_counts_once_overall() -> None:
    text = "Dr Adams"
    gold = [at(text, "Dr Adams", "NAME", subtype="clinician"), at(text, "Dr", "PROFESSION")]
    report = score(text, gold, [])
    assert report.overall.tokens.fn == 2
    assert row(report.by_label, "NAME").tokens.fn == 2
    assert row(report.by_label, "PROFESSION").tokens.fn == 1


def test_document_without_prediction_record_is_all_missed() -> None:
    gold = [at(NOTE, "John Smith", "NAME")]
    report = score(NOTE, gold, None)
    assert report.missing_predictions == 1
    assert report.overall.tokens.fn == 2


def test_scores_add_up_over_documents() -> None:
    first = Document("a", NOTE, gold=(at(NOTE, "John Smith", "NAME"),))
    second = Document("b", "Smith left.", gold=(at("Smith left.", "Smith", "NAME"),))
    report = evaluate_detection([(first, [at(NOTE, "John", "NAME")]), (second, [])])
    assert report.documents == 2
    assert (report.overall.tokens.tp, report.overall.tokens.fn) == (1, 2)
    assert (report.overall.entities.found, report.overall.entities.total) == (0, 2)


def test_predicted_span_off_the_text_is_an_error_without_note_text() -> None:
    doc = Document("note-7", NOTE, gold=())
    foreign = Span.of("Nurse Alice Cooper here, over", 6, 18, "NAME")  # same offsets, other text
    with pytest.raises(SpanError, match="note-7") as info:
        evaluate_detection([(doc, [foreign])])
    assert "6-18" in str(info.value)
    assert "Smith" not in str(info.value) and "Alice" not in str(info.value)


def test_pair_by_id_matches_ids_and_lists_unknown_predictions() -> None:
    docs = [Document("a", NOTE), Document("b", NOTE)]
    pairs, unknown = pair_by_id(docs, [("zz", []), ("a", [])])
    assert [(doc.id, predicted) for doc, predicted in pairs] == [("a", []), ("b", None)]
    assert unknown == ["zz"]


def test_pair_by_id_matches_repeated_ids_occurrence_by_occurrence() -> None:
    docs = [Document("a", NOTE), Document("a", NOTE), Document("a", NOTE)]
    first, second = [at(NOTE, "John", "NAME")], [at(NOTE, "Smith", "NAME")]
    pairs, unknown = pair_by_id(docs, [("a", first), ("a", second)])
    assert [predicted for _, predicted in pairs] == [first, second, None]  # the third has no record
    assert unknown == []
    _, unknown = pair_by_id(docs[:1], [("a", first), ("a", second)])
    assert unknown == ["a"]  # one record too many


def test_report_json_is_plain_and_rounded() -> None:
    data = json.loads(json.dumps(per_label_report(unknown_predictions=3).to_json()))
    assert data["unknown_predictions"] == 3
    assert data["overall"]["tokens"] == {
        "tp": 6,
        "fp": 1,
        "fn": 1,
        "tp_predicted": 6,
        "support": 7,
        "precision": 0.8571,
        "recall": 0.8571,
        "f1": 0.8571,
    }
    assert data["by_label"]["LOCATION"]["tokens"]["precision"] is None
    assert data["by_full_label"]["NAME/patient"]["entities"] == {"found": 0, "total": 1, "recall": 0.0}


words = st.lists(st.sampled_from(["Ann", "Lee", "3", "May", ",", "-", " ", "is", "ok", "."]), max_size=12)


@st.composite
def note_with_spans(draw: st.DrawFn) -> tuple[str, list[Span], list[Span]]:
    """A random note and two random sets of spans over it."""
    text = "".join(draw(words))
    spans: list[list[Span]] = [[], []]
    for group in spans:
        for _ in range(draw(st.integers(0, 3)) if text else 0):
            start = draw(st.integers(0, len(text) - 1))
            end = draw(st.integers(start + 1, len(text)))
            group.append(Span.of(text, start, end, draw(st.sampled_from(["NAME", "DATE"]))))
    return text, spans[0], spans[1]


@given(note_with_spans())
def test_property_counts_are_consistent(case: tuple[str, list[Span], list[Span]]) -> None:
    text, gold, predicted = case
    report = score(text, gold, predicted)
    tokens, entities = report.overall.tokens, report.overall.entities
    gold_tokens = len(TokenIndex.of(text).positives(gold))
    assert tokens.tp + tokens.fn == gold_tokens  # every gold token is found or missed
    assert tokens.tp == tokens.correct  # binary: the two sides agree
    assert 0 <= entities.found <= entities.total
    assert entities.total + report.ignored_gold_spans == len(gold)


@given(note_with_spans())
def test_property_predicting_the_gold_is_perfect(case: tuple[str, list[Span], list[Span]]) -> None:
    text, gold, _ = case
    report = score(text, gold, list(gold))
    assert report.overall.tokens.fn == 0 and report.overall.tokens.fp == 0
    assert report.overall.entities.found == report.overall.entities.total


@given(note_with_spans())
def test_property_predicting_the_whole_note_finds_everything(
    case: tuple[str, list[Span], list[Span]],
) -> None:
    text, gold, _ = case
    everything = [Span.of(text, 0, len(text), "OTHER")] if text else []
    report = score(text, gold, everything)
    assert report.overall.tokens.fn == 0
    assert report.overall.entities.found == report.overall.entities.total
