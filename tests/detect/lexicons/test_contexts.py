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
        ("case manager spoke with nadine today", ("nadine", "NAME", "speech")),
        ("NP CAROL ORDERED LINES", ("CAROL", "NAME", "role")),
        ("discussed with ho kowalczyk at noon", ("kowalczyk", "NAME", "role")),
        ("Stord-Painter MD plans a talc", ("Stord-Painter", "NAME", "credential")),
        # a display name, surname first ("Chen, David L MD" had lost its surname)
        ("Submitting physician: Chen, David L MD\nSpecimen", ("Chen, David L", "NAME", "credential")),
        ("Signed: Patel, Anita RN", ("Patel, Anita", "NAME", "credential")),
        ("Reported to D. Phyl. Coags ok.", ("D. Phyl", "NAME", "initial")),
        ("KEEP ROMERO FAMILY AWARE OF PLAN", ("ROMERO", "NAME", "family")),
        ("social: bob visited during the evening", ("bob", "NAME", "subject")),
        ("case manager spoke with nadine today", ("nadine", "NAME", "speech")),  # a listed first name
        ("Will ask to page Nadia later", ("Nadia", "NAME", "speech")),
        ("devoted.\nHarold Quist (son) cell# 555-010-4477", ("Harold Quist", "NAME", "kin")),  # (kin)
        ("Marta Velinsky cell# 555-010-2288", ("Marta Velinsky", "NAME", "kin")),  # before a phone label
        ("lives with wife (Jane Roe) at home", ("Jane Roe", "NAME", "kin")),  # in parentheses after kin
        ("GIVEN. BEA TURA AWARE MGSO4 GIVEN.", ("BEA TURA", "NAME", "subject")),
        ("Seen by Baltimore Rehab for screening", ("Baltimore", "LOCATION", "institution")),  # the name only
        # "Regional" and "Memorial" belong to the name they close; "Hospital" and "Rehab" do not
        ("TAKEN TO LAUREL REGIONAL WHERE CK'S ROSE", ("LAUREL REGIONAL", "LOCATION", "institution")),
        ("a bed at Grace Memorial today", ("Grace Memorial", "LOCATION", "institution")),
        # a nickname or a baby's name in quotes after its cue
        ('Infant "Aaliyah" per parents.', ("Aaliyah", "NAME", "quoted")),
        ('Pt goes by "Bunny" and her son is called "Big Al".', ("Big Al", "NAME", "quoted")),
        ("Pt prefers to be called “Jim”.", ("Jim", "NAME", "quoted")),
        # where a person comes from
        ("Moved here from Saugerties last year.", ("Saugerties", "LOCATION", "residence")),
        ("She grew up in Saugerties, a small town.", ("Saugerties", "LOCATION", "residence")),
        ("He is originally from Woodstock.", ("Woodstock", "LOCATION", "residence")),
        # a kind of care facility after its name, after a preposition of place: the name only
        ("Discharged to Sunny Acres Skilled Nursing for rehab.", ("Sunny Acres", "LOCATION", "institution")),
        ("Came from Maple Grove Nursing Home today.", ("Maple Grove", "LOCATION", "institution")),
        ("Resides at Brookdale Assisted Living in town.", ("Brookdale", "LOCATION", "institution")),
        ("She attends Lincoln Elementary now.", ("Lincoln", "LOCATION", "institution")),  # a school
        ("He attends Central High School.", ("Central", "LOCATION", "institution")),
        ("his sister is at Roosevelt Middle School.", ("Roosevelt", "LOCATION", "institution")),
        # an institution prefix, one or two words of any kind, an institution word: in any case
        ("pt to go to holy redeemer hospital at 4pm", ("holy redeemer", "LOCATION", "institution")),
        ("to rehab(holy redeemer Memorial) today", ("holy redeemer Memorial", "LOCATION", "institution")),
        ("TRANSFER TO GOOD SAMARITAN HOSPITAL", ("GOOD SAMARITAN", "LOCATION", "institution")),
        ("wishes to return to St Agnes's after weaning", ("St Agnes's", "LOCATION", "institution")),
        ("sent to Keeley House after a fall", ("Keeley", "LOCATION", "institution")),
        ("transplant at Holy Cross. This friend", ("Holy Cross", "LOCATION", "institution")),
        ("per U Maryland scale", ("U Maryland", "LOCATION", "institution")),
        ("Pt sent to ED at GH for a CT.", ("GH", "LOCATION", "abbreviation")),
        ("he lives nearby in brookline and will", ("brookline", "LOCATION", "residence")),  # a verb of living
        ("Lives alone in Cranford. No stairs", ("Cranford", "LOCATION", "residence")),
        ("lives in a shelter in Millbrook area. Will", ("Millbrook", "LOCATION", "area")),
        ("her psych docter Harrington phoned and", ("Harrington", "NAME", "caller")),
        ("FAMILY ARRIVED FROM THE WESTERN SHORE- DAUGHTER", ("WESTERN SHORE", "LOCATION", "region")),
        ("radiation planning on South Campus followed", ("South", "LOCATION", "region")),  # campus: no name
        ("911 called and pt taken to fallston hosp. she", ("fallston", "LOCATION", "institution")),
        # names that no list holds after a patient cue, two words or more, capitalised in a cased note
        ("Pt Kwame Boateng (chart #SB-77413), seen 11/5/24.", ("Kwame Boateng", "NAME", "patient")),
        ("Patient Chidinma Okonkwo-Eze was seen today.", ("Chidinma Okonkwo-Eze", "NAME", "patient")),
        (
            "Patient: Rajeshwari Venkatasubramanian\nDOB: 1/2/1950",
            ("Rajeshwari Venkatasubramanian", "NAME", "patient"),
        ),
        ("Patient Kwame A. Boateng was seen.", ("Kwame A. Boateng", "NAME", "patient")),
        ("Seen today. Pt. Efua Mensah-Bonsu arrived by car.", ("Efua Mensah-Bonsu", "NAME", "patient")),
        # names that open the sentence describing the patient's age (the opening of a history)
        (
            "Rajeshwari Venkatesan is a 54 yo woman with chest pain.",
            ("Rajeshwari Venkatesan", "NAME", "described"),
        ),
        ("HPI: Tendai Moyo is an 81-year-old man with CHF.", ("Tendai Moyo", "NAME", "described")),
        ("Seen today. Kwame A. Boateng was a 45 y/o male.", ("Kwame A. Boateng", "NAME", "described")),
        ("Met with Rajeshwari Venkatesan and her husband.", ("Rajeshwari Venkatesan", "NAME", "speech")),
        # police and military ranks before a name (a police officer in the ED had stayed)
        ("PD officer Sgt. Brandt (badge 4471) at bedside.", ("Brandt", "NAME", "title")),
        ("Spoke with Detective Ramirez this morning.", ("Ramirez", "NAME", "title")),
        ("Trooper Kowalczyk brought him in.", ("Kowalczyk", "NAME", "title")),
        ("Pediatrician: Dr. Ilse Vandermeer at Hasbro Children's.", ("Hasbro", "LOCATION", "institution")),
        # a county's name, not its word (HIPAA: a geographic subdivision smaller than a state)
        ("Referral sent to Ulster County Office for the Aging.", ("Ulster", "LOCATION", "county")),
        ("Moved from Prince George's County last year.", ("Prince George's", "LOCATION", "county")),
        ("Born in Orleans Parish, raised in Texas.", ("Orleans", "LOCATION", "county")),
        ("Each hospital in Anne Arundel County differs.", ("Anne Arundel", "LOCATION", "county")),
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
        "lives in a shelter; lives with son",  # common words after a verb of living
        "north of the shore; east wing of the county",  # compass words without a geographic noun after
        "taken to tertiary hosp today",  # a common word before an institution word
        "In the Groin area no hematoma. Dressing over the IJ area.",  # a body part, an abbreviation
        "Lasix given. Family called, Nurse called",  # no listed name inside a sentence before the verb
        "moved to bipap, lives in ALF",  # no verb of living; an abbreviation too short for a town
        "Pt's Home# 603-960-5357",  # a role word before a phone label
        "went home 2 days ago",  # a phone label's word with no name before it
        "son (at bedside) aware; wife (HCP) called",  # no name word in the parentheses
        "spoke with daughter today. page 2 of 2",  # a kin word, a page number
        "Code status per protocol. per Renal",  # a common word after "per"
        "good heart sounds; st elevation in v2",  # prefixes without an institution word after them
        "GOOD AIR ENTRY. HOSPITAL COURSE",  # an institution word on another sentence
        "good, hospital stay uneventful",  # no word between the prefix and the institution word
        "Patient Controlled Analgesia was started.",  # common words after a patient cue
        "Pt Tolerated Procedure Well. Vitals stable.",
        "The patient Kwame was seen. Vitals stable.",  # one word: too little to tell a name
        "PATIENT KWAME BOATENG SEEN. VITALS STABLE.",  # a note in capitals: capitals say nothing
        "the pt kwame boateng was seen, vitals stable, plan to go home",  # a note in lower case
        "Chest Pain is a 3 month problem. Vitals stable.",  # common words before the age description
        "The Patient is a 54 year-old man. Vitals stable.",
        "Seen by Tendai Moyo is a 54 yo man. Vitals stable.",  # the name does not open the sentence
        "Met with resistance. Vitals stable.",
        "s/p Lt. hip replacement. Vitals stable.",  # "Lt.": left, no rank
        "edema to lt.fa +1, k+ repleted",
        "both corporal bodies were measured",  # anatomy, no rank
        "the officer at bedside left. Vitals stable.",  # an ambiguous rank needs a name word after it
        "Each County differs. Vitals stable.",  # a determiner opens the phrase
        "Declined county services. Vitals stable.",  # no capitalised word before the county word
        "pt lives in ulster county, vitals stable",  # a note in lower case
        "Pt moved to Telemetry this am. Vitals stable.",  # "moved to": a unit as often as a town
        "Moved from bed to chair; moved back from Rehab.",  # common words, an institution word
        "Born in 1950. Raised in foster care.",
        "Plan: Skilled Nursing placement. Vitals stable.",  # no name before the kind
        "Discharge Plan Skilled Nursing. Vitals stable.",  # no preposition of place before the name
        "Needs a skilled nursing facility. Vitals stable.",
        "Elementary school teacher. Attends high school. Junior High graduate.",
        'Pt called "911" then. Son called "Dad" when upset. Infant "A" twin.',  # digits, kin, a letter
        'Baby "girl" doing well. Pt called "Help me".',  # lower case; not closed after two words
        "pt to maple grove nursing home, vitals stable",  # a note in lower case
    ],
)
def test_no_context_hit_without_a_name_word(text: str) -> None:
    assert hits(text) == set()


@pytest.mark.parametrize(
    "text",
    [
        "Patient: Gonzalez, Maria T.   MRN: 00482913",
        "Patient: Gonzalez, Maria T. DOB: 04/17/1956",
        "Smith, John A.  SSN 078-05-1120",
    ],
)
def test_a_field_label_after_a_middle_initial_is_no_surname(text: str) -> None:
    assert not any(label in value for value, _, _ in hits(text) for label in ("MRN", "DOB", "SSN"))


def test_the_rules_are_english_only() -> None:
    assert not ContextDetector().supports("fr")
