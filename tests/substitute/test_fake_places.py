"""Places are replaced by real places of their kind; the same place gets the same surrogate per patient."""

from __future__ import annotations

import gzip
import re
from importlib import resources

import pytest

from anonymed.document import Document, Span
from anonymed.labels import Label
from anonymed.randomness import RandomSource
from anonymed.substitute.fake import places, towns
from anonymed.substitute.fake.gazetteer import commune_name, gazetteer, us_towns_by_state
from anonymed.substitute.invariant import fold
from anonymed.substitute.places import place_key
from anonymed.substitute.registry import build_operator
from anonymed.substitute.stage import Substituter

KEY = b"patient-key-0123456789abcdef0123"


def rng(n: int = 0) -> RandomSource:
    return RandomSource.from_key(bytes([n]) * 32)


def surrogate(text: str, target: str, lang: str = "en", *, patient: str = "p1", doc_id: str = "d1") -> str:
    start = text.index(target)
    doc = Document(doc_id, text, {"lang": lang, "patient_id": patient})
    doc = doc.with_spans([Span.of(text, start, start + len(target), Label.LOCATION)])
    operators = {label: build_operator("tag") for label in Label}
    operators[Label.LOCATION] = build_operator("fake")
    (rep,) = Substituter(operators, patient_key=KEY)(doc, RandomSource()).replacements
    return rep.surrogate


@pytest.mark.parametrize("seed", range(10))
def test_a_known_town_becomes_a_real_town_of_its_country_and_size(seed: int) -> None:
    places_ = gazetteer()
    town = towns.town("Towson", "en", rng(seed))
    original = places_.town("Towson", "US")
    assert original is not None and town.country == "US" and town.name != "Towson"
    assert original.population / 2 <= town.population <= original.population * 2


def test_a_small_french_town_becomes_a_commune_of_similar_size() -> None:
    small = towns.town("Agencourt", "fr", rng())  # a commune of 513 people
    assert small.country == "FR" and small.department and small.population < 1_100


def test_commune_names_are_written_as_communes_are() -> None:
    assert commune_name("AISEY SUR SEINE") == "Aisey-sur-Seine"
    assert commune_name("LES GOULLES") == "Les Goulles"
    assert commune_name("ST MAURICE LE VIEIL") == "Saint-Maurice-le-Vieil"
    assert commune_name("L ISLE SUR LE DOUBS") == "L'Isle-sur-le-Doubs"


@pytest.mark.parametrize(
    ("text", "target", "lang", "check"),
    [
        ("admitted to GH today", "GH", "en", r"[A-Z]{2}"),  # an abbreviation of the same length
        ("seen at GBMC for", "GBMC", "en", r"[A-Z]{4}"),
        ("TAKEN TO CALVERT HOSPITAL", "CALVERT", "en", r"[A-Z .'-]+"),  # a name before its kind word
        ("transferred from Kessler Adventist Hosp", "Kessler Adventist Hosp", "en", r".+ Hosp"),
        ("vue à l'Hôpital Bichat hier", "Hôpital Bichat", "fr", r"Hôpital .+"),
        ("suivie à la Clinique du Lys", "Clinique du Lys", "fr", r"Clinique .+"),
        ("suivi au CHRU de Besançon", "CHRU de Besançon", "fr", r"CHRU [A-Zd].+"),  # was "Ouge", a town
        # a rehabilitation or long-stay unit is an institution (had become the commune "La Vieille-Loye")
        ("sortie vers le SSR Les Embruns à Capbreton", "SSR Les Embruns", "fr", r"SSR (?!Les Embruns).+"),
        ("transférée en USLD du Parc", "USLD du Parc", "fr", r"USLD .+"),
        # a psychiatric centre is an institution (had become the town "Gahanna")
        ("admitted to Creedmoor Psychiatric Center", "Creedmoor Psychiatric Center", "en",
         r"(?!Creedmoor).+ Psychiatric Center"),
        ("lives in Maryland now", "Maryland", "en", r"[A-Z][a-z]+(?: [A-Z][a-z]+)*"),
        ("ANNAPOLIS, MD", "MD", "en", r"[A-Z]{2}"),
        ("lives at 19 Clover St. in", "19 Clover St.", "en", r"\d{1,2} [A-Z][a-z]+ St\."),
        ("réside au 12 rue du Lys 75002 Paris.", "12 rue du Lys 75002 Paris", "fr",
         r"\d{2} rue [^\d]+ \d{5} [A-Z].+"),
        # a street without its number is a street, not a town ("14 Park Road, Leeds" was "14 Willimantic")
        ("lives at 14 Park Road, Leeds LS6 2QT", "Park Road, Leeds", "en", r"[A-Z][a-z]+ Road, [A-Z].+"),
        ("laboratoire de la rue Rivoli, Paris", "rue Rivoli, Paris", "fr", r"rue [^,]+, [A-Z].+"),
        # a street named by a USPS abbreviation without its number ("Clark St" had become a town)
        ("Works at Walgreens on Clark St. Previous", "Clark St", "en", r"[A-Z][a-z]+ St"),
        ("lives off Bee Ridge Rd now", "Bee Ridge Rd", "en", r"[A-Z][a-z]+(?: [A-Z][a-z]+)* Rd"),
        ("at St Luke's today", "St Luke's", "en", r"(?!.* St$).+"),  # a saint, no street
    ],
)  # fmt: skip
def test_places_keep_their_kind(text: str, target: str, lang: str, check: str) -> None:
    out = surrogate(text, target, lang)
    assert re.fullmatch(check, out), out
    assert out.casefold() != target.casefold()


def test_a_state_stays_a_state() -> None:
    names = set(gazetteer().states.values())
    assert surrogate("lives in Maryland now", "Maryland") in names


def test_a_town_of_a_note_is_a_real_town() -> None:
    out = surrogate("lives in Catonsville with", "Catonsville")
    assert gazetteer().town(out, "US") is not None


def test_the_same_place_gets_the_same_surrogate_in_every_note_of_a_patient() -> None:
    first = surrogate("lives in Catonsville with", "Catonsville", doc_id="d1")
    assert surrogate("back to CATONSVILLE today", "CATONSVILLE", doc_id="d2") == first.upper()
    others = {surrogate("lives in Catonsville with", "Catonsville", patient=f"p{i}") for i in range(2, 8)}
    assert len(others) > 1  # another patient, another stream


def _known_words() -> set[str]:
    ref = resources.files("anonymed") / "resources" / "lexicons"
    words: set[str] = set()
    for name in ("common_en.txt.gz", "common_fr.txt.gz", "first_names.txt.gz", "last_names.txt.gz"):
        words |= set(gzip.decompress((ref / name).read_bytes()).decode().split())
    return words


def test_street_and_hospital_names_are_words_not_people() -> None:
    known = _known_words()
    for lang in ("en", "fr"):
        for name in (*places.STREETS[lang], *places.HOSPITAL_NAMES[lang]):
            for word in re.findall(r"[^\W\d_]{2,}", name):
                folded = fold(word)
                assert folded in known or folded in {"st", "lakeside", "riverside"}, word


def test_similar_towns_are_computed_once_per_town_and_never_hold_the_town() -> None:
    places_ = gazetteer()
    boston = places_.town("Boston", "US")
    assert boston is not None
    first = places_.similar(boston)
    assert places_.similar(boston) is first  # kept: the pool of a country is scanned once per town
    assert first == places_._similar(boston, 2.0, 12)
    assert all(t.name != "Boston" and t.country == "US" for t in first) and len(first) >= 12


@pytest.mark.parametrize(
    ("name", "country", "spread", "least"),
    [
        ("Boston", "US", 2.0, 12),
        ("Dijon", "FR", 1.5, 5),
        ("Tokyo", "JP", 1.1, 40),  # few towns that large: the nearest in population make up the number
        ("Lyon", "FR", 2.0, 10_000),  # more than the country holds: all its other towns, nearest first
    ],
)
def test_similar_towns_are_those_of_the_plain_definition(
    name: str, country: str, spread: float, least: int
) -> None:
    """``_similar`` (population test before the key) equals: other keys, then population, else nearest."""
    places_ = gazetteer()
    town = places_.town(name, country)
    assert town is not None and town.country == country
    pool = places_.by_country[country] if town.population >= 15_000 or country != "FR" else places_.communes
    others = [t for t in pool if place_key(t.name) != place_key(town.name)]
    close = [t for t in others if town.population / spread <= t.population <= town.population * spread]
    nearest = sorted(others, key=lambda t: abs(t.population - town.population))[:least]
    expected = tuple(close) if len(close) >= least else tuple(nearest)
    assert places_._similar(town, spread, least) == expected
    assert len(expected) >= min(least, len(others))


@pytest.mark.parametrize(
    ("after", "code"),
    [(", TX 75201", "TX"), (", Texas.", "TX"), (" , New Mexico", "NM"), (", MD", "MD"), (", or later", None),
     (" TX", None), (", Xy", None), (", Hospital", None), (" ID 83706", "ID"), (" ID 8370", None),
     (" ID #83706", None)],
)  # fmt: skip
def test_a_state_after_a_town_is_read(after: str, code: str | None) -> None:
    assert towns.state_after(after) == code


@pytest.mark.parametrize(("before", "code"), [("Dallas, TX ", "TX"), ("Boise, Idaho ", "ID"), ("zip ", None)])
def test_a_state_before_a_zip_code_is_read(before: str, code: str | None) -> None:
    assert towns.state_before(before) == code


@pytest.mark.parametrize("patient", ["p1", "p2", "p3", "p4", "p5", "p6"])
def test_a_town_followed_by_its_state_becomes_a_town_of_that_state(patient: str) -> None:
    texas = {t.name for t in us_towns_by_state()["TX"]}
    new = surrogate("Followed in Dallas, TX since 2019.", "Dallas", patient=patient)
    assert new in texas and new != "Dallas"
    unknown = surrogate("Lives in Smallburgh, MD now.", "Smallburgh", patient=patient)
    assert unknown in {t.name for t in us_towns_by_state()["MD"]}
    # an address's last line without the comma (USPS Publication 28: city, state, ZIP code)
    idaho = surrogate("Apt 212, Boise ID 83706.", "Boise", patient=patient)
    assert idaho in {t.name for t in us_towns_by_state()["ID"]} and idaho != "Boise"


@pytest.mark.parametrize("patient", ["p1", "p2", "p3", "p4"])
def test_a_zip_code_after_a_state_is_a_zip_code_of_that_state(patient: str) -> None:
    text = "Office in Dallas, TX 75201."
    start = text.index("75201")
    doc = Document("d1", text, {"lang": "en", "patient_id": patient})
    doc = doc.with_spans([Span.of(text, start, start + 5, Label.LOCATION, subtype="zip")])
    operators = {label: build_operator("tag") for label in Label}
    operators[Label.LOCATION] = build_operator("fake")
    (rep,) = Substituter(operators, patient_key=KEY)(doc, RandomSource()).replacements
    assert re.fullmatch(r"\d{5}", rep.surrogate) and rep.surrogate != "75201"
    assert 750 <= int(rep.surrogate[:3]) <= 799 or rep.surrogate.startswith("885")  # USPS prefixes of Texas


def test_every_shipped_us_town_has_its_state() -> None:
    by_state = us_towns_by_state()
    assert sum(len(towns) for towns in by_state.values()) == len(gazetteer().by_country["US"])
    assert "Austin" in {t.name for t in by_state["TX"]} and "Baltimore" in {t.name for t in by_state["MD"]}


#: street names of the language the address surrogates draw from (``places.STREETS``), as a pattern
_STREET_NAME = "(?:" + "|".join(places.STREETS["en"]) + ")"


@pytest.mark.parametrize(
    ("target", "check"),
    [
        ("42 Birchwood Lane, Apt 3B", rf"\d{{2}} {_STREET_NAME} Lane, Apt \d[A-Z]"),
        ("12 Oak St Apt 4C", rf"\d{{2}} {_STREET_NAME} St Apt \d[A-Z]"),
        ("12 OAK ST APT 4C", rf"\d{{2}} {_STREET_NAME.upper()} ST APT \d[A-Z]"),
        ("77 Key West Blvd, Apt B", rf"\d{{2}} {_STREET_NAME} Blvd, Apt [A-Z]"),
        ("12 Oak Ave, Suite 200, Ste. 4B", rf"\d{{2}} {_STREET_NAME} Ave, Suite \d{{3}}, Ste\. \d[A-Z]"),
        ("9 Elm Rd, Bldg C, Rm 12", rf"\d {_STREET_NAME} Rd, Bldg [A-Z], Rm \d{{2}}"),
        ("12 Oak Ave #12, Boston", rf"\d{{2}} {_STREET_NAME} Ave #\d{{2}}, [A-Z][A-Za-z .'-]+"),
    ],
)
@pytest.mark.parametrize("patient", ["p1", "p2", "p3"])
def test_a_unit_keeps_its_designator_and_gets_another_number(target: str, check: str, patient: str) -> None:
    """USPS Pub. 28 C2 units: the designator stays, its number and letters change, none becomes a town."""
    out = surrogate(f"Lives at {target}.", target, patient=patient)
    assert re.fullmatch(check, out), out
    letters = re.findall(r"(?<=\d)[A-Z]\b|(?<=Apt )[A-Z]\b|(?<=Bldg )[A-Z]\b", target)
    assert not set(letters) & set(re.findall(r"(?<=\d)[A-Z]\b|(?<=Apt )[A-Z]\b|(?<=Bldg )[A-Z]\b", out))


@pytest.mark.parametrize(
    ("target", "check"),
    [
        # a directional after the type had kept the street's name, and the stage fell back to random letters
        ("32 Peachtree Pl NE Apt 4B", rf"\d{{2}} {_STREET_NAME} Pl NE Apt \d[A-Z]"),
        ("1400 Main St SW Apt 2", rf"\d{{4}} {_STREET_NAME} St SW Apt \d"),
        ("32 NE Peachtree Pl", rf"\d{{2}} NE {_STREET_NAME} Pl"),
        ("12 North Maple Ave Apt 3", rf"\d{{2}} North {_STREET_NAME} Ave Apt \d"),
        # an ordinal street gets another ordinal with its suffix ("45th" had become "38Willow")
        ("77 W. 45th Street, Apt. 12C", r"\d{2} W\. \d{1,2}(?:st|nd|rd|th) Street, Apt\. \d{2}[A-Z]"),
        ("12 EAST 3RD ST APT 2", r"\d{2} EAST \d(?:ST|ND|RD|TH) ST APT \d"),
        # a town after the street without a comma becomes a town ("Oak Ave Springfield" had become letters)
        ("12 Oak Ave Springfield", rf"\d{{2}} {_STREET_NAME} Ave [A-Z][A-Za-z .'-]+"),
        ("400 Elm St NW Washington", rf"\d{{3}} {_STREET_NAME} St NW [A-Z][A-Za-z .'-]+"),
    ],
)
@pytest.mark.parametrize("patient", ["p1", "p2", "p3", "p4"])
def test_a_street_keeps_its_directionals_and_ordinals_are_ordinals(
    target: str, check: str, patient: str
) -> None:
    """USPS Pub. 28 directionals (Appendix B) stay where they stand; the name and numbers change."""
    out = surrogate(f"Lives at {target}.", target, patient=patient)
    assert re.fullmatch(check, out), out
    kept = {"Pl", "NE", "Apt", "St", "SW", "North", "Ave", "W", "Street", "EAST", "ST", "APT", "NW"}
    words = re.compile(r"\b[A-Za-z]{2,}\b")
    assert not (set(words.findall(target)) - kept) & set(words.findall(out))


@pytest.mark.parametrize("patient", ["p1", "p2", "p3"])
def test_a_french_mail_box_keeps_its_word_and_the_postcode_is_the_towns(patient: str) -> None:
    """ "8 impasse des Lilas, BP 45, 65000 Tarbes Cedex" had fallen back to random letters ("BP" kept read as
    a leak); in "70012, 75001 Paris" the special delivery number had been taken for the postcode."""
    address = "8 impasse des Lilas, BP 45, 65000 Tarbes Cedex"
    out = surrogate(f"Demeurant {address}.", address, "fr", patient=patient)
    assert re.fullmatch(r"\d impasse [^,]+, BP \d{2}, \d{5} [^,]+ Cedex", out), out
    out = surrogate("Société X, CS 70012, 75001 Paris", "70012, 75001 Paris", "fr", patient=patient)
    number, code, town = re.fullmatch(r"(\d{5}), (\d{5}) (.+)", out).groups()  # type: ignore[union-attr]
    departments = {c.department for c in gazetteer().communes if c.name == town}
    assert code[:2] in departments and number != "70012"


#: a town's name as the gazetteer writes it ("Kaimukī", "Coeur d'Alene", "Winston-Salem")
_TOWN = r"[^\W\d_][\w .'’-]+"


@pytest.mark.parametrize(
    ("target", "check"),
    [
        # a British street and its town in one span had become one town ("Larkspur Close, Harrogate" ->
        # "Imperial"), a parkway or a trail lost its street word ("Old Mill Pkwy" -> "Walnut")
        ("Larkspur Close, Harrogate", rf"{_STREET_NAME} Close, {_TOWN}"),
        ("7 Chapel Mews, York", rf"\d {_STREET_NAME} Mews, {_TOWN}"),
        ("88 Old Mill Pkwy", rf"\d{{2}} {_STREET_NAME} Pkwy"),
        ("400 Eagle Trail, Boise", rf"\d{{3}} {_STREET_NAME} Trail, {_TOWN}"),
        # "14 Ravenscroft Gardens, Leeds" had come out in random letters (its "Gardens" read as a leak)
        ("14 Ravenscroft Gardens, Leeds", rf"\d{{2}} {_STREET_NAME} Gardens, {_TOWN}"),
        ("Flat 2, 17 Mill Row", rf"Flat \d, \d{{2}} {_STREET_NAME} Row"),  # the Royal Mail's flat
    ],
)
@pytest.mark.parametrize("patient", ["p1", "p2", "p3"])
def test_british_and_us_street_words_are_kept_with_a_new_name(target: str, check: str, patient: str) -> None:
    out = surrogate(f"Lives at {target} with her son.", target, patient=patient)
    assert re.fullmatch(check, out), out
    names = {"Larkspur", "Harrogate", "Chapel", "York", "Old", "Mill", "Eagle", "Boise", "Ravenscroft"}
    names.add("Leeds")
    assert not names & set(re.findall(r"[A-Za-z]+", out))


@pytest.mark.parametrize("patient", ["p1", "p2", "p3"])
def test_french_units_keep_their_designator(patient: str) -> None:
    """ "Bât. C" had become "de la Libération" (the accent kept "Bât" out of the unit designators)."""
    target = "5 allée des Peupliers, Bât. C, Esc. 2, 25200 Montbéliard"
    out = surrogate(f"Adresse : {target}.", target, "fr", patient=patient)
    assert re.fullmatch(r"\d allée [^,]+, Bât\. [A-Z], Esc\. \d, \d{5} [^,]+", out), out
    assert "Peupliers" not in out and "Bât. C" not in out


@pytest.mark.parametrize("patient", ["p1", "p2", "p3", "p4"])
def test_an_address_followed_by_its_state_gets_a_town_of_that_state(patient: str) -> None:
    """ "12 Oak Ave, Springfield, IL 62701" had got a town of any state before ", IL"."""
    out = surrogate("Lives at 12 Oak Ave, Springfield, IL 62701.", "12 Oak Ave, Springfield", patient=patient)
    assert out.split(", ")[-1] in {t.name for t in us_towns_by_state()["IL"]}, out


def test_ordinals_get_their_english_suffix() -> None:
    drawn = {places._ordinal_like("45th", rng(n)) for n in range(60)}
    for ordinal in drawn:
        number = int(ordinal[:-2])
        suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
        assert ordinal == f"{number}{suffix}" and 10 <= number <= 99
    assert places._ordinal_like("3RD", rng(1))[-2:] in {"ST", "ND", "RD", "TH"}


@pytest.mark.parametrize("patient", ["p1", "p2", "p3"])
def test_a_state_name_followed_by_a_state_is_a_town(patient: str) -> None:
    """ "New York, NY" is the city: it had become a state ("Ohio, NY")."""
    out = surrogate("Address: 77 Oak St, New York, NY 10036", "New York", patient=patient)
    assert out in {t.name for t in us_towns_by_state()["NY"]}
    assert places.place_kind("New York", "moved to ", " last year") == "state"


def test_a_designator_word_without_a_unit_number_is_a_name() -> None:
    """ "Key West Blvd": "Key" names the street (no unit number after it), so it is replaced."""
    assert [u.group(0) for u in places._UNIT_DESIGNATOR.finditer("77 Key West Blvd, Apt B")] == ["Apt"]
    assert "Key" not in surrogate("Lives at 77 Key West Blvd.", "77 Key West Blvd")


@pytest.mark.parametrize("patient", ["p1", "p2", "p3", "p4", "p5"])
def test_an_english_note_never_gets_a_french_village_for_a_name_shared_with_one(patient: str) -> None:
    """ "Fallon" is a Bourgogne-Franche-Comté commune of 317 people and a town of Nevada under 15,000: in an
    English note it is an unknown US town, replaced by a US town; in a French note, by a commune."""
    assert gazetteer().town("Fallon", "US") is None and gazetteer().town("Fallon", "FR") is not None
    english = surrogate("Follow up at Fallon on Monday.", "Fallon", patient=patient)
    assert gazetteer().town(english, "US") is not None
    french = surrogate("Elle habite à Fallon depuis 2010.", "Fallon", "fr", patient=patient)
    assert french in {t.name for t in gazetteer().communes}


@pytest.mark.parametrize("patient", ["p1", "p2", "p3"])
def test_capitals_are_a_foreign_town_only_if_it_is_a_city(patient: str) -> None:
    """ "BIBA" (brought in by ambulance) folds to Bibā, a town of Egypt under 100,000 people: an abbreviation
    (it had become an Egyptian town with a macron); a French note's "DOLE" stays a French town."""
    assert gazetteer().town("BIBA") is not None  # the collision the rule is about
    assert re.fullmatch(r"[A-Z]{4}", surrogate("34 yo M BIBA after MVC", "BIBA", patient=patient))
    french = surrogate("transféré à DOLE hier", "DOLE", "fr", patient=patient)
    names = {place_key(t.name) for t in (*gazetteer().communes, *gazetteer().by_country["FR"])}
    assert french.isupper() and place_key(french) in names


@pytest.mark.parametrize("patient", ["p1", "p2", "p3", "p4"])
def test_a_town_and_its_state_in_one_span_become_a_town_of_another_state(patient: str) -> None:
    # "Dayton, Ohio" had become one town name, the state gone ("from Marina, who works")
    out = surrogate("a man from Dayton, Ohio, who works", "Dayton, Ohio", patient=patient)
    town_name, state_name = out.split(", ")
    code = towns.state_after(", " + state_name)
    assert code is not None and code != "OH"
    assert town_name in {t.name for t in us_towns_by_state()[code]}
    coded = surrogate("lives in Boise, ID now", "Boise, ID", patient=patient)
    assert re.fullmatch(r"[^,]+, [A-Z]{2}", coded) and not coded.endswith(", ID")
