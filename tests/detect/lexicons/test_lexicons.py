"""Behaviour of the lexicon recognizers: names and places, English and French, mixed and upper case notes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anonymed.detect.lexicons.detector import LexiconDetector, LexiconParams
from anonymed.detect.lexicons.resources import gazetteer, name_lists
from anonymed.detect.registry import build_detector
from anonymed.document import Document, Span
from anonymed.errors import ConfigError
from anonymed.labels import Label

DETECTOR = LexiconDetector()


def spans_of(text: str, lang: str = "en", detector: LexiconDetector = DETECTOR) -> list[Span]:
    """Spans found in one note."""
    return detector.detect(Document("t", text, {"lang": lang}))


def found(text: str, lang: str = "en") -> dict[str, str]:
    """Surface text -> full label of every span found."""
    return {s.text: s.full_label for s in spans_of(text, lang)}


def covered(text: str, word: str, lang: str = "en") -> str | None:
    """Full label of the span that covers ``word``, or None."""
    start = text.index(word)
    for span in spans_of(text, lang):
        if span.start <= start and start + len(word) <= span.end:
            return span.full_label
    return None


POSITIVE_NAMES = [
    # (text, lang, name, expected full label)
    (
        "Seen today by Dr. Vasquez, plan unchanged.",
        "en",
        "Vasquez",
        "NAME/clinician",
    ),  # honorific, mixed case
    ("pt followed at gh by dr healey. she arrived", "en", "healey", "NAME/clinician"),  # all lower case note
    ("DR SWACKHAMER AWARE. MG LEVEL 1.6.", "en", "SWACKHAMER", "NAME/clinician"),  # all upper case note
    ("Dr. Zxqvort paged at 2am.", "en", "Zxqvort", "NAME/clinician"),  # unknown name after an honorific
    ("Dr. Van Leeuwen (his PCP) was in.", "en", "Van Leeuwen", "NAME/clinician"),  # particle inside a name
    ("Dr L Rostain - Phone: 06 12 15 40 10", "fr", "L Rostain", "NAME/clinician"),  # initial without its dot
    (
        "SOCIAL: Husband Rich Martino in to visit.",
        "en",
        "Rich Martino",
        "NAME/relative",
    ),  # ambiguous first name
    (
        "WIFE HELEN AND STEP DAUGHTER MAUREEN IN TO VISIT",
        "en",
        "MAUREEN",
        "NAME/relative",
    ),  # upper case relative
    (
        "social: husband bill called twice",
        "en",
        "bill",
        "NAME/relative",
    ),  # "bill" is a word, but after husband
    ("ROBERT V. DEGIORGIO, RRT", "en", "ROBERT V. DEGIORGIO", "NAME/clinician"),  # signature with credential
    ("Bernard Kaufman CRT", "en", "Bernard Kaufman", "NAME/clinician"),  # credential without comma
    ("NP CAROL MADE AWARE OF BP.", "en", "CAROL", "NAME/clinician"),  # role before the name
    ("Dr. Griffin and Swackhamer aware.", "en", "Swackhamer", "NAME/clinician"),  # coordinated second name
    ("Telephone update to Mrs Nicholson overnight.", "en", "Nicholson", "NAME"),  # person title: role unknown
    ("Met with Leona Labowich this am.", "en", "Leona Labowich", "NAME"),  # first + capitalised unknown word
    ("Docteur ROMAIN SPRITZ N° RPPS 12", "fr", "ROMAIN SPRITZ", "NAME/clinician"),  # French honorific
    ("Nom : DUPONT", "fr", "DUPONT", "NAME"),  # French form label
    (
        "Patient J. PETIT, Tel : 09 89 34 13",
        "fr",
        "J. PETIT",
        "NAME/patient",
    ),  # initial + capitals after Patient
    ("Résultats de laboratoire pour RUFUNA Marine.", "fr", "RUFUNA Marine", "NAME"),  # NOM Prénom order
    ("Mme Dupont Marie est venue.", "fr", "Dupont Marie", "NAME"),  # Madame
    ("Vu avec sa fille Sophie ce jour.", "fr", "Sophie", "NAME/relative"),  # French relative
]


@pytest.mark.parametrize(("text", "lang", "name", "label"), POSITIVE_NAMES)
def test_names_are_found_with_their_subtype(text: str, lang: str, name: str, label: str) -> None:
    assert found(text, lang).get(name) == label


NEGATIVE_WORDS = [
    # (text, lang, word that must not be tagged)
    ("Small bowel mass noted on CT.", "en", "bowel"),  # medical vocabulary that is also a surname
    ("Small bowel mass noted on CT.", "en", "mass"),  # idem
    ("MAY HOPE TO GRANT HIM A PASS. WILL MARK SITE.", "en", "MAY"),  # ambiguous names without context
    ("MAY HOPE TO GRANT HIM A PASS. WILL MARK SITE.", "en", "GRANT"),  # idem
    ("MAY HOPE TO GRANT HIM A PASS. WILL MARK SITE.", "en", "MARK"),  # idem
    ("Pt will pay the bill tomorrow.", "en", "bill"),  # lower case common word in a cased note
    ("MS: alert, cooperative, MAE.", "en", "alert"),  # "MS:" is mental status, not Ms
    ("GI/GU: foley patent, clear amber urine.", "en", "GU"),  # abbreviation that is a surname
    ("HR 75 AV PACED. NO VEA NOTED.", "en", "PACED"),  # not a street ("AV")
    ("PLEASE ALSO SEE MD NOTES FOR DETAILS.", "en", "SEE"),  # "MD" followed by a word
    ("Pt OOB to chair, tolerated well.", "en", "OOB"),  # abbreviation after Pt
    ("she is a nice woman admitted yesterday", "en", "nice"),  # a city that is a common word
    ("Réunion du staff du 01/09/2014 :", "fr", "Réunion"),  # place name that is a French word, line start
    ("Orientée vers un Centre de Soins adapté.", "fr", "Soins"),  # hospital key word + common words only
]


@pytest.mark.parametrize(("text", "lang", "word"), NEGATIVE_WORDS)
def test_common_words_are_not_tagged(text: str, lang: str, word: str) -> None:
    assert covered(text, word, lang) is None


def test_ambiguous_name_needs_context() -> None:
    alone = "Bill signed the consent."
    assert covered(alone, "Bill") is None
    assert covered("Spoke with wife, Hope, about the plan.", "Hope") == "NAME/relative"
    assert covered("Case discussed with Dr. Hope today.", "Hope") == "NAME/clinician"


POSITIVE_PLACES = [
    # (text, lang, place, expected full label)
    ("Lives in Baltimore with her husband.", "en", "Baltimore", "LOCATION/city"),  # city after "in"
    (
        "ADMITTED IN TRANSFER FROM CALVERT HOSPITAL FOR",
        "en",
        "CALVERT HOSPITAL",
        "LOCATION/hospital",
    ),  # upper
    ("pt being d/c'd to Sacred Heart Memorial at 4pm", "en", "Sacred Heart Memorial", "LOCATION/hospital"),
    (
        "Was accepted at Holy Cross Rehab today.",
        "en",
        "Holy Cross Rehab",
        "LOCATION/hospital",
    ),  # common words
    ("Plan: transfer to Quartermain 2 in am.", "en", "Quartermain", "LOCATION/hospital"),  # unknown facility
    # a psychiatric centre and a pavilion close a name ("Creedmoor Psychiatric Center" had stayed)
    (
        "Prior admission to Creedmoor Psychiatric Center 2021.",
        "en",
        "Creedmoor Psychiatric Center",
        "LOCATION/hospital",
    ),
    ("Prenatal care at Linden Health Pavilion with", "en", "Linden Health Pavilion", "LOCATION/hospital"),
    ("Lives at 123 Main Street, Baltimore, MD 21201.", "en", "123 Main Street", "LOCATION/street"),
    # USPS Publication 28 directionals: before the name (where "NE" is also a French function word) or after
    # the type ("32 NE Peachtree Pl" had been missed whole)
    ("Lives at 32 NE Peachtree Pl, Atlanta.", "en", "32 NE Peachtree Pl", "LOCATION/street"),
    ("Lives at 32 Peachtree Pl NE, Atlanta.", "en", "32 Peachtree Pl NE", "LOCATION/street"),
    ("Lives at 1400 SE Division St near the park.", "en", "1400 SE Division St", "LOCATION/street"),
    ("lives at 32 ne peachtree st now", "en", "32 ne peachtree st", "LOCATION/street"),
    ("Lives at 12 North St, Boston.", "en", "12 North St", "LOCATION/street"),  # "North" names the street
    ("Un neveu près de Toulouse.", "fr", "Toulouse", "LOCATION/city"),  # French city
    # a street named without its number, after "on", "off", "along" or "near", in a cased note
    ("Works at Walgreens on Clark St. Previous admission", "en", "Clark St", "LOCATION/street"),
    ("She lives off Bee Ridge Road now.", "en", "Bee Ridge Road", "LOCATION/street"),
    (
        "Admis à l'Hôpital Robert-Debré.",
        "fr",
        "Hôpital Robert-Debré",
        "LOCATION/hospital",
    ),  # elision + hyphen
    ("Suivi au CHU de Rennes depuis 2019.", "fr", "CHU de Rennes", "LOCATION/hospital"),  # CHU de X
    # a French institution named by capitalised common words (had been a name "EHPAD Les" and a place)
    (
        "Résidente de l'EHPAD Les Jardins d'Automne depuis 2020.",
        "fr",
        "EHPAD Les Jardins d'Automne",
        "LOCATION/hospital",
    ),
    (
        "Entrée par le SAMU à l'Hôpital Bichat le 15/06/2022",
        "fr",
        "Hôpital Bichat",
        "LOCATION/hospital",
    ),  # a number ends it
    ("12 rue de la Paix 75002 Paris", "fr", "12 rue de la Paix", "LOCATION/street"),  # French street
    ("47-83 Boulevard de l'Hôpital, 75013 Paris", "fr", "Paris", "LOCATION/city"),  # city after a zip
    ("94010 Créteil Cedex", "fr", "Créteil Cedex", "LOCATION/city"),  # unknown-size commune after a zip
    ("2 RUE DE LA LIBERTE 15 461 PARIS", "fr", "PARIS", "LOCATION/city"),  # spaced zip, upper case
]


@pytest.mark.parametrize(("text", "lang", "place", "label"), POSITIVE_PLACES)
def test_places_are_found_with_their_subtype(text: str, lang: str, place: str, label: str) -> None:
    assert found(text, lang).get(place) == label


@pytest.mark.parametrize(
    "text",
    [
        "PT ON MAIN ST TODAY",  # a named street needs a cased note ("ST" is sinus tachycardia)
        "Drove on Main St. Luke's later",  # "St" before a first name is a saint
        "Called on Smith Dr. Jones about it",  # "Dr" names no street without its number
        "Started on Lasix today",  # no street type
        "BP 120 SE of baseline",  # a directional is no street without a name and a type
    ],
)
def test_no_named_street_without_its_type_or_case(text: str) -> None:
    assert "LOCATION/street" not in found(text).values()


def test_states_and_countries_are_reported_only_when_regions_are_asked_for() -> None:
    text = "Lives at 123 Main Street, Baltimore, MD 21201. Moved from Canada."
    regional = {
        s.text: s.full_label for s in spans_of(text, detector=LexiconDetector(LexiconParams(regions=True)))
    }
    assert regional.get("MD") == "LOCATION/state"  # state code, not a doctor
    assert regional.get("Canada") == "LOCATION/country"
    assert "MD" not in found(text) and "Canada" not in found(text)  # HIPAA Safe Harbor keeps both


def test_street_words_are_not_names() -> None:
    text = "12 RUE DU DOCTEUR GACHET 75013 PARIS"
    labels = {s.text: s.label for s in spans_of(text, "fr")}
    assert labels.get("12 RUE DU DOCTEUR GACHET") == Label.LOCATION
    assert Label.NAME not in labels.values()


def test_spans_carry_source_score_and_offsets_that_slice_the_text() -> None:
    text = "Husband Rich Martino in.\nDr. Vasquez aware. Lives in Baltimore."
    spans = spans_of(text)
    assert len(spans) == 3
    for span in spans:
        assert text[span.start : span.end] == span.text
        assert span.source == "lexicons"
        assert 0.0 <= span.score <= 1.0


def test_switches_turn_off_names_or_places() -> None:
    text = "Dr. Vasquez saw her in Baltimore."
    no_names = LexiconDetector(LexiconParams(names=False))
    no_places = LexiconDetector(LexiconParams(places=False))
    assert {s.label for s in spans_of(text, detector=no_names)} == {Label.LOCATION}
    assert {s.label for s in spans_of(text, detector=no_places)} == {Label.NAME}


def test_high_recall_accepts_lone_listed_names_in_upper_case_notes() -> None:
    text = "PT RESTING. SUSAN AWARE OF PLAN."
    assert covered(text, "SUSAN") is None
    assert covered(text, "SUSAN", "en") is None
    eager = LexiconDetector(LexiconParams(high_recall=True))
    assert any(s.text == "SUSAN" for s in spans_of(text, detector=eager))


def test_bad_options_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="min_city_population"):
        LexiconParams(min_city_population=-1)
    with pytest.raises(ConfigError, match="colour"):
        build_detector("lexicons", {"colour": "blue"})


def test_detector_is_registered_and_lists_load_once() -> None:
    assert isinstance(build_detector("lexicons"), LexiconDetector)
    assert name_lists() is name_lists()
    assert gazetteer(15_000) is gazetteer(15_000)


def test_empty_and_punctuation_only_notes_give_nothing() -> None:
    assert spans_of("") == []
    assert spans_of(" \n--- ... ,,, ") == []


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.one_of(
            st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12),
            st.sampled_from(
                ["Dr. ", "Mrs ", "wife ", "Smith", "JOHN", " RN", "Hôpital ", "12 rue ", "\n", ", "]
            ),
        ),
        max_size=30,
    ).map("".join),
    st.sampled_from(["en", "fr"]),
)
def test_any_text_gives_spans_in_bounds_that_match_it(text: str, lang: str) -> None:
    for span in spans_of(text, lang):
        assert 0 <= span.start < span.end <= len(text)
        assert text[span.start : span.end] == span.text
        assert span.label in (Label.NAME, Label.LOCATION)
        assert 0.0 <= span.score <= 1.0


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("hospitalisée en hôpital de jour depuis mars", "fr"),  # common words in lower case name nothing
        ("EHPAD LES JARDINS D'AUTOMNE", "fr"),  # a note in capitals tells no name by its capitals
        (
            "Transferred to Clinic For Care today",
            "en",
        ),  # English capitalises common words in names and titles
    ],
)
def test_common_words_after_an_institution_word_need_a_french_capital(text: str, lang: str) -> None:
    assert "LOCATION/hospital" not in found(text, lang).values()


@pytest.mark.parametrize(
    ("word", "given"),
    [
        ("aarav", True),  # India
        ("chiamaka", True),  # Nigeria (Igbo)
        ("abena", True),  # Ghana (Twi)
        ("amahle", True),  # South Africa (Zulu)
        ("anyango", True),  # Kenya
        ("adeyemi", False),  # Nigeria (Yoruba)
        ("balakrishnan", False),  # India
        ("abubakar", False),  # Nigeria (Hausa)
    ],
)
def test_names_of_patients_born_elsewhere_are_listed(word: str, given: bool) -> None:
    lists = name_lists()
    assert word in (lists.first if given else lists.last)  # had been in no list: missed without context
    assert not lists.is_common(word, "en")


@pytest.mark.parametrize("word", ["blessing", "comfort", "peace"])
def test_a_name_that_is_a_frequent_english_word_stays_common(word: str) -> None:
    lists = name_lists()
    assert word in lists.first and lists.is_common(word, "en")  # a name only with context
