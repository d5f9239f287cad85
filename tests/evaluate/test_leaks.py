"""The leak rate: gold items readable at their place in the output, split into missed and written back."""

from __future__ import annotations

import pytest

from anonymed.config import PipelineConfig
from anonymed.document import Document, Replacement, Span
from anonymed.errors import ConfigError
from anonymed.evaluate.leaks import (
    GENERIC,
    MISSED,
    UNKNOWN,
    WRITTEN_BACK,
    Anonymized,
    LeakParams,
    evaluate_leaks,
    from_run,
    map_by_alignment,
    map_by_replacements,
    note_leaks,
)
from anonymed.labels import Label
from anonymed.pipeline import Pipeline

TEXT = "Seen by John Smith on 02/12/2020 in Boston. Smith agreed."


def _gold() -> Document:
    spans = (
        Span.of(TEXT, 8, 18, Label.NAME, subtype="clinician"),
        Span.of(TEXT, 22, 32, Label.DATE),
        Span.of(TEXT, 36, 42, Label.LOCATION, subtype="city"),
        Span.of(TEXT, 44, 49, Label.NAME, subtype="clinician"),
    )
    return Document("g", TEXT, {"lang": "en"}, gold=spans)


def _rep(start: int, end: int, label: Label, surrogate: str) -> Replacement:
    return Replacement(start, end, label, TEXT[start:end], surrogate, "test")


def test_items_are_split_into_missed_and_written_back() -> None:
    # the name and the date are detected; the date is written back; Boston and the 2nd Smith are missed
    detected = [Span.of(TEXT, 8, 18, Label.NAME), Span.of(TEXT, 22, 32, Label.DATE)]
    reps = [_rep(8, 18, Label.NAME, "Anne Lee"), _rep(22, 32, Label.DATE, "02/12/2020")]
    output = "Seen by Anne Lee on 02/12/2020 in Boston. Smith agreed."
    found = note_leaks(_gold(), output, detected=detected, replacements=reps)
    assert [(i.leaked, i.cause) for i in found if i is not None] == [
        (False, None),
        (True, WRITTEN_BACK),
        (True, MISSED),
        (True, MISSED),
    ]


@pytest.mark.parametrize(
    ("text", "lang", "cause"), [("M.", "fr", GENERIC), ("Mme", "fr", GENERIC), ("Jo", "fr", WRITTEN_BACK)]
)
def test_a_gold_item_that_is_without_an_identifying_word_is_generic_not_written_back(
    text: str, lang: str, cause: str
) -> None:
    # EDS-pseudo annotates "M." before a surname as an initial; anonymed reads it as Monsieur and keeps it
    note = f"Vu par {text} Durand."
    start = note.index(text)
    gold = Document("g", note, {"lang": lang}, gold=(Span.of(note, start, start + len(text), Label.NAME),))
    detected = [Span.of(note, start, len(note) - 1, Label.NAME)]
    reps = [Replacement(start, len(note) - 1, Label.NAME, f"{text} Durand", f"{text} Martin", "fake")]
    output = f"Vu par {text} Martin."
    (found,) = note_leaks(gold, output, detected=detected, replacements=reps)
    assert found is not None and found.leaked and found.cause == cause
    report = evaluate_leaks([Anonymized(gold, output, detected, reps)])
    assert report.overall.to_json()[GENERIC] == (cause == GENERIC)
    assert ("+ 1 generic" in report.overall.cell()) is (cause == GENERIC)


def test_a_replaced_item_does_not_leak_because_its_text_appears_elsewhere() -> None:
    """The second Smith is still there, far from the first: the first item did not leak."""
    reps = [_rep(8, 18, Label.NAME, "Anne Lee")]
    output = "Seen by Anne Lee on 02/12/2020 in Boston. Smith agreed."
    first = note_leaks(_gold(), output, detected=[], replacements=reps)[0]
    assert first is not None and not first.leaked


def test_a_one_letter_item_is_not_found_in_a_neighbouring_word() -> None:
    text = "Had a bed @ St A. today"
    gold = Document("g", text, gold=(Span.of(text, 15, 16, Label.LOCATION),))
    reps = [Replacement(12, 16, Label.LOCATION, "St A", "Stephensshire", "fake")]
    output = "Had a bed @ Stephensshire. today"
    item = note_leaks(gold, output, detected=[Span.of(text, 12, 16, Label.LOCATION)], replacements=reps)[0]
    assert item is not None and not item.leaked


def test_matching_is_case_insensitive_on_whole_words() -> None:
    reps = [_rep(8, 18, Label.NAME, "JOHN SMITH")]
    output = "Seen by JOHN SMITH on 01/01/2000 in Bostonia. Smith agreed."
    found = note_leaks(_gold(), output, detected=None, replacements=reps)
    assert found[0] is not None and found[0].leaked and found[0].cause == UNKNOWN
    assert found[2] is not None and not found[2].leaked  # "Bostonia" is another word


def test_positions_map_through_replacements_and_through_alignment() -> None:
    reps = [_rep(8, 18, Label.NAME, "Al Li")]
    position = map_by_replacements(reps)
    assert position(22, False) == 22 - 5 and position(10, False) == 8 and position(10, True) == 13
    output = "Seen by Al Li on 02/12/2020 in Boston. Smith agreed."
    aligned = map_by_alignment(TEXT, output)
    assert aligned(TEXT.index("Boston"), False) == output.index("Boston")


def test_alignment_mode_finds_the_same_leaks_with_some_slack() -> None:
    output = "Seen by Anne Lee on 02/12/2020 in Boston. Smith agreed."
    found = note_leaks(_gold(), output, params=LeakParams(slack=5))
    assert [i.leaked for i in found if i is not None] == [False, True, True, True]
    with pytest.raises(ConfigError):
        LeakParams(slack=-1)


def test_the_default_profile_writes_nothing_back_on_a_note() -> None:
    """Every gold item of this note is detected, so with the default profile nothing leaks at all."""
    text = "Mr. John Durand, 58, was admitted on 02/12/2020 from Calvert Hospital. Call (617) 555-0142."
    gold = (
        Span.of(text, 4, 15, Label.NAME),
        Span.of(text, 37, 47, Label.DATE),
        Span.of(text, 53, 69, Label.LOCATION, subtype="hospital"),
        Span.of(text, 76, 90, Label.CONTACT, subtype="phone"),
    )
    doc = Document("n", text, {"lang": "en", "patient_id": "P1"}, gold=gold)
    pipeline = Pipeline(PipelineConfig())
    runs = [from_run(doc, pipeline.run(doc)) for _ in range(5)]
    report = evaluate_leaks(runs).to_json()
    assert report["overall"]["items"] == 20 and report["overall"]["leaked"] == 0
    assert "Durand" not in str(report)


def test_report_counts_per_label_and_full_label() -> None:
    output = "Seen by Anne Lee on 02/12/2020 in Boston. Smith agreed."
    report = evaluate_leaks([Anonymized(_gold(), output, detected=[])])
    data = report.to_json()
    assert data["overall"] == {
        "items": 4, "leaked": 3, "leak_rate": 0.75, MISSED: 3, WRITTEN_BACK: 0, GENERIC: 0, UNKNOWN: 0
    }  # fmt: skip
    assert data["by_label"]["NAME"]["items"] == 2 and data["by_full_label"]["NAME/clinician"]["leaked"] == 1
