"""The tagger's precision rules, one test per false-positive family (the model's decisions are given)."""

from __future__ import annotations

import pytest

from anonymed.detect.tagger.prune import prune_names
from anonymed.detect.tokens import alnum_tokens


def pruned(text: str, tagged: dict[str, str]) -> list[str]:
    """The words still tagged after pruning, when the model tagged the words of ``tagged`` (word -> label)."""
    tokens = alnum_tokens(text)
    labels = [tagged.get(token.text, "O") for token in tokens]
    prune_names(text, tokens, labels)
    return [token.text for token, label in zip(tokens, labels, strict=True) if label != "O"]


@pytest.mark.parametrize(
    ("text", "tagged", "kept"),
    [
        ("Patient was seen today.", {"Patient": "NAME"}, []),  # a role word alone
        ("PT'S SON CALLED TWICE", {"SON": "NAME"}, []),
        ("Family meeting with team.", {"Family": "NAME", "team": "NAME"}, []),
        ("Seen by Dr Smith", {"Dr": "NAME", "Smith": "NAME"}, ["Smith"]),  # a title at the name's edge
        ("wife Mary aware", {"wife": "NAME", "Mary": "NAME"}, ["Mary"]),
        ("JANE DOE RN in room", {"JANE": "NAME", "DOE": "NAME", "RN": "NAME"}, ["JANE", "DOE"]),
        ("John Smith, M.D.", {"John": "NAME", "Smith": "NAME", "M": "NAME", "D": "NAME"}, ["John", "Smith"]),
        ("Dr. Jennifer HO at bedside", {"Jennifer": "NAME", "HO": "NAME"}, ["Jennifer"]),  # a house officer
        ("Jennifer ho at bedside", {"Jennifer": "NAME", "ho": "NAME"}, ["Jennifer"]),
        ("Dr. Jennifer Ho at bedside", {"Jennifer": "NAME", "Ho": "NAME"}, ["Jennifer", "Ho"]),  # a surname
        ("Seen by Amy Do today", {"Amy": "NAME", "Do": "NAME"}, ["Amy", "Do"]),
        ("Seen by Xanthe Ho today", {"Xanthe": "NAME", "Ho": "NAME"}, ["Xanthe"]),  # no listed first name
    ],
)
def test_role_and_title_words_are_no_names(text: str, tagged: dict[str, str], kept: list[str]) -> None:
    assert pruned(text, tagged) == kept


@pytest.mark.parametrize(
    ("text", "tagged"),
    [
        ("Kussmaul breathing noted", {"Kussmaul": "NAME"}),  # never a name alone
        ("Swan placed via R IJ", {"Swan": "NAME"}),
        ("urine orange, cloudy", {"orange": "NAME"}),
        ("Murphy sign positive", {"Murphy": "NAME"}),  # a surname made an eponym by the noun after it
        ("Hoffman's sign negative", {"Hoffman": "NAME"}),
        ("Miller blade used", {"Miller": "NAME"}),
        ("fluid in the pouch of Douglas", {"Douglas": "NAME"}),
        ("pouch of Douglas clear", {"Douglas": "LOCATION"}),
        ("started Lasix 40 mg iv", {"Lasix": "NAME"}),  # a dose after it: a drug
        ("Haldol 2mg given", {"Haldol": "NAME"}),
        ("M BIBA after a fall", {"BIBA": "LOCATION"}),  # triage: brought in by ambulance
    ],
)
def test_eponyms_devices_drugs_and_colours_are_no_names(text: str, tagged: dict[str, str]) -> None:
    assert pruned(text, tagged) == []


@pytest.mark.parametrize(
    ("text", "tagged"),
    [
        ("a Deaver retractor was placed", {"Deaver": "LOCATION"}),  # surgical instruments and materials
        ("closed with a Kessler-type stitch", {"Kessler": "NAME"}),
        ("the Cobb elevator freed the muscle", {"Cobb": "NAME"}),
        ("down to Camper's fascia", {"Camper": "LOCATION"}),
        ("a Jackson-Pratt drain was left", {"Jackson": "LOCATION"}),  # two eponyms joined by a hyphen
        ("a large Hill-Sachs lesion", {"Hill": "NAME", "Sachs": "NAME"}),
        ("a Terumo hydrophilic wire was advanced", {"Terumo": "LOCATION"}),  # one modifier between
        ("status post Whipple pancreaticoduodenectomy", {"Whipple": "NAME"}),  # a procedure by its suffix
        ("underwent Nissen fundoplication in 2010", {"Nissen": "NAME"}),
        ("under general anesthesia", {"general": "LOCATION"}),
        ("Norco one tablet every 4 hours as needed", {"Norco": "LOCATION"}),  # tablets: a drug
        ("Flexeril 2 tabs at night", {"Flexeril": "NAME"}),
        # two eponyms and one noun ("Ortolani" had become "Paul" in a well-child check)
        ("Negative Ortolani and Barlow maneuvers.", {"Ortolani": "NAME"}),
        ("Kernig and Brudzinski signs absent", {"Kernig": "NAME", "Brudzinski": "NAME"}),
    ],
)
def test_surgical_eponyms_procedures_and_drugs_are_no_names_or_places(
    text: str, tagged: dict[str, str]
) -> None:
    assert pruned(text, tagged) == []


@pytest.mark.parametrize(
    ("text", "tagged", "kept"),
    [
        ("he has good strength today", {"good": "LOCATION"}, []),  # lower-case common words alone
        ("discharged in good condition", {"good": "LOCATION"}, ["good"]),  # after "in": kept, to be safe
        ("past medical history of asthma", {"medical": "LOCATION"}, []),
        ("lives in boston with wife", {"boston": "LOCATION"}, ["boston"]),  # common, but a city
        ("lives in framingham with wife", {"framingham": "LOCATION"}, ["framingham"]),  # not common
        ("transferred from General today", {"General": "LOCATION"}, ["General"]),  # capitalised
        ("after the meeting at harbor today", {"harbor": "LOCATION"}, ["harbor"]),  # after a locative word
        ("transferred to mercy this am", {"mercy": "LOCATION"}, ["mercy"]),
    ],
)
def test_lower_case_common_words_alone_are_no_places(
    text: str, tagged: dict[str, str], kept: list[str]
) -> None:
    assert pruned(text, tagged) == kept


@pytest.mark.parametrize(
    ("text", "tagged", "kept"),
    [
        (
            "TRANSFER TO BALTIMORE REHAB OR HOME",
            {"BALTIMORE": "LOCATION", "REHAB": "LOCATION", "OR": "LOCATION"},
            ["BALTIMORE", "REHAB"],
        ),
        ("SPOKE WITH SMITH AND", {"SMITH": "NAME", "AND": "NAME"}, ["SMITH"]),
        (  # credentials of dentists, nurse practitioners and UK doctors (the surrogate had become "ANDERSON")
            "seen by Dr. Helga Sorensen DDS today",
            {"Helga": "NAME", "Sorensen": "NAME", "DDS": "NAME"},
            ["Helga", "Sorensen"],
        ),
        (
            "Priya Nair MBBS MRCP",
            {"Priya": "NAME", "Nair": "NAME", "MBBS": "NAME", "MRCP": "NAME"},
            ["Priya", "Nair"],
        ),
        (
            "Note by Dana Whitfield APRN",
            {"Dana": "NAME", "Whitfield": "NAME", "APRN": "NAME"},
            ["Dana", "Whitfield"],
        ),
        (  # a contact's label between a name and an e-mail address's local part
            "Daughter Anne Lowell (email anne.lowell@example.org) visited",
            {"Anne": "NAME", "Lowell": "NAME", "email": "NAME", "anne": "NAME", "lowell": "NAME"},
            ["Anne", "Lowell", "anne", "lowell"],
        ),
    ],
)
def test_words_glued_onto_a_span_are_cut_off(text: str, tagged: dict[str, str], kept: list[str]) -> None:
    assert pruned(text, tagged) == kept


@pytest.mark.parametrize(
    ("text", "tagged"),
    [
        ("Spoke with Dr. Swan today", {"Swan": "NAME"}),  # a title makes the eponym a person
        ("Mr. Murphy sign here please", {"Murphy": "NAME"}),
        ("Called Mary Brown at home", {"Mary": "NAME", "Brown": "NAME"}),  # a colour that is a surname
        ("Douglas visited with his wife", {"Douglas": "NAME"}),
        ("Lasix given by Anna 40 minutes ago", {"Anna": "NAME"}),  # minutes are no dose
        ("Spoke with Jones today, drain out", {"Jones": "NAME"}),  # no clinical noun right after
        ("Discussed with Baker. Drain removed", {"Baker": "NAME"}),  # another sentence
        ("Wife Ann at bedside, tube feeds on", {"Ann": "NAME"}),
        ("Spoke with Smith and Jones today", {"Smith": "NAME", "Jones": "NAME"}),  # two people, no noun
        ("Smith and jones tube", {"Smith": "NAME"}),  # the second word no eponym (lower case)
        ("Seen by Dr. John A. Smith today", {"John": "NAME", "A": "NAME", "Smith": "NAME"}),  # an initial
        ("Wife Mary A. Jones called", {"Mary": "NAME", "A": "NAME", "Jones": "NAME"}),  # had lost its "A."
    ],
)
def test_real_names_are_kept(text: str, tagged: dict[str, str]) -> None:
    assert pruned(text, tagged) == list(tagged)


@pytest.mark.parametrize(
    ("text", "tagged", "kept"),
    [
        ("A sister in Illinois was called", {"Illinois": "LOCATION"}, []),  # a state may stay (Safe Harbor)
        ("lives in California, Phone 858", {"California": "LOCATION"}, []),
        (
            "Baltimore, Maryland 21201",
            {"Maryland": "LOCATION"},
            ["Maryland"],
        ),  # with its ZIP code: an address
        ("SR TO ST. HIGH PRESSURES", {"ST": "LOCATION"}, []),  # sinus tachycardia
        ("abg 80/48/7.45.34.7 today", {"7": "LOCATION", "45": "LOCATION", "34": "LOCATION"}, []),
        ("placed on the Passey muir valve", {"Passey": "LOCATION"}, []),
        ("lives at 19 Clover St", {"19": "LOCATION", "Clover": "LOCATION"}, ["19", "Clover"]),
        ("GH from Harbor", {"GH": "LOCATION", "from": "LOCATION", "Harbor": "LOCATION"}, ["GH", "Harbor"]),
        # a state that names an institution stays: before an institution word, after "U" / "University of"
        ("transfer to Iowa Rehab today", {"Iowa": "LOCATION"}, ["Iowa"]),
        ("insulin per U Iowa scale", {"U": "LOCATION", "Iowa": "LOCATION"}, ["U", "Iowa"]),
        (
            "seen at University of Iowa",
            {"University": "LOCATION", "of": "LOCATION", "Iowa": "LOCATION"},
            ["University", "of", "Iowa"],
        ),
        ("moved from Iowa rehab was", {"Iowa": "LOCATION"}, ["Iowa"]),
        ("moved from Iowa. Rehab", {"Iowa": "LOCATION"}, []),  # another sentence: a state alone
        # a place keeps its possessive; a name does not
        (
            "return to St Agnes's tomorrow",
            {"St": "LOCATION", "Agnes": "LOCATION", "s": "LOCATION"},
            ["St", "Agnes", "s"],
        ),
        ("Smith's wife called", {"Smith": "NAME", "s": "NAME"}, ["Smith"]),
        ("SMITH'S WIFE CALLED", {"SMITH": "NAME", "S": "NAME"}, ["SMITH"]),  # a possessive in capitals
        ("INVOLVED WITH MS S. CARE", {"S": "NAME"}, ["S"]),  # an initial, not a possessive
        # "Hospital" names nothing: the place is the words before it; a hospital unit is no place
        ("from LINDEN HOSPITAL today", {"LINDEN": "LOCATION", "HOSPITAL": "LOCATION"}, ["LINDEN"]),
        (
            "to St. Agnes's Hospital",
            {"St": "LOCATION", "Agnes": "LOCATION", "s": "LOCATION", "Hospital": "LOCATION"},
            ["St", "Agnes", "s"],
        ),
        ("transferred from TSICU at 6pm", {"TSICU": "LOCATION"}, []),
        ("ADMITTED FROM LINDEN HOSP. FOR", {"LINDEN": "LOCATION", "HOSP": "LOCATION"}, ["LINDEN"]),
        (
            "to go to Holy Redeemer Vital signs",
            {"Holy": "LOCATION", "Redeemer": "LOCATION"},
            ["Holy", "Redeemer"],
        ),
        ("Swan catheter placed", {"Swan": "LOCATION"}, []),  # an eponym without an institution's head
        ("arrived from the VA today", {"VA": "LOCATION"}, ["VA"]),
        # a specialty and department words name a department, not a place (the heading had become a hospital)
        ("OPHTHALMOLOGY CLINIC NOTE", {"OPHTHALMOLOGY": "LOCATION", "CLINIC": "LOCATION"}, []),
        ("transferred to Pediatrics today", {"Pediatrics": "LOCATION"}, []),
        ("Dept of Psychiatry called", {"Dept": "LOCATION", "of": "LOCATION", "Psychiatry": "LOCATION"}, []),
        ("Seen at the Mayo Clinic", {"Mayo": "LOCATION", "Clinic": "LOCATION"}, ["Mayo", "Clinic"]),
        ("to Cardiology Regional", {"Cardiology": "LOCATION"}, ["Cardiology"]),  # a naming tail after it
        # a person's title before a name is no place (the role word had become a town)
        ("Officer Delgado came", {"Officer": "LOCATION", "Delgado": "NAME"}, ["Delgado"]),
        ("Trooper Haines came", {"Trooper": "LOCATION"}, []),
        ("met the Officer today", {"Officer": "LOCATION"}, ["Officer"]),  # no name after it
        ("Officer\nDelgado came", {"Officer": "LOCATION"}, ["Officer"]),  # not on its line
    ],
)
def test_places_that_are_regions_numbers_or_devices(
    text: str, tagged: dict[str, str], kept: list[str]
) -> None:
    assert pruned(text, tagged) == kept


def test_a_phone_number_loses_its_labels_and_a_dotted_credential_its_letters() -> None:
    phone = {"Home": "CONTACT", "301": "CONTACT", "680": "CONTACT", "6286": "CONTACT", "Office": "CONTACT"}
    assert pruned("Home 301-680-6286 Office", phone) == ["301", "680", "6286"]
    nurse = {"Mary": "NAME", "Hulse": "NAME", "R": "NAME", "N": "NAME"}
    assert pruned("Mary Hulse, R.N.", nurse) == ["Mary", "Hulse"]
