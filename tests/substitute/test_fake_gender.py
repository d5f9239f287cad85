"""Titles are kept and the surrogate first name agrees with a gendered title or "né"/"née"."""

from __future__ import annotations

import re

import pytest
from faker import Faker
from hypothesis import given, settings
from hypothesis import strategies as st

from anonymed import deidentify
from anonymed.document import Document, Span
from anonymed.labels import Label
from anonymed.randomness import RandomSource
from anonymed.substitute.fake.names import Role, kin_after, kin_before, name_layout, title_gender
from anonymed.substitute.registry import build_operator
from anonymed.substitute.stage import Substituter

TITLES = {
    "en": {"Mr.": "male", "Mr": "male", "Mrs.": "female", "Ms": "female", "Miss": "female", "Dr.": None},
    "fr": {"M.": "male", "Monsieur": "male", "Mme": "female", "Mlle": "female", "Madame": "female",
           "Pr": None, "Dr": None},
}  # fmt: skip
FIRST = {"en": ["John", "Mary", "Alex", "Jordan"], "fr": ["Claire", "Jean", "Camille", "Dominique"]}
LAST = ["Martin", "Durand", "Smith", "Nicholson"]
LOCALES = {"en": "en_US", "fr": "fr_FR"}


def _lists(lang: str) -> tuple[set[str], set[str]]:
    person = next(p for p in Faker(LOCALES[lang]).providers if hasattr(p, "first_names_male"))
    return set(person.first_names_male), set(person.first_names_female)


LISTS = {lang: _lists(lang) for lang in LOCALES}


def _replace(text: str, target: str, lang: str, seed: int) -> str:
    start = text.index(target)
    doc = Document("d", text, {"lang": lang}).with_spans(
        [Span.of(text, start, start + len(target), Label.NAME)]
    )
    operators = {label: build_operator("tag") for label in Label}
    operators[Label.NAME] = build_operator("fake")
    (rep,) = Substituter(operators)(doc, RandomSource(seed)).replacements
    return rep.surrogate


@settings(max_examples=120, deadline=None)
@given(
    lang=st.sampled_from(["en", "fr"]),
    data=st.data(),
    inside=st.booleans(),
    seed=st.integers(0, 10_000),
)
def test_titles_are_kept_and_first_names_agree_with_them(
    lang: str, data: st.DataObject, inside: bool, seed: int
) -> None:
    title = data.draw(st.sampled_from(sorted(TITLES[lang])))
    first, last = data.draw(st.sampled_from(FIRST[lang])), data.draw(st.sampled_from(LAST))
    name = f"{first} {last}"
    text = f"Seen with {title} {name} today."
    target = f"{title} {name}" if inside else name
    out = _replace(text, target, lang, seed)
    if inside:
        assert out.startswith(title + " "), out  # the title is kept
        out = out[len(title) + 1 :]
    given_name = out.split()[0]
    gender = TITLES[lang][title]
    male, female = LISTS[lang]
    if gender == "male":
        assert given_name in male, (text, out)
    elif gender == "female":
        assert given_name in female, (text, out)


def test_french_agreement_after_the_name_gives_the_gender() -> None:
    assert title_gender("Patiente ", "Claire DURAND", ", née le 3 mars", "fr") == "female"
    assert title_gender("Patient ", "Dominique DURAND", " né le 3 mars", "fr") == "male"
    assert title_gender("", "Dominique DURAND", " ne vient pas", "fr") is None  # "ne", a negation
    assert title_gender("le Dr ", "Camille Roux", " a vu", "fr") is None
    assert title_gender("", "M Durand", "", "fr") is None  # "M" without its dot is an initial
    _, female = LISTS["fr"]
    out = _replace("Dominique DURAND, née le 3 mars 1950.", "Dominique DURAND", "fr", 3)
    assert out.split()[0] in female


_PERSON_FR = next(p for p in Faker("fr_FR").providers if hasattr(p, "last_names"))
NAMES_FR = {
    word.casefold()
    for name in (*_PERSON_FR.first_names, *_PERSON_FR.last_names)
    for word in name.replace("-", " ").split()
}


def test_a_many_word_name_gets_real_names_never_random_letters() -> None:
    """Each word is drawn apart: none may take another word's original, which would reject the whole name."""
    text = "Transmis à ABOUINASR Francois Roland Marie, puis à Lyon."
    town = text.index("Lyon")
    doc = Document("d", text, {"lang": "fr"}).with_spans(
        [Span.of(text, 11, text.index(","), Label.NAME), Span.of(text, town, town + 4, Label.LOCATION)]
    )
    # one operator instance per label, as a configuration builds them: each one prepares the document
    operators = {label: build_operator("fake") for label in Label}
    for seed in range(300):
        for rep in Substituter(operators)(doc, RandomSource(seed)).replacements[:1]:
            words = rep.surrogate.replace("-", " ").split()
            assert all(w.casefold() in NAMES_FR for w in words), (seed, rep.surrogate)


@pytest.mark.parametrize(
    ("text", "target", "lang", "gender"),
    [
        ("Son Jamal called at 3pm.", "Jamal", "en", "male"),
        ("Spoke to pt's niece (Tanisha) by phone.", "Tanisha", "en", "female"),
        ("Pt seen with daughter-in-law Keisha today.", "Keisha", "en", "female"),
        ("Vu avec son épouse Svetlana ce jour.", "Svetlana", "fr", "female"),
        ("Appel du fils, Rachid, ce matin.", "Rachid", "fr", "male"),
        # a kin word in parentheses after the name ("Adaeze (niece)" had become "Benjamin")
        ("Emergency contact: Adaeze (niece) 213.555.0175", "Adaeze", "en", "female"),
        ("Called Tomasz (son-in-law) today.", "Tomasz", "en", "male"),
    ],
)
@pytest.mark.parametrize("seed", range(4))
def test_a_lone_name_after_a_kin_word_is_a_first_name_of_its_gender(
    text: str, target: str, lang: str, gender: str, seed: int
) -> None:
    male, female = LISTS[lang]
    assert _replace(text, target, lang, seed) in (male if gender == "male" else female)


@pytest.mark.parametrize(
    ("before", "kin"),
    [("Son ", "male"), ("pt's niece (", "female"), ("daughter-in-law ", "female"), ("friend: ", "any"),
     ("épouse ", "female"), ("seen by Dr. ", None), ("the patient ", None)],
)  # fmt: skip
def test_kin_words_before_a_name(before: str, kin: str | None) -> None:
    assert kin_before(before) == kin


@pytest.mark.parametrize(
    ("after", "kin"),
    [(" (niece) 213", "female"), (" ( Son )", "male"), ("(son-in-law)", "male"), (" (friend)", "any"),
     (" (RN) paged", None), (", niece", None), (" niece", None)],
)  # fmt: skip
def test_kin_words_in_parentheses_after_a_name(after: str, kin: str | None) -> None:
    assert kin_after(after) == kin


def test_a_lone_unknown_name_after_a_kin_word_is_laid_out_as_a_first_name() -> None:
    assert [p.role for p in name_layout("Tanisha", frozenset(), after_kin=True)] == [Role.FIRST]
    assert [p.role for p in name_layout("Tanisha", frozenset())] == [Role.LAST]  # no kin word: a surname


def _roles(text: str, lang: str = "en") -> list[tuple[str, Role]]:
    return [
        (p.text, p.role)
        for p in name_layout(text, frozenset({"anne", "sophie", "maria"}), lang)
        if p.text[0].isalnum()
    ]


@pytest.mark.parametrize(
    ("text", "lang", "kept"),
    [
        ("Anne-Sophie Le Goff", "fr", "Le"),  # "Le" had become a given name ("Hugues Bonneau")
        ("Le Goff", "fr", "Le"),  # "Mme Le Goff": a French surname's particle before it
        ("Maria De Souza", "en", "De"),  # between name words, in any language
        ("Nguyen Van An", "en", "Van"),
        ("St. John", "en", "St"),  # a saint opening a surname ("Dr. St. John" had become "Theresa. Potter")
        ("Sainte-Marie", "fr", "Sainte"),
    ],
)
def test_a_capitalised_particle_of_a_surname_is_kept(text: str, lang: str, kept: str) -> None:
    roles = dict(_roles(text, lang))
    assert roles[kept] is Role.KEEP
    assert all(role is not Role.KEEP for word, role in roles.items() if word != kept)


@pytest.mark.parametrize(
    ("text", "lang"),
    [("Van Morrison", "en"), ("Le Goff", "en"), ("Anne Le", "fr"), ("Maria de souza", "en")],
)
def test_a_particle_opening_an_english_name_or_ending_a_name_is_a_name(text: str, lang: str) -> None:
    """ "Van" may be a given name; nothing follows "Le" in "Anne Le"; a lower-case "de" is kept by the
    particle rule and lower-case words after it stay names."""
    roles = _roles(text, lang)
    assert [word for word, role in roles if role is Role.KEEP] == (["de"] if "de" in text else [])


def test_french_surnames_with_le_keep_their_particle_in_the_surrogate() -> None:
    for seed in range(10):
        doc = deidentify("Médecin traitant : Dr Anne-Sophie Le Goff.", lang="fr", seed=seed)
        (rep,) = doc.replacements
        assert re.fullmatch(r"[A-ZÀ-Ý][\w-]+ Le [A-ZÀ-Ý][\w'-]+", rep.surrogate), rep.surrogate
        assert "Goff" not in rep.surrogate and "Anne" not in rep.surrogate


@pytest.mark.parametrize("seed", range(8))
def test_a_lone_first_name_after_a_staff_role_gets_a_first_name(seed: int) -> None:
    """ "interpreter Olga" had become "interpreter Acevedo" (Olga is missing from Faker's en_US list)."""
    person = next(p for p in Faker("en_US").providers if hasattr(p, "first_names"))
    first_names = {name.casefold() for name in person.first_names}
    for text, name in (("interpreter Olga used", "Olga"), ("PCA Keisha assisted", "Keisha")):
        doc = Document("d", text, {"lang": "en"})
        start = text.index(name)
        doc = doc.with_spans([Span.of(text, start, start + len(name), Label.NAME)])
        operators = {label: build_operator("tag") for label in Label}
        operators[Label.NAME] = build_operator("fake")
        (rep,) = Substituter(operators)(doc, RandomSource(seed)).replacements
        assert rep.surrogate.casefold() in first_names, rep.surrogate


@pytest.mark.parametrize("seed", range(8))
def test_a_lone_first_name_right_before_an_age_gets_a_first_name(seed: int) -> None:
    """ "enfants (Léa 9 ans, Hugo 6 ans)" had become "(Besnard 9 ans, Langlois 6 ans)"."""
    person = next(p for p in Faker("fr_FR").providers if hasattr(p, "first_names"))
    first_names = {name.casefold() for name in person.first_names}
    text = "Mari Thomas, deux enfants (Léa 9 ans, Hugo 6 ans)."
    doc = Document("d", text, {"lang": "fr"})
    spans = [
        Span.of(text, text.index(name), text.index(name) + len(name), Label.NAME) for name in ("Léa", "Hugo")
    ]
    operators = {label: build_operator("tag") for label in Label}
    operators[Label.NAME] = build_operator("fake")
    for rep in Substituter(operators)(doc.with_spans(spans), RandomSource(seed)).replacements:
        assert rep.surrogate.casefold() in first_names, rep.surrogate


def test_the_name_after_a_saint_is_a_surname() -> None:
    roles = dict(_roles("St. John"))
    assert roles["St"] is Role.KEEP and roles["John"] is Role.LAST  # "John" alone would be a first name


@pytest.mark.parametrize(
    ("text", "kept", "surnames"),
    [
        ("Odile Perrin épouse Lambert", "épouse", {"Perrin", "Lambert"}),  # "épouse" had become "philippine"
        ("Mary Smith nee Jones", "nee", {"Smith", "Jones"}),  # "Smith" had become a second first name
    ],
)
def test_marital_words_are_kept_and_the_names_around_them_are_surnames(
    text: str, kept: str, surnames: set[str]
) -> None:
    roles = dict(_roles(text, "fr"))
    assert roles[kept] is Role.KEEP
    assert {word for word, role in roles.items() if role is Role.LAST} == surnames


def test_a_name_after_nee_is_a_birth_name() -> None:
    assert [p.role for p in name_layout("Martin", frozenset({"martin"}), "fr", after_marital=True)] == [
        Role.LAST
    ]
    for seed in range(6):
        doc = deidentify("Mme Odile Perrin épouse Lambert, née le 30/06/1948.", lang="fr", seed=seed)
        assert " épouse " in doc.output and "Perrin" not in doc.output and "Lambert" not in doc.output
