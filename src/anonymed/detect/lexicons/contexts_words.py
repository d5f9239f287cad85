"""The word classes of the English context rules (``contexts``): titles, roles, credentials, verbs of speech
and contact, institution words, and the words that must not be taken for names.

General clinical English, not names of any corpus; folded keys (``detect.tokens.fold``).
"""

from __future__ import annotations

from typing import Final

from anonymed.detect.tokens import word_set

#: titles after which any word but a role or function word is a name
TITLES: Final = word_set(
    "mrs mr ms miss dr drs doctor rabbi rev reverend father fr sister sgt sergeant cpl "
    "lieutenant capt det detective trooper ofc officer"
)
#: titles that are clinical abbreviations too (MS mental status, MR mitral regurgitation): need a name word
AMBIGUOUS_TITLES: Final = word_set("ms mr miss sister father fr capt det officer")
#: verbs after which "a 54 yo ..." describes the name that opens the sentence ("Rajeshwari Venkatesan is a
#: 54 yo woman")
DESCRIBING_VERBS: Final = word_set("is was")
#: words that close a county's name ("Ulster County", "Orleans Parish"): a HIPAA geographic subdivision
COUNTY_WORDS: Final = word_set("county parish borough")
#: words a patient's name follows without a title ("Pt Kwame Boateng seen today", "Patient: Chidinma Eze")
PATIENT_CUES: Final = word_set("patient pt")
#: role abbreviations and role words written before a clinician's name
ROLES: Final = word_set("np nps ho rn md resident attending fellow intern nurse chaplain hospitalist")
#: credentials after a name without a comma ("Painter MD")
CREDENTIALS: Final = word_set("md rn np pa phd crna lpn rrt")
#: words of speech or report that a name follows ("per", "spoke with", "reported to")
SPEECH_AFTER: Final = {
    "per": frozenset({""}),
    "spoke": word_set("with to"),
    "talked": word_set("with to"),
    "discussed": word_set("with"),
    "met": word_set("with"),
    "reported": word_set("to"),
    "paged": frozenset({""}),
    "page": frozenset({""}),
    "notified": frozenset({""}),
    "called": frozenset({""}),
    "informed": frozenset({""}),
    "updated": frozenset({""}),
}
#: kin words written in parentheses after a relative's name ("Jane Roe (daughter)")
KIN: Final = word_set(
    "wife husband spouse son daughter mother mom father dad sister brother niece nephew grandson "
    "granddaughter aunt uncle cousin friend partner fiance fiancee boyfriend girlfriend neighbor neighbour "
    "proxy hcp dtr sil dil"
)
#: labels of a relative's phone number written after the name ("Jane Roe cell# ...")
PHONE_LABELS: Final = word_set("cell cellphone mobile home work phone tel pager")
#: verbs of contact that a first name opens a clause with ("bill called", "BEA TURA AWARE")
CONTACT_VERBS: Final = word_set(
    "called calls phoned visited visits visiting came aware notified updated spoke arrived left informed "
    "wants wishes states stated said says agrees agreed"
)
#: words that say who someone is, never who (kept out of names)
ROLE_WORDS: Final = word_set(
    "patient patients pt pts family team staff doctor md mds rn np pa ho nurse nurses resident attending "
    "fellow intern wife husband son daughter mother father sister brother friend proxy hcp case manager "
    "social worker dr mr mrs ms sw cm rt ot"
)
#: labels of a record header's fields that name an identifier, English and French ("Gonzalez, Maria T.   MRN:
#: 00482913", "Lefèvre, NIR 1 48 ..."): never a name before the value they announce
FIELD_LABELS: Final = word_set(
    "mrn dob doa dod ssn npi csn acct fax tel email nir ipp nda ins rpps adeli finess niss avs ahv ramq"
)
#: what "per" and "as per" refer to besides people: documents, systems, orders
DOCUMENTS: Final = word_set(
    "carevue flowsheet flowsheets flow sheet protocol protocal protocols reqs order orders nsg nursing md "
    "policy guidelines routine metavision epic cerner chart mar"
)
#: clinical nouns after "PA" that make it the pulmonary artery, not a physician assistant
PA_NOUNS: Final = word_set("line cath catheter pressure pressures pressure's port tracing numbers pas pad")
#: modal and auxiliary words that are also first names or that never start a name
NOT_SUBJECTS: Final = word_set("will may can mark")
#: epithets of bacteria and fungi written after an initial ("P. aeruginosa", "C. diff")
SPECIES: Final = word_set(
    "aeruginosa coli aureus epidermidis pneumoniae difficile diff dif albicans glabrata faecalis faecium "
    "marcescens cloacae mirabilis influenzae baumannii maltophilia jirovecii carinii fragilis perfringens "
    "pyogenes agalactiae viridans lugdunensis hominis haemolyticus capitis warneri"
)
#: words that close an institution's name ("Baltimore Rehab", "Laurel Regional", "North Campus")
INSTITUTION_TAILS: Final = word_set(
    "hospital hosp hospitals rehab rehabilitation regional memorial campus house manor clinic center "
    "centre ctr health healthcare institute infirmary hospice va children's elementary"
)
#: two words that name a kind of care facility or school after its name ("Sunny Acres Skilled Nursing",
#: "Brookdale Assisted Living", "Roosevelt Middle School"): the name is the capitalised words before them
FACILITY_KINDS: Final = frozenset(
    {("skilled", "nursing"), ("nursing", "home"), ("nursing", "center"), ("nursing", "facility"),
     ("nursing", "and"), ("assisted", "living"), ("senior", "living"), ("memory", "care"),
     ("high", "school"), ("middle", "school"), ("primary", "school"), ("junior", "high")}
)  # fmt: skip
FACILITY_CUES: Final = word_set("to at from in into of attends attend attending")
#: institution words that belong to the name they close ("Linden Regional", "Grace Memorial"): in the span
NAMING_TAILS: Final = word_set("regional memorial")
#: institution words that are ordinary nouns too ("Regular House Diet", "health care"): the words before
#: them must be no common words
GENERIC_TAILS: Final = word_set("house center centre ctr health healthcare institute manor campus children's")
#: words that open an institution's name ("Holy Cross", "Sacred Heart", "St. Agnes", "U Maryland")
INSTITUTION_HEADS: Final = word_set("holy sacred st saint ste good mount mt u univ university")
#: heads that are also ordinary words or units ("GOOD AMTS", "1 U PRBC"): they need a place word after them
#: that is no common word, or a capitalised one in a cased note
WEAK_HEADS: Final = word_set("good u st saint ste mount mt holy sacred")
#: saints open a hospital's name only before a given name ("St. Agnes", "Saint Joseph")
SAINTS: Final = word_set("st saint ste")
#: place cues before an abbreviated institution ("at GH", "from GBMC", "@ XYZ")
ABBREVIATION_CUES: Final = word_set("at from into")
#: verbs of living somewhere, before "in" / "near" and a town ("lives in Cranford", "resides nearby in X")
RESIDENCE_VERBS: Final = word_set("lives live living lived resides reside residing")
#: the words between such a verb and the town
RESIDENCE_LINKS: Final = word_set("in near nearby at outside alone")
#: verbs of where a person comes from ("moved here from X", "grew up in X", "originally from X"), the words
#: between them and the town, and the last of those words ("moved to" names a unit as often as a town)
ORIGIN_VERBS: Final = word_set("moved relocated immigrated emigrated originally grew born raised")
ORIGIN_LINKS: Final = word_set("here up back from in")
ORIGIN_LAST: Final = word_set("from in")
#: compass words that open a region's or a campus's name ("the Western Shore", "South Campus")
COMPASS: Final = word_set("north northern south southern east eastern west western")
#: the geographic nouns they open a name with
REGION_NOUNS: Final = word_set("shore coast county campus valley hills island")
#: words before a town and "area" ("in Millbrook area", "the Cranford area")
AREA_CUES: Final = word_set("in the from near around")
#: hospital units and services written in capitals that are no place name
UNITS: Final = word_set(
    "micu sicu csru ccu nicu picu tsicu cvicu pacu ed er or icu osh ccu msicu cticu ctsicu ncu ncicu rehab "
    "ems ekg ecg cxr ct mri ir cath lab gi ob gyn ent pt ot rt sw cm np md rn pa va"
)

#: words after which a name is written in quotes: a nickname or a baby's name ('goes by "Bunny"', 'Infant
#: "Aaliyah" per parents', 'nicknamed "Red"'); the opening quotes and the closing ones
QUOTE_CUES: Final = word_set("called by nickname nicknamed aka named infant baby")
OPENING_QUOTES: Final = frozenset({'"', "“", "'", "‘", ':"', ":“", ":'"})
CLOSING_QUOTES: Final = frozenset({'"', "”", "'", "’"})
#: every word that can start a rule (an initial, a single letter, starts one too)
TRIGGERS: Final = (
    TITLES
    | frozenset(SPEECH_AFTER)
    | ROLES
    | CREDENTIALS
    | CONTACT_VERBS
    | INSTITUTION_TAILS
    | INSTITUTION_HEADS
    | ABBREVIATION_CUES
    | KIN
    | PHONE_LABELS
    | RESIDENCE_VERBS
    | ORIGIN_VERBS
    | COMPASS
    | {"area"}
    | {"family"}
    | PATIENT_CUES
    | COUNTY_WORDS
    | DESCRIBING_VERBS
    | QUOTE_CUES
    | frozenset(first for first, _ in FACILITY_KINDS)
)
