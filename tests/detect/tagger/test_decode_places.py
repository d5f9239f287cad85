"""Edges of a tagged place: hyphenated compound names, words before a French street, clock times."""

from __future__ import annotations

from functools import partial

import pytest
from decode_rules import after

from anonymed.detect.lexicons.resources import name_lists
from anonymed.detect.registry import build_detector
from anonymed.detect.tagger.places import (
    drop_clock_times,
    end_places_at_sentence_end,
    join_hyphenated_places,
    trim_before_streets,
)
from anonymed.document import Document


@pytest.mark.parametrize(
    ("text", "tagged", "places"),
    [
        # "-lès-Dax" had stayed after the surrogate of "Saint-Paul"
        ("médecin à Saint-Paul-lès-Dax).", {"Saint", "Paul"}, ["Saint", "Paul", "lès", "Dax"]),
        ("né à Villers-sur-Mer", {"Villers"}, ["Villers", "sur", "Mer"]),
        ("de Lyon-Vaise", {"Lyon"}, ["Lyon", "Vaise"]),
        ("Nantes-centre", {"Nantes"}, ["Nantes"]),  # a lower-case word that links nothing
        ("un Roux-en-Y", {"Roux"}, ["Roux"]),  # a letter alone is no part of a name
        ("à Saint-Paul-lès 3", {"Saint", "Paul"}, ["Saint", "Paul"]),  # a link with no name after it
        ("à Lyon - Paris", {"Lyon"}, ["Lyon"]),  # spaces around the hyphen: two places
        # an elided link and its apostrophe: "-d'Or" had stayed after the surrogate of the rest
        (
            "à Saint-Didier-au-Mont-d'Or.",
            {"Saint", "Didier", "au", "Mont"},
            ["Saint", "Didier", "au", "Mont", "d", "Or"],
        ),
        (
            "à Saint-Didier-au-Mont-d’Or.",
            {"Saint", "Didier", "au", "Mont"},
            ["Saint", "Didier", "au", "Mont", "d", "Or"],
        ),
        ("à Lyon-d'accord", {"Lyon"}, ["Lyon"]),  # a lower-case word after the apostrophe is no part
        ("à Lyon l'Isle", {"Lyon"}, ["Lyon"]),  # a space: no join
    ],
)
def test_a_place_joined_by_hyphens_is_one_place(text: str, tagged: set[str], places: list[str]) -> None:
    assert after(join_hyphenated_places, text, tagged, "LOCATION") == places


def _street(text: str, tagged: str) -> list[str]:
    """The words left tagged LOCATION when the model tagged the words of ``tagged`` (a phrase of ``text``)."""
    rule = partial(trim_before_streets, lists=name_lists())
    return after(rule, text, set(tagged.split()), "LOCATION")


@pytest.mark.parametrize(
    ("text", "tagged", "kept"),
    [
        # the surrogate of the whole run had fallen back to random letters
        ("Rennes. Chute de trottinette rue Saint-Malo.", "Chute de trottinette rue Saint Malo",
         "rue Saint Malo"),
        ("étudiant, domicilié 5 rue de Fougères", "domicilié 5 rue de Fougères", "5 rue de Fougères"),
        ("maison de plain-pied, 12 chemin de Bellocq", "plain pied 12 chemin de Bellocq",
         "12 chemin de Bellocq"),
        # the number's suffix, a number in words, a unit and a capitalised name stay
        ("habite 28 bis chemin Etienne", "28 bis chemin Etienne", "28 bis chemin Etienne"),
        ("O. LEBERT sept allée des roses", "sept allée des roses", "sept allée des roses"),
        ("bâtiment B, 5 rue des Lilas", "bâtiment B 5 rue des Lilas", "bâtiment B 5 rue des Lilas"),
        ("Habite Lyon, 5 rue des Lilas", "Lyon 5 rue des Lilas", "Lyon 5 rue des Lilas"),
    ],
)  # fmt: skip
def test_common_words_before_a_french_street_are_text(text: str, tagged: str, kept: str) -> None:
    assert _street(text, tagged) == kept.split()


@pytest.mark.parametrize(
    ("text", "tagged", "kept"),
    [
        ("RDV le 9 décembre à 14h30.", {"14h30": "LOCATION"}, []),  # had become the place "18l37"
        ("vu à 8h par Dr X", {"8h": "NAME"}, []),
        ("passage 09H15", {"09H15": "CONTACT"}, []),
        ("le 14h30 du 3", {"14h30": "DATE"}, ["14h30"]),  # a date's part stays
        ("chambre 14 bis", {"14": "LOCATION"}, ["14"]),  # a number alone is no time
    ],
)
def test_a_clock_time_is_no_place_name_or_contact(text: str, tagged: dict[str, str], kept: list[str]) -> None:
    labels = set(tagged.values())
    found = [word for label in labels for word in after(drop_clock_times, text, tagged, label)]
    assert found == kept


def test_a_countys_name_is_a_place_and_its_word_stays() -> None:
    text = "Referral sent to Ulster County Office for the Aging (845-555-0181)."
    spans = build_detector("tagger", {}).detect(Document("d", text, {"lang": "en"}))
    assert ("Ulster", "LOCATION") in [(s.text, s.label.value) for s in spans]  # had stayed


@pytest.mark.parametrize(
    ("text", "tagged", "kept"),
    [
        # "Aide" had gone into the address and out of the text ("... rue de la République à domicile")
        (
            "vit au 14 rue de la Convention. Aide à domicile",
            "14 rue de la Convention Aide",
            ["14", "rue", "de", "la", "Convention"],
        ),
        ("12 Main Ave. Boston", "12 Main Ave Boston", ["12", "Main", "Ave", "Boston"]),  # an abbreviation
        ("rue de la Paix. Lyon", "rue de la Paix Lyon", ["rue", "de", "la", "Paix", "Lyon"]),  # a town
    ],
)
def test_a_place_ends_where_the_next_sentence_opens_with_a_common_word(
    text: str, tagged: str, kept: list[str]
) -> None:
    rule = partial(end_places_at_sentence_end, lists=name_lists())
    assert after(rule, text, set(tagged.split()), "LOCATION") == kept


@pytest.mark.parametrize(
    "text", ["Hx: CABG x3 '97, AVR 2011 at St. Elizabeth's.", "PFTs: FEV1 was 45%. FEV1/FVC ratio was 52%."]
)
def test_a_french_month_form_in_capitals_is_no_date_in_english(text: str) -> None:
    spans = build_detector("tagger", {}).detect(Document("d", text, {"lang": "en"}))
    assert not any(
        word in s.text for s in spans for word in ("AVR", "FEV")
    )  # "AVR 2011" had become "JUIN 2009"
