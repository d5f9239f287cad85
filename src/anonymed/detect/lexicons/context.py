"""Closed word classes that give context to names and places (English and French), as folded keys."""

from __future__ import annotations

from typing import Final

from anonymed.detect.tokens import word_set

#: honorifics that introduce a clinician (subtype "clinician")
CLINICIAN_TITLES: Final = word_set(
    "dr drs dr's doctor doctors docteur docteurs doc pr prof professeur professor dre"
)
#: honorifics that introduce a person of unknown role
PERSON_TITLES: Final = word_set("mr mrs ms miss mme mmes mlle mademoiselle madame monsieur mister sir")
#: roles written before a clinician's name ("NP Carol", "caseworker Leona Labowich", "IDE Martine")
ROLES: Final = word_set(
    "np rn lpn crna caseworker nurse chaplain attending resident fellow intern md infirmier "
    "infirmiere interne externe ide kine kinesitherapeute psychologue dieteticienne dieteticien "
    "assistante cadre therapist counselor sw"
)
#: "M." (French Monsieur) counts only with its dot and a capitalised name after it
MONSIEUR_DOT: Final = "m"

#: credentials written after a clinician's name ("J. Smith, RN", "Foley CRT")
CREDENTIALS: Final = word_set(
    "md rn np rrt crt lpn cnm crna phd do pharmd msw lcsw bsn msn cna slp rd facs facp mph ide ibode "
    "iade interne externe dds dmd dpm aprn fnp dnp lmft psyd mbbs frcs frcp mrcp facog faap otr"
)
#: credentials that are ordinary words too; they count only written in capitals after a comma
WEAK_CREDENTIALS: Final = frozenset({"do", "rd", "ide"})
#: titles that are also clinical abbreviations ("MS:" mental status, "MR" mitral regurgitation)
AMBIGUOUS_TITLES: Final = word_set("ms mr pr doc miss sir dre m")

#: words for family and proxies: a name right after them is a relative
RELATIVES: Final = word_set(
    "wife husband son daughter mother father mom dad brother sister sibling niece nephew grandson "
    "granddaughter grandmother grandfather aunt uncle cousin fiance fiancee partner spouse boyfriend "
    "girlfriend friend neighbor neighbour proxy hcp dtr sil dil stepdaughter stepson sons daughters "
    "brothers sisters parents grandchildren grandsons granddaughters kids children friends nieces "
    "nephews enfants filles freres soeurs epouse epoux mari femme fils fille mere pere frere soeur "
    "sœur neveu tante oncle conjoint conjointe compagnon compagne ami amie "
    "voisin voisine roommate housemate flatmate caregiver carer guardian stepmother stepfather stepbrother "
    "stepsister grandma grandpa godmother godfather"
)

#: labels after which a name is expected when a colon follows ("Nom : DUPONT", "Name: John Smith")
COLON_CUES: Final = word_set(
    "name nom prenom prenoms patient patiente signe signed pcp caseworker attending resident fellow "
    "intern interne externe medecin referent redacteur contact proxy hcp nok surname firstname "
    "psychologue kinesitherapeute infirmier infirmiere chirurgien anesthesiste cardiologue operateur "
    "aide responsable correspondant destinataire auteur praticien therapist nurse"
)
#: words after which a name is expected without a colon ("a woman named Alice", "Dupont née Martin")
BARE_CUES: Final = frozenset({"named", "nee", "surnamed", "alias"})
#: words after which an initial or an all-capitals word is a name in a cased note ("Patient J. PETIT")
CAPS_CUES: Final = word_set("patient patiente pour par madame monsieur")

#: short function words that are never names, whatever the lists say
FUNCTION_WORDS: Final = word_set(
    "a an the and or but if of in on at to for by with from as is was are were be been has had have "
    "will may can did does not no yes he she it we they his her this that who aware notified here "
    "there out up ok am pm also today see so per all both other given left right still then than when "
    "while le la les un une des du de et ou en au aux par pour sur dans avec il elle est sont pas ne "
    "qui que ce se x xx xxx y z"
)

#: words that follow a hospital's name ("Calvert Hospital", "Holy Cross Rehab")
HOSPITAL_SUFFIXES: Final = word_set(
    "hospital hosp hospitals infirmary rehab rehabilitation clinic sanatorium hospice medical "
    "memorial health healthcare nursing manor institute psychiatric pavilion"
)
#: of HOSPITAL_SUFFIXES, those that need a second word to close the name ("Medical Center", "Nursing Home")
SUFFIX_TAILS: Final = {
    "medical": word_set("center centre ctr ctr. campus group"),
    "health": frozenset({"center", "centre", "system", "services", "pavilion"}),
    "psychiatric": frozenset({"center", "centre", "hospital", "institute"}),
    "nursing": frozenset({"home", "facility", "center", "centre"}),
}
#: words that precede a hospital's name ("Hôpital Bichat", "CHU de Rennes", "Clinique du Parc")
HOSPITAL_PREFIXES: Final = word_set(
    "hopital hop chu chru chr aphp clinique polyclinique ehpad ssr usld institut fondation groupe "
    "centre maternite sanatorium"
)
#: of HOSPITAL_PREFIXES, those that need a second word ("Centre hospitalier", "Groupe hospitalier")
PREFIX_TAILS: Final = {
    "centre": word_set("hospitalier hospitalo-universitaire medical de sante medico-chirurgical"),
    "groupe": frozenset({"hospitalier", "hospitalo-universitaire"}),
    "institut": word_set("curie gustave pasteur mutualiste de du des medical"),
    "fondation": word_set("rothschild hopital de du des adolphe"),
}
#: saint prefixes that start a hospital / place name ("St. Agnes", "Saint-Louis", "Sainte Anne")
SAINTS: Final = word_set("st ste saint sainte san santa")

#: street types written after the number: "12 rue de la Paix", "123 Main Street"
STREET_TYPES_FR: Final = word_set(
    "rue avenue ave bd boulevard blvd place pl chemin allee impasse imp quai route rte cours "
    "square passage voie sentier faubourg fbg residence res cite lotissement hameau parvis "
    "promenade esplanade villa mail clos strasse straße"
)
STREET_TYPES_EN: Final = word_set(
    "street st avenue ave av road rd boulevard blvd lane ln drive dr court ct way place pl terrace "
    "ter parkway pkwy highway hwy circle cir square sq trail trl pike turnpike plaza alley row "
    "crescent close grove gardens walk route rte expressway freeway"
)
#: of those, the types that name a street on their own, written capitalised without its number ("on Clark St";
#: not "Dr", "Ct", "Pl": doctor, court, platelets; not "Walk", "Row", "Close": ordinary words)
NAMING_STREET_TYPES: Final = word_set(
    "street st avenue ave road rd boulevard blvd lane ln drive way terrace parkway pkwy highway hwy turnpike"
)
#: words that may sit between the number and the street type ("12 bis rue", "28 ter, place")
NUMBER_SUFFIXES: Final = word_set("bis ter quater b a c")

#: prepositions that make an ambiguous capitalised place name a place ("lives in Nice", "à Nice")
PLACE_CUES: Final = word_set("in from to at near lives living resides born visiting")
PLACE_CUES_FR: Final = word_set("a de d' pres vers habite domicilie domiciliee originaire ne nee en sur")

#: verbs of moving a patient, after which "to X" / "from X" names a facility
MOVES: Final = word_set(
    "transfer transferred transfered transferring trans admitted admit adm sent brought referred "
    "arrived discharged dc'd returned medflight medflighted transfere transferee admis admise adresse "
    "adressee hospitalise hospitalisee"
)

#: every word that starts a name rule (checked first, so that most words cost one lookup)
NAME_TRIGGERS: Final = (
    CLINICIAN_TITLES
    | PERSON_TITLES
    | {MONSIEUR_DOT}
    | CREDENTIALS
    | CAPS_CUES
    | RELATIVES
    | ROLES
    | COLON_CUES
    | BARE_CUES
)
