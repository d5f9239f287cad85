"""Dates, years and times: usual English and French forms are found; ratios, doses, pressures are not."""

from __future__ import annotations

import pytest

from anonymed.detect.patterns.detector import PatternDetector, PatternParams
from anonymed.labels import Label


def found(text: str, lang: str = "en", **options: bool) -> set[tuple[str, str]]:
    """(full label, text) of every span the detector finds."""
    spans = PatternDetector(PatternParams(**options)).detect_text(text, lang)
    return {(span.full_label, span.text) for span in spans}


def labels(text: str, lang: str = "en", **options: bool) -> set[Label]:
    spans = PatternDetector(PatternParams(**options)).detect_text(text, lang)
    return {span.label for span in spans}


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("Admitted 12/02/2020 for chest pain.", "en", "12/02/2020"),  # US/FR slashes, 4-digit year
        ("Seen on 2020-02-12.", "en", "2020-02-12"),  # ISO
        ("cath done 7/22/03 at OSH", "en", "7/22/03"),  # short year
        ("ADMITTED 9/3/97. SEE HX", "en", "9/3/97"),  # upper-case nursing note
        ("LITHIUM TOXICITY-9/2/92.", "en", "9/2/92"),  # glued to a word by a dash
        ("labs on10/14/82 ok", "en", "10/14/82"),  # glued to a word
        ("6-17-21 B: neuro intact", "en", "6-17-21"),  # dashes
        ("née le 15.04.45.", "fr", "15.04.45"),  # dots
        ("Constat 2021/12/10.", "fr", "2021/12/10"),  # year first with slashes
        ("Née le 22|8|1923 N°", "fr", "22|8|1923"),  # vertical bars
        ("jusqu'au 20 12 2003 avant", "fr", "20 12 2003"),  # spaces, four-digit year
        ("D8 08/ 09/18, D9", "fr", "08/ 09/18"),  # space after a separator
        ("suivi depuis 02/2020.", "fr", "02/2020"),  # month and year
        ("Récemment, le 23022018, reprise", "fr", "23022018"),  # eight digits after a date word
    ],
)
def test_numeric_dates_are_found(text: str, lang: str, expected: str) -> None:
    assert any(label.startswith("DATE") and value == expected for label, value in found(text, lang))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("extubated 7/22. stable", "7/22"),  # month/day
        ("pt went to Harbor on 3/6 c/o severe pain", "3/6"),  # pain context but not a /10 score
        ("PRESENT HX:8/30 DECEASED MENTAL STATUS", "8/30"),  # after a colon
        ("CABG in 8/88 at GH", "8/88"),  # month and two-digit year
        ("in 3/06. Anxiety.", "3/06"),  # zero-padded, not a fraction
        ("Plan to wean for extubation 10/3.", "10/3"),  # ventilator words, but a date word right before
    ],
)
def test_short_dates_are_found(text: str, expected: str) -> None:
    assert ("DATE", expected) in found(text)


@pytest.mark.parametrize(
    "text",
    [
        "BP 120/80 HR 72",  # blood pressure
        "BP 90/60, then 110/46-",  # more pressures
        "Percocet 5/325 mg q4h",  # combination dose
        "given 5 MG IV",  # dose
        "RESP: 4L NP CRACKLES 1/2 UP BILATERALLY",  # fraction of the lung fields
        "D5 1/2 NS at 75",  # half normal saline
        "PSV increased to 10/5 overnight",  # ventilator pressure support / PEEP
        "placed on CPAP 5/5 with good tolerance",  # ventilator
        "c/o 8/10 chest pain",  # pain score
        "pain 3/10 after tylenol",  # pain score
        "motor strength 5/5 throughout",  # strength score
        "+3/6 SEM at apex",  # murmur grade
        "co/ci 5/3 svr 900",  # cardiac output / index
        "AC 500X12/5 PEEP",  # ventilator settings glued to x
        "ABG 7.35/45/80 on 40%",  # blood gas
        "titre 1/40 positive",  # titre
        "depuis 2/3 semaines",  # count of weeks
        "Hct 30.2 down from 32.5",  # decimals
    ],
)
def test_ratios_doses_and_pressures_are_not_dates(text: str) -> None:
    assert Label.DATE not in labels(text)


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("Surgery on February 26, 2020 went well.", "en", "February 26, 2020"),  # month first, full year
        ("Seen Feb. 26 in clinic.", "en", "Feb. 26"),  # abbreviation with a dot
        ("born on the 26th of February", "en", "26th of February"),  # ordinal, of
        ("stated it was July 29th.", "en", "July 29th"),  # ordinal after the month
        ("Follow up on Dec 3rd, 2024 in clinic.", "en", "Dec 3rd, 2024"),  # ordinal, comma, four-digit year
        ("next visit December 3rd 2024.", "en", "December 3rd 2024"),  # ordinal and year without a comma
        ("July 29th 15 patients seen", "en", "July 29th"),  # a two-digit number after an ordinal is no year
        ("Nursing Progress Note 21 Apr, 21 0700", "en", "21 Apr, 21"),  # terse header, two-digit year
        ("IN THIS CASE MARCH OF 1993.)", "en", "MARCH OF 1993"),  # upper case, of + year
        ("Monday, February 26, 2020", "en", "Monday, February 26, 2020"),  # weekday prefix
        ("hospitalisé le 26 février 2020.", "fr", "26 février 2020"),  # French day month year
        ("revu le 3 mars pour bilan", "fr", "3 mars"),  # French day month
        ("opéré en mars 2019.", "fr", "mars 2019"),  # French month year
        ("le 1er mars 2022 - sortie", "fr", "1er mars 2022"),  # premier
        ("Prélever le Sept 01,2026", "fr", "Sept 01,2026"),  # comma glued to the year
        ("imprimé le 01sep2018 à 02:21", "fr", "01sep2018"),  # no spaces at all
        ("réalisée le vingt mars 2020", "fr", "vingt mars 2020"),  # day in words
        (
            "né le deux janvier mille neuf cent soixante",
            "fr",
            "deux janvier mille neuf cent soixante",
        ),  # words
        ("lundi 3 mars 2020 consultation", "fr", "lundi 3 mars 2020"),  # French weekday prefix
    ],
)
def test_dates_with_month_names_are_found(text: str, lang: str, expected: str) -> None:
    assert any(label.startswith("DATE") and value == expected for label, value in found(text, lang))


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("came from home in July and left", "en", "July"),  # bare full month name
        ("admitted in sept. and d/c'd", "en", "sept"),  # abbreviation after "in"
        ("revu en septembre pour contrôle", "fr", "septembre"),  # French bare month
        ("it's the 11th.", "en", "11th"),  # ordinal day alone
    ],
)
def test_bare_months_and_ordinals_are_dates(text: str, lang: str, expected: str) -> None:
    assert ("DATE", expected) in found(text, lang)


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("THINKS THIS MAY BE R/T LEVO", "en"),  # modal verb
        ("pt may 2 try again", "en"),  # modal verb before a number
        ("SEE MAR 5 FOR DOSES", "en"),  # medication administration record
        ("HCT 30 DEC TO 28", "en"),  # decreased
        ("will march 3 times", "en"),  # verb
        ("il a sept ans", "fr"),  # seven
        ("TEE to be done on Monday.", "en"),  # weekdays only in high-recall mode
    ],
)
def test_month_like_words_are_not_dates(text: str, lang: str) -> None:
    assert Label.DATE not in labels(text, lang)


def test_a_weekday_after_on_is_a_date_in_high_recall_mode() -> None:
    assert ("DATE", "Monday") in found("TEE to be done on Monday.", high_recall=True)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("PMH: CAD, S/P MI 1992; LCX PTCA", "1992"),  # year after a history event
        ("moved to Boston in 1992 with family", "1992"),  # year after "in"
        ("pmh: cad s/p cabg '95", "95"),  # apostrophe year
        ("PMH MI 92, 3 VCABG", "92"),  # two-digit year after an event in a history
        ("PMH: CVA 74'. CHOLECYSTECTOMY", "74"),  # trailing apostrophe after an event in a history
        ("POSSIBLE MI IN 1980S AFTER", "1980S"),  # decade
        ("diabète connu depuis 2004", "2004"),  # French cue
        ("PMH: RENAL CELL CA 1975, S/P", "1975"),  # cannot be a clock time
    ],
)
def test_years_in_context_are_date_years(text: str, expected: str) -> None:
    assert ("DATE/year", expected) in found(text)


@pytest.mark.parametrize(
    "text",
    [
        "TOTAL IN 1960 OUT 2300",  # intake/output volumes
        "Lie flat until 2000.",  # 8 pm, not a year
        "urine 1980 cc since midnight",  # volume
        "HR 92, BP 110/60",  # a vital sign is no two-digit year
        "HOB up 30' only",  # degrees/feet
        "Hypotensive (70-80's) all AM",  # values in the 70s
    ],
)
def test_volumes_and_clock_numbers_are_not_years(text: str) -> None:
    assert not any(label == "DATE/year" for label, _ in found(text))


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("heparin restarted at 10:30 today", "en", "10:30"),  # colon
        ("Time Frame: 3:15-3:45pm", "en", "3:45pm"),  # meridiem glued
        ("LASIX GIVEN AT 2130 HRS", "en", "2130 HRS"),  # military with HRS
        ("neo dc'd at 930am", "en", "930am"),  # compact meridiem
        ("DC'D @ 0400 with PVCs", "en", "0400"),  # after @
        ("NPN 1900 - 0700 shift", "en", "0700"),  # shift range
        ("reçu le 27/03/2020 à 10h42", "fr", "10h42"),  # French hours
        ("consultation à 10h. N'oubliez", "fr", "10h"),  # French hour after à
    ],
)
def test_clear_times_are_date_times_when_times_are_asked_for(text: str, lang: str, expected: str) -> None:
    assert ("DATE/time", expected) in found(text, lang, times=True)
    assert not any(label == "DATE/time" for label, _ in found(text, lang))  # off by default (not HIPAA PHI)


@pytest.mark.parametrize(
    "text",
    [
        "ANA 1:40 titer",  # titre
        "Albumine urinaire 24h",  # a duration
        "I:E ratio 1:2",  # ventilator ratio
        "RR 14-18 bpm",  # a range of rates
    ],
)
def test_ratios_and_durations_are_not_times(text: str) -> None:
    assert not any(label == "DATE/time" for label, _ in found(text, "fr"))


def test_times_can_be_switched_off() -> None:
    assert not any(label == "DATE/time" for label, _ in found("at 10:30 and 3pm", times=False))


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("Monsieur X, né le 12/03/1960, admis le 15/02/2020", "fr", "12/03/1960"),  # nearest date after né
        ("DOB: 2/8/1935. Seen today.", "en", "2/8/1935"),  # DOB
        ("Date de naissance 21|05|1956 N°", "fr", "21|05|1956"),  # date de naissance
    ],
)
def test_dates_after_a_birth_word_are_birth_dates(text: str, lang: str, expected: str) -> None:
    assert ("DATE/birth", expected) in found(text, lang)


def test_only_the_first_date_after_a_birth_word_is_a_birth_date() -> None:
    result = found("Monsieur X, né le 12/03/1960, admis le 15/02/2020", "fr")
    assert ("DATE", "15/02/2020") in result


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("HAD TREATMENTS 11/05/11/06 AND DUE", {"11/05", "11/06"}),  # two days glued by a slash
        ("12/14.95\nneuro: alert", {"12/14.95"}),  # a period typed for the last slash
        ("He returned to OR on 6-9 for repair", {"6-9"}),  # a hyphen after "on"
        ("NO GROWTH SO FAR FROM 9/27 CULTURES", {"9/27"}),  # a cued day over 12: no count of cultures
    ],
)
def test_oddly_written_dates_are_found(text: str, expected: set[str]) -> None:
    assert {span for label, span in found(text) if label.startswith("DATE")} == expected


@pytest.mark.parametrize(
    "text",
    [
        "on 2-3 L NC",  # a range with a unit
        "on 4-5 mcg of levophed",
        "weaned to 5/5/40/10",  # settings, not two dates (40 is no day of a month)
        "BP 120/80/12/4",
        "2/4 bottles positive",  # a count of bottles
        "grew in 2/4 cultures",
        "pain 3/10.25",  # a pain score
        "from 2-3 times a day",  # a hyphenated pair needs "on", "dated" or "since"
        "PEEP on 5-10 today",  # a ventilator setting
        "edematous, on 1-2 pillows",  # a count of a noun
    ],
)
def test_odd_pairs_that_are_no_dates(text: str) -> None:
    assert not {span for label, span in found(text) if label.startswith("DATE")}


@pytest.mark.parametrize(
    ("text", "dates"),
    [
        ("seen 3/4-3/6/2024 in clinic", {"3/4", "3/6/2024"}),  # the year-bearing end had been left whole
        ("admitted 3/4/2024-3/6/2024", {"3/4/2024", "3/6/2024"}),  # neither end had been found
        ("stay 12/30/2023 – 1/2/2024", {"12/30/2023", "1/2/2024"}),
        ("course 3/4-3/6/24", {"3/4", "3/6/24"}),
        ("on 3.4.2024-6.4.2024", {"3.4.2024", "6.4.2024"}),  # dotted, the same separator on both sides
    ],
)
def test_both_ends_of_a_range_of_slash_dates_are_dates(text: str, dates: set[str]) -> None:
    assert {value for label, value in found(text) if label == "DATE"} >= dates


@pytest.mark.parametrize("text", ["BP 120/80-130/90 today", "ratio 1/2-3/4/5 noted", "doses 5/10-13/45/2024"])
def test_pressures_and_impossible_pairs_are_no_range_of_dates(text: str) -> None:
    assert not any(
        label == "DATE" and "-" not in value and value.count("/") == 2 for label, value in found(text)
    )


@pytest.mark.parametrize(
    ("text", "lang", "dates"),
    [
        ("Plan: repeat echo 5/30-6/2, f/u", "en", {"5/30", "6/2"}),  # "6/2" had stayed
        ("home 12/28-1/3 then clinic", "en", {"12/28", "1/3"}),  # across the new year
        ("hospitalisé du 30/5-2/6 pour", "fr", {"30/5", "2/6"}),  # day first
    ],
)
def test_both_ends_of_a_yearless_range_are_dates(text: str, lang: str, dates: set[str]) -> None:
    assert {value for label, value in found(text, lang) if label == "DATE"} >= dates


@pytest.mark.parametrize(
    "text",
    [
        "strength 4/5-5/5 bilaterally",  # grades: no day past 12
        "abx 5/30-9/2 course",  # the second pair is no month after the first
    ],
)
def test_a_yearless_pair_of_pairs_needs_the_shape_of_a_range(text: str) -> None:
    ends = {value for label, value in found(text) if label == "DATE"}
    assert not ends & {"5/5", "9/2"}


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("Hx: AVR 2011 at St. Elizabeth's", "en", set()),  # an aortic valve replacement, not "avril"
        ("MAI 2019 culture positive", "en", set()),  # Mycobacterium avium-intracellulare
        ("FEV1 was 45%. FEV1/FVC ratio 72%", "en", set()),  # had become "JUIL19"
        ("vu le 12 AVR 2024", "fr", {"12 AVR 2024"}),  # a month in a French note
        ("seen Mar 2011", "en", {"Mar 2011"}),
    ],
)
def test_french_month_forms_in_capitals_are_no_months_in_english(
    text: str, lang: str, expected: set[str]
) -> None:
    assert {value for label, value in found(text, lang) if label == "DATE"} == expected
