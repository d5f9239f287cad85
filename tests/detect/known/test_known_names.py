"""The record's known names found in the forms notes write them (one test per form of issue 17, point 1)."""

from __future__ import annotations

import pytest

from anonymed.detect.known.detector import KnownDetector, KnownParams
from anonymed.detect.known.fuzzy import MAX_LETTERS, allowed_edits, eligible, typo_map
from anonymed.document import Document

PATIENT = [{"kind": "NAME/patient", "value": "John Smith"}]


def found(
    text: str, known: list[dict[str, str]], *, lang: str = "en", typos: bool = True
) -> list[tuple[str, str]]:
    doc = Document("d", text, {"known": known, "lang": lang})
    spans = KnownDetector(KnownParams(typos=typos)).detect(doc)
    return sorted((s.text, s.full_label) for s in spans)


def texts(text: str, known: list[dict[str, str]], **options: object) -> list[str]:
    return [piece for piece, _ in found(text, known, **options)]  # type: ignore[arg-type]


def test_a_surname_alone_in_lower_case_after_per() -> None:
    assert found("Plan discussed per smith today.", PATIENT) == [("smith", "NAME/patient")]


def test_case_and_accents_are_folded() -> None:
    known = [{"kind": "NAME/patient", "value": "Hélène Lefèvre"}]
    assert texts("HELENE LEFEVRE vue; helene lefevre revue; Mme Lefevre.", known, lang="fr") == [
        "HELENE LEFEVRE", "Lefevre", "helene lefevre",
    ]  # fmt: skip


def test_initials_before_and_after_the_surname() -> None:
    assert texts("Seen by J. Smith and J Smith; note from Smith, J. today.", PATIENT) == [
        "J Smith", "J. Smith", "Smith, J",
    ]  # fmt: skip
    assert texts("Smith K. is another man.", PATIENT) == ["Smith"]  # K is no initial of John Smith


def test_family_name_first_with_a_comma_is_one_span() -> None:
    assert found("SMITH, JOHN 45M admitted.", PATIENT) == [("SMITH, JOHN", "NAME/patient")]


def test_a_possessive_is_left_out_of_the_span() -> None:
    assert texts("Smith's daughter called. John's wife too.", PATIENT) == ["John", "Smith"]


def test_a_name_s_dotted_initials_alone_but_not_bare_ones() -> None:
    assert texts("Per J.S., better. Per J. S. too.", PATIENT) == ["J. S", "J.S"]
    # "JS" alone looks like the clinical abbreviations (BS, MD) a name's initials often are: not taken
    assert texts("JS reports no pain; js and Js.", PATIENT) == []


def test_in_a_note_written_in_capitals_short_and_common_words_are_not_taken_alone() -> None:
    known = [{"kind": "NAME/patient", "value": "Hope White"}]
    assert texts("WHITE COUNT NORMAL. NO HOPE. MRS WHITE HOPE CAME.", known) == ["WHITE HOPE"]


def test_hyphenated_names_match_with_spaces_and_each_part_alone() -> None:
    known = [{"kind": "NAME/relative", "value": "Marie-Claire Dubois-Martin"}]
    assert texts("Daughter Marie Claire Dubois Martin; MARIE-CLAIRE; Mme Dubois.", known) == [
        "Dubois", "MARIE-CLAIRE", "Marie Claire Dubois Martin",
    ]  # fmt: skip


def test_compound_names_with_particles_also_written_together() -> None:
    known = [{"kind": "NAME/patient", "value": "Maria de la Cruz"}]
    assert texts("Ms De La Cruz, then Ms Delacruz, then Cruz.", known) == ["Cruz", "De La Cruz", "Delacruz"]
    assert texts("la suite de la visite", known, lang="fr") == []  # particles never match alone


def test_given_and_family_as_separate_values_are_one_person() -> None:
    known = [{"kind": "NAME/patient", "value": "John"}, {"kind": "NAME/patient", "value": "Smith"}]
    assert found("SMITH JOHN and J. Smith", known) == [
        ("J. Smith", "NAME/patient"),
        ("SMITH JOHN", "NAME/patient"),
    ]


def test_short_and_common_words_of_a_name_need_capitals() -> None:
    known = [{"kind": "NAME/patient", "value": "Hope White"}, {"kind": "NAME/relative", "value": "Al Li"}]
    text = "white count normal; no hope; Mrs White and Hope came. Al and LI visited; al dente, li ion."
    assert texts(text, known) == ["Al", "Hope", "LI", "White"]


def test_light_typos_are_read_within_a_bounded_distance() -> None:
    known = [{"kind": "NAME/patient", "value": "Zebulon Quackenbush"}]
    assert texts("Mr Quackenbsh and Mr Quakcenbsuh; Zebulno.", known) == [
        "Quackenbsh",
        "Quakcenbsuh",
        "Zebulno",
    ]
    assert texts("Mr Qackenbsuhh.", known) == []  # three edits: too far
    assert texts("Mr Quackenbsh.", known, typos=False) == []


def test_a_typo_match_scores_below_an_exact_one() -> None:
    doc = Document("d", "Smtih and Smith", {"known": PATIENT})
    scores = {s.text: s.score for s in KnownDetector().detect(doc)}
    assert scores == {"Smith": 1.0, "Smtih": 0.9}


def test_common_words_are_never_read_as_typos() -> None:
    known = [{"kind": "NAME/patient", "value": "Grand"}]  # "grant" and "grandma" are words
    assert texts("We grant it; grandma came; Grnad called.", known) == ["Grnad"]


def test_a_name_split_by_a_stray_space_is_one_typo_span() -> None:
    known = [{"kind": "NAME/patient", "value": "Arlo Bweighouse"}]
    doc = Document("d", "Mr. Bweighou se is a 70 y/o male. Bweigh ouse slept.", {"known": known})
    spans = {(s.text, s.full_label, s.score) for s in KnownDetector().detect(doc)}
    assert spans == {("Bweighou se", "NAME/patient", 0.9), ("Bweigh ouse", "NAME/patient", 0.9)}
    assert texts("Mr. Bweigh ouse came.", known, typos=False) == []


@pytest.mark.parametrize(
    "text",
    [
        "Bweigh  ouse came.",  # two spaces: no stray space
        "Bweigh\nouse came.",  # a line break
        "Bweigh-ouse came.",  # a hyphen
        "Bwe igh ouse came.",  # three pieces
    ],
)
def test_only_one_stray_space_splits_a_name(text: str) -> None:
    known = [{"kind": "NAME/patient", "value": "Arlo Bweighouse"}]
    assert texts(text, known) == []


def test_two_common_words_are_no_split_name() -> None:
    assert texts("A new man came in.", [{"kind": "NAME/patient", "value": "Paul Newman"}]) == []
    assert texts("She saw Newm an.", [{"kind": "NAME/patient", "value": "Paul Newman"}]) == ["Newm an"]


def test_a_piece_may_be_a_known_word_itself() -> None:
    """A name found in part ("Bweighou") and whole ("Bweighouse") in a patient's notes: the split form is one
    span, not the part with the rest of the name left in the text."""
    known = [{"kind": "NAME", "value": "Bweighouse"}, {"kind": "NAME", "value": "Bweighou"}]
    assert texts("Mr. Bweighou se is a 70 y/o male.", known) == ["Bweighou se"]


@pytest.mark.parametrize(("length", "edits"), [(2, 0), (4, 0), (5, 1), (8, 1), (9, 2), (30, 2)])
def test_edits_are_bounded_by_length(length: int, edits: int) -> None:
    assert allowed_edits(length) == edits


def test_long_words_are_never_compared() -> None:
    long_name = "a" * (MAX_LETTERS + 1)
    assert not eligible(long_name) and eligible("a" * MAX_LETTERS)
    assert typo_map([long_name[:-1] + "b"], [long_name]) == {}
    assert typo_map(["b" * 39 + "c"], ["b" * 40]) == {"b" * 39 + "c": "b" * 40}


def test_a_name_across_a_line_break_is_not_joined() -> None:
    assert texts("Smith,\nJohn", PATIENT) == ["John", "Smith"]
