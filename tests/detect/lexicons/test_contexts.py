"""Context rules for names and places (hints for the tagger): each rule on cases built from its context."""

from __future__ import annotations

import pytest

from anonymed.detect.lexicons.contexts import ContextDetector
from anonymed.document import Document


def hits(text: str) -> set[tuple[str, str, str]]:
    """(text, label, rule) of every span the context rules mark."""
    spans = ContextDetector().detect(Document("d", text))
    return {(s.text, s.label.value, s.source.removeprefix("contexts.")) for s in spans}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("gi: mrs. Park ate a little", ("Park", "NAME", "title")),  # a common word after an unambiguous title
        ("HAS BEEN MAKING MS SANTANGELO HEALTH CARE DECISIONS", ("SANTANGELO", "NAME", "title")),
        ("nursing progress\n mr I remained on pressors", ("I", "NAME", "title")),
        ("Dr. o rourke and Dr. Stronczek in room", ("o rourke", "NAME", "title")),
        ("Rabbi Feldman visited", ("Feldman", "NAME", "title")),
        ("MILRINONE OFF AS PER W. MAROTTA.", ("W. MAROTTA", "NAME", "speech")),
        ("case manager spoke with suzette today", ("suzette", "NAME", "speech")),
        ("NP CAROL ORDERED LINES", ("CAROL", "NAME", "role")),
        ("discussed with ho kowalczyk at noon", ("kowalczyk", "NAME", "role")),
        ("Stord-Painter MD plans a talc", ("Stord-Painter", "NAME", "credential")),
        ("Reported to D. Phyl. Coags ok.", ("D. Phyl", "NAME", "initial")),
        ("KEEP ROMERO FAMILY AWARE OF PLAN", ("ROMERO", "NAME", "family")),
        ("social: bob visited during the evening", ("bob", "NAME", "subject")),
        ("GIVEN. BEA TURA AWARE MGSO4 GIVEN.", ("BEA TURA", "NAME", "subject")),
        ("Seen by Baltimore Rehab for screening", ("Baltimore", "LOCATION", "institution")),  # the name only
        ("TAKEN TO LAUREL REGIONAL WHERE CK'S ROSE", ("LAUREL", "LOCATION", "institution")),
        ("sent to Keeley House after a fall", ("Keeley", "LOCATION", "institution")),
        ("transplant at Holy Cross. This friend", ("Holy Cross", "LOCATION", "institution")),
        ("per U Maryland scale", ("U Maryland", "LOCATION", "institution")),
        ("Pt sent to ED at GH for a CT.", ("GH", "LOCATION", "abbreviation")),
    ],
)
def test_contexts_announce_names_and_places(text: str, expected: tuple[str, str, str]) -> None:
    assert expected in hits(text)


@pytest.mark.parametrize(
    "text",
    [
        "cultures grew P. aeruginosa and E. coli",  # species after an initial
        "transferred to CCU from OSH",  # units and generic abbreviations
        "Pt seen by MD, MD aware",  # role words
        "will call back later",  # a modal is no first name
        "Per protocol, pt turned",  # a common word after "per"
        "MS: alert and oriented",  # mental status
        "TO ACUTE REHAB TOMORROW",  # a common word before an institution word in a note in capitals
        "spoke with family at length",
        "PT SENT TO ED AT GH.",  # in a note in capitals every word is a capital abbreviation
        "Pt rec'd PA cath to RIJ",  # the pulmonary artery
        "as per Carevue. Lung sounds coarse",  # a documentation system
        "call H.O. Cont to monitor",  # an acronym, not an initial
        "tolerating GOOD AMTS OF PO",
        "Written for Regular House Diet",  # a common word before a generic institution word
        "HE IS NOT HER LEGAL HEALTH CARE PROXY",
        "CV: Hr 90-110's ST. Stable Bp off neo",  # sinus tachycardia, then a new sentence
    ],
)
def test_no_context_hit_without_a_name_word(text: str) -> None:
    assert hits(text) == set()


def test_the_rules_are_english_only() -> None:
    assert not ContextDetector().supports("fr")
