"""The invariant of non-DP surrogates, its check in the substitution stage, and the run's outcome counts."""

from __future__ import annotations

from typing import ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anonymed.document import Document, Span
from anonymed.labels import Label
from anonymed.randomness import RandomSource
from anonymed.substitute.base import Context, Operator
from anonymed.substitute.invariant import COMMON_WORDS, identifying_words, leaks, safe_surrogate
from anonymed.substitute.registry import build_operator
from anonymed.substitute.stage import Substituter


@pytest.mark.parametrize(
    ("surrogate", "original"),
    [
        ("john smith", "John Smith"),
        ("JOHN  SMITH", "John Smith"),
        ("Mary Smith", "John Smith"),  # a name part kept
        ("Port Smith", "Smith"),  # a Faker city built on the surname
        ("Lefevre", "Lefèvre"),  # accents do not hide a word
        ("Hôpital Lefèvre", "Clinique Lefevre"),
        ("02/12/2020", "02/12/2020"),
    ],
)
def test_leaks_finds_the_value_or_one_of_its_words(surrogate: str, original: str) -> None:
    assert leaks(surrogate, original)


@pytest.mark.parametrize(
    ("surrogate", "original"),
    [
        ("Mme Anne Dubois", "Mme Claire Martin"),  # titles are not identifying
        ("Dr. Paul Roy", "Dr. Helen Park"),
        ("5 days ago", "3 days ago"),  # the words of a temporal expression
        ("14 avril 2021", "3 mars 2020"),
        ("March 3, 2021", "March 14, 2020"),  # month names
        ("Jean de la Roche", "Pierre de la Fontaine"),  # particles
        ("Smithville Hospital", "Calvert Hospital"),  # the kind of institution
        ("www.example.org", "www.mgh.org"),
        ("Smithville", "Smith"),  # a longer word is another word
        ("Standard01.15.41.35.25", "Standard04.73.72.17.05"),  # the label of a phone number
        ("Accueil 05 23 55", "Accueil 07 42 26"),
    ],
)
def test_common_words_may_survive(surrogate: str, original: str) -> None:
    assert not leaks(surrogate, original)


def test_identifying_words_fold_and_skip_common_words() -> None:
    assert identifying_words("Mme Claire LEFÈVRE, 12 rue des Lilas") == {"claire", "lefevre", "lilas"}
    assert {"mme", "dr", "march", "mars", "days", "ans", "de", "hospital"} <= COMMON_WORDS


@settings(max_examples=200, deadline=None)
@given(original=st.text(min_size=1, max_size=40), seed=st.integers(0, 2**32))
def test_safe_surrogate_never_leaks(original: str, seed: int) -> None:
    assert not leaks(safe_surrogate(original, RandomSource(seed)), original)


class _Echo(Operator):
    """A broken operator that writes every value back (what the stage must never let through)."""

    name: ClassVar[str] = "echo"

    def operate(self, span: Span, context: Context) -> str:
        return "Dr " + span.text


def _run(operators: dict[Label, Operator], text: str, spans: list[Span], seed: int = 1) -> Document:
    doc = Document("d", text, {"lang": "en"}, spans=tuple(spans))
    return Substituter(operators)(doc, RandomSource(seed))


def test_the_stage_replaces_a_leaking_surrogate_and_counts_the_fallback() -> None:
    text = "Seen by John Smith today."
    span = Span.of(text, 8, 18, Label.NAME, subtype="clinician")
    done = _run({Label.NAME: _Echo()}, text, [span])
    surrogate = done.replacements[0].surrogate
    assert not leaks(surrogate, "John Smith") and "Smith" not in done.result
    assert done.privacy["substitution"]["counts"] == {"NAME/clinician|echo|fallback": 1}


def test_keep_is_counted_as_kept_and_left_alone() -> None:
    text = "Seen by John Smith today."
    done = _run({Label.NAME: build_operator("keep")}, text, [Span.of(text, 8, 18, Label.NAME)])
    assert done.result == text
    assert done.privacy["substitution"]["counts"] == {"NAME|keep|kept": 1}


def test_counts_hold_labels_operators_and_outcomes_only() -> None:
    text = "John Smith called 617-555-0142 about Boston."
    spans = [
        Span.of(text, 0, 10, Label.NAME),
        Span.of(text, 18, 30, Label.CONTACT, subtype="phone"),
        Span.of(text, 37, 43, Label.LOCATION, subtype="city"),
    ]
    fake, tag = build_operator("fake"), build_operator("tag")
    done = _run({Label.NAME: fake, Label.CONTACT: tag, Label.LOCATION: fake}, text, spans)
    counts = done.privacy["substitution"]["counts"]
    assert counts == {
        "CONTACT/phone|tag|replaced": 1,
        "LOCATION/city|fake|replaced": 1,
        "NAME|fake|replaced": 1,
    }
    assert not any(value in str(done.privacy) for value in ("John", "Smith", "0142", "Boston"))


def test_fake_builds_no_surrogate_on_another_value_of_the_document() -> None:
    """Every surrogate avoids every identifying word of the document's values (surname -> no "Port Smith")."""
    text = "Smith lives in Smithport near Lake Smith; John Smith called."
    spans = [
        Span.of(text, 0, 5, Label.NAME),
        Span.of(text, 15, 24, Label.LOCATION, subtype="city"),
        Span.of(text, 30, 40, Label.LOCATION, subtype="city"),
        Span.of(text, 42, 52, Label.NAME),
    ]
    fake = build_operator("fake")
    for seed in range(30):
        done = _run({Label.NAME: fake, Label.LOCATION: fake}, text, spans, seed)
        words = {w for rep in done.replacements for w in identifying_words(rep.surrogate)}
        assert words.isdisjoint({"smith", "smithport", "lake", "john"}), seed


@pytest.mark.parametrize("title", ["M.", "Mme", "MM.", "Madame"])
def test_french_titles_are_kept_not_replaced_as_initials(title: str) -> None:
    text = f"{title} Jean Dupont est venu."
    end = len(title) + len(" Jean Dupont")
    doc = Document("d", text, {"lang": "fr"}, spans=(Span.of(text, 0, end, Label.NAME),))
    fake = build_operator("fake")
    for seed in range(10):
        surrogate = Substituter({Label.NAME: fake})(doc, RandomSource(seed)).replacements[0].surrogate
        assert surrogate.startswith(title + " ") and not leaks(surrogate, "Jean Dupont"), surrogate


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Vu par le Dr M. Durand.", "M. Durand"),  # after a title, M. is an initial
        ("Staff : M Durand.", "M Durand"),  # without its dot, M is read as an initial
        ("Mme DURAND Mr.", "DURAND Mr"),  # a title after the name is a name part
    ],
)
def test_french_initials_that_look_like_titles_are_replaced(text: str, name: str) -> None:
    start = text.index(name)
    doc = Document("d", text, {"lang": "fr"}, spans=(Span.of(text, start, start + len(name), Label.NAME),))
    fake = build_operator("fake")
    for seed in range(10):
        surrogate = Substituter({Label.NAME: fake})(doc, RandomSource(seed)).replacements[0].surrogate
        kept = {w for w in surrogate.replace(".", " ").split()} & {"M", "Mr"}
        assert not kept and not leaks(surrogate, name), surrogate


def test_an_english_initial_is_still_replaced() -> None:
    text = "M. Smith"
    doc = Document("d", text, {"lang": "en"}, spans=(Span.of(text, 0, 8, Label.NAME),))
    fake = build_operator("fake")
    runs = [Substituter({Label.NAME: fake})(doc, RandomSource(seed)) for seed in range(10)]
    surrogates = {run.replacements[0].surrogate[:2] for run in runs}
    assert surrogates != {"M."}
