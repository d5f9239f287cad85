"""The fake operator: realistic surrogates in the original's shape, memoized per value, per patient."""

from __future__ import annotations

import calendar
import ipaddress
import re
from collections.abc import Callable, Sequence
from datetime import datetime

import pytest
from faker import Faker

from anonymed import Document, Pipeline, PipelineConfig, Span
from anonymed.errors import ConfigError
from anonymed.labels import Label
from anonymed.randomness import RandomSource
from anonymed.substitute.fake import operator as fake_module
from anonymed.substitute.fake.numbers import fake_phone, nir_key
from anonymed.substitute.fake.operator import FakeOperator, FakeParams
from anonymed.substitute.registry import build_operator
from anonymed.substitute.shape import mask
from anonymed.substitute.stage import Substituter

OPERATOR = FakeOperator()
OPERATOR.validate()
FR_MONTHS = "janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre"
FR_MONTHS_ABBR = "janv|févr|mars|avr|mai|juin|juil|août|sept|oct|nov|déc"
Part = str | tuple[str, str] | tuple[str, str, str]


def _provider_list(locale: str, attribute: str) -> set[str]:
    provider = next(p for p in Faker(locale).providers if hasattr(p, attribute))
    return {name.casefold() for name in getattr(provider, attribute)}


EN_FIRST, EN_LAST = _provider_list("en_US", "first_names"), _provider_list("en_US", "last_names")
EN_FEMALE = _provider_list("en_US", "first_names_female")
FR_FIRST, FR_LAST = _provider_list("fr_FR", "first_names"), _provider_list("fr_FR", "last_names")


def make_doc(
    parts: Sequence[Part], *, lang: str = "en", doc_id: str = "d1", patient: str | None = None
) -> Document:
    """A document from plain strings and (text, label[, subtype]) tuples, the tuples becoming spans."""
    text, spans = "", []
    for part in parts:
        if isinstance(part, str):
            text += part
            continue
        value, label, *subtype = part
        spans.append(
            Span(len(text), len(text) + len(value), Label(label), value, subtype=(subtype or [None])[0])
        )
        text += value
    metadata = {"lang": lang} if patient is None else {"lang": lang, "patient_id": patient}
    return Document(doc_id, text, metadata, spans=tuple(spans))


def substitute(doc: Document, seed: int | None = 1, *, key: bytes | None = None) -> list[str]:
    """The surrogates the fake operator writes for each span of ``doc``."""
    result = Substituter(dict.fromkeys(Label, OPERATOR), patient_key=key)(doc, RandomSource(seed))
    return [r.surrogate for r in result.replacements]


def fake_one(text: str, label: str, subtype: str | None = None, *, lang: str = "en", seed: int = 1) -> str:
    """The surrogate of one value."""
    part: Part = (text, label) if subtype is None else (text, label, subtype)
    return substitute(make_doc(["x ", part, " y"], lang=lang), seed)[0]


SEEDS = range(30)


def check_all_seeds(
    text: str, label: str, subtype: str | None, lang: str, check: Callable[[str], bool]
) -> None:
    for seed in SEEDS:
        surrogate = fake_one(text, label, subtype, lang=lang, seed=seed)
        assert check(surrogate), (seed, surrogate)
        assert surrogate.casefold() != text.casefold()


def matches(pattern: str) -> Callable[[str], bool]:
    return lambda s: re.fullmatch(pattern, s) is not None


def parses(fmt: str) -> Callable[[str], bool]:
    def check(s: str) -> bool:
        datetime.strptime(s, fmt)
        return True

    return check


def same_layout(original: str) -> Callable[[str], bool]:
    return lambda s: mask(s) == mask(original)


def _valid_nir(s: str) -> bool:
    digits = "".join(ch for ch in s if ch.isdigit())
    return len(digits) == 15 and nir_key(digits[:13]) == int(digits[13:]) and digits[0] in "12"


def _valid_ssn(s: str) -> bool:
    area = int(s[:3])
    return 0 < area < 900 and area != 666 and s[4:6] != "00" and s[7:] != "0000"


def _weekday_agrees(s: str) -> bool:
    parsed = datetime.strptime(s, "%A, %B %d, %Y")
    return calendar.day_name[parsed.weekday()] == s.split(",")[0]


def _ordinal_agrees(s: str) -> bool:
    day, suffix = re.match(r"[A-Z][a-z]{2} (\d+)(st|nd|rd|th), \d{4}$", s).groups()  # type: ignore[union-attr]
    n = int(day)
    expected = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return suffix == expected


@pytest.mark.parametrize(
    ("text", "subtype", "lang", "check"),
    [
        ("7/22", None, "en", matches(r"([1-9]|1[0-2])/([1-9]|[12]\d|3[01])")),  # month/day, unpadded
        (
            "11/3/1995",
            None,
            "en",
            matches(r"([1-9]|1[0-2])/([1-9]|[12]\d|3[01])/\d{4}"),
        ),  # a 1-digit part: unpadded
        (
            "07/22/2019",
            None,
            "en",
            lambda s: parses("%m/%d/%Y")(s) and len(s) == 10,
        ),  # zero-padded stays padded
        ("vingt quatre aout deux mille dix-sept", None, "fr", parses("%d/%m/%Y")),  # in words: numeric layout
        (
            "12 sept 2020",
            None,
            "fr",
            matches(rf"([1-9]|[12]\d|3[01]) ({FR_MONTHS_ABBR}) \d{{4}}"),
        ),  # sept = September
        ("2 9 0 2 1 9 9", "birth", "fr", same_layout("2 9 0 2 1 9 9")),  # spaced digits: each digit random
        ("2020-02-12", None, "en", parses("%Y-%m-%d")),  # ISO date
        ("February 26, 2020", None, "en", parses("%B %d, %Y")),  # English month name
        (
            "26 février 2020",
            None,
            "fr",
            matches(rf"(1er|[2-9]|[12]\d|3[01]) ({FR_MONTHS}) \d{{4}}"),
        ),  # French name; the first of the month is "1er" in French
        ("12 fevrier 2020", None, "fr", lambda s: s.isascii()),  # unaccented original, unaccented surrogate
        (
            "1er mars 2019",
            None,
            "fr",
            matches(rf"(1er|[2-9]|[12]\d|3[01]) ({FR_MONTHS}) \d{{4}}"),
        ),  # "1er" only for 1
        ("Feb 26th, 2020", None, "en", _ordinal_agrees),  # ordinal suffix recomputed
        (
            "FEB 2020",
            None,
            "en",
            matches(r"(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC) \d{4}"),
        ),  # case kept
        ("Tuesday, March 3, 2015", None, "en", _weekday_agrees),  # weekday follows the new date
        ("12/02/20", None, "fr", matches(r"(0[1-9]|[12]\d|3[01])/(0[1-9]|1[0-2])/\d{2}")),  # French day first
        ("20200212", None, "en", parses("%Y%m%d")),  # compact date
        ("1998", "year", "en", lambda s: len(s) == 4 and 1950 <= int(s) <= 2030),  # years stay 4 digits
        (
            "03/04/1961",
            "birth",
            "fr",
            lambda s: 1920 <= int(s[-4:]) <= 2010,
        ),  # birth dates in the birth range
        ("10:30", "time", "en", matches(r"([01]\d|2[0-3]):[0-5]\d")),  # 24-hour time
        ("3:45 PM", "time", "en", matches(r"([1-9]|1[0-2]):[0-5]\d (AM|PM)")),  # 12-hour time
        ("14h30", "time", "fr", matches(r"([01]\d|2[0-3])h[0-5]\d")),  # French time
        ("2014-03-05 10:22:31", None, "en", parses("%Y-%m-%d %H:%M:%S")),  # timestamp
        ("Christmas", None, "en", parses("%m/%d/%Y")),  # unknown layout: the language's usual date
    ],
)
def test_date_surrogate_keeps_the_layout(
    text: str, subtype: str | None, lang: str, check: Callable[[str], bool]
) -> None:
    check_all_seeds(text, "DATE", subtype, lang, check)


@pytest.mark.parametrize(
    ("text", "label", "subtype", "lang", "check"),
    [
        ("J.", "NAME", None, "en", matches(r"[A-Z]\.")),  # an initial stays an initial
        ("j", "NAME", None, "en", matches(r"[a-z]")),  # in its case
        (
            "John",
            "NAME",
            None,
            "en",
            lambda s: s.casefold() in EN_FIRST,
        ),  # a known first name -> a first name
        ("Smith", "NAME", None, "en", lambda s: s.casefold() in EN_LAST),  # otherwise a last name
        ("Mary", "NAME", None, "en", lambda s: s.casefold() in EN_FEMALE),  # gender kept when known
        ("John Smith", "NAME", None, "en", matches(r"[A-Z][a-z]+ [A-Z][A-Za-z'-]+")),  # two tokens
        ("SMITH, JOHN", "NAME", None, "en", matches(r"[A-Z'-]+, [A-Z'-]+")),  # comma layout, upper case
        ("smith", "NAME", None, "en", str.islower),  # lower case kept
        ("Dr. Helen Park", "NAME", None, "en", matches(r"Dr\. [A-Z][a-z]+ [A-Z][A-Za-z'-]+")),  # title kept
        (
            "DUPONT Jean",
            "NAME",
            None,
            "fr",
            lambda s: (
                s.split()[0].isupper()
                and s.split()[0].casefold() in FR_LAST
                and s.split()[1].casefold() in FR_FIRST
            ),
        ),  # French "LAST First" order
        ("45", "AGE", None, "en", lambda s: len(s) == 2 and 10 <= int(s) <= 89),  # same width
        ("7", "AGE", None, "en", matches(r"[1-9]")),  # a child stays one digit
        ("93", "AGE", "over89", "en", lambda s: int(s) >= 90),  # over 89 stays over 89
        ("45-year-old", "AGE", None, "en", matches(r"\d\d-year-old")),  # words kept
        ("02114", "LOCATION", "zip", "en", matches(r"\d{5}")),  # zip digit layout
        ("02114-1234", "LOCATION", "zip", "en", matches(r"\d{5}-\d{4}")),  # zip+4 layout
        (
            "192.168.1.10",
            "LOCATION",
            None,
            "en",
            lambda s: ipaddress.ip_address(s).version == 4,
        ),  # IPv4 guessed
        ("fe80::1", "LOCATION", "ip", "en", lambda s: ipaddress.ip_address(s).version == 6),  # IPv6
        ("BOSTON", "LOCATION", "city", "en", str.isupper),  # city in upper case
        ("123 Main Street", "LOCATION", None, "en", lambda s: any(c.isdigit() for c in s)),  # street guessed
        (
            "Massachusetts General Hospital",
            "LOCATION",
            None,
            "en",
            matches(r".*(Hospital|Medical Center|Clinic)"),
        ),
        (
            "Hôpital Necker",
            "LOCATION",
            "hospital",
            "fr",
            matches(r".*(Hôpital|Clinique|CHU|Centre hospitalier).*"),
        ),
        ("MA", "LOCATION", "state", "en", matches(r"[A-Z]{2}")),  # state abbreviation
        ("ACME CORP", "ORGANIZATION", None, "en", str.isupper),  # company, case kept
        ("(617) 555-0142", "CONTACT", "phone", "en", matches(r"\([2-9]\d\d\) \d{3}-\d{4}")),  # digit layout
        (
            "+33 6 12 34 56 78",
            "CONTACT",
            "phone",
            "fr",
            matches(r"\+33 [2-9] \d\d \d\d \d\d \d\d"),
        ),  # code kept
        ("+1 617-555-0142", "CONTACT", None, "en", matches(r"\+1 [2-9]\d\d-\d{3}-\d{4}")),  # +1 kept
        (
            "06 12 34 56 78",
            "CONTACT",
            "phone",
            "fr",
            matches(r"0[2-9] \d\d \d\d \d\d \d\d"),
        ),  # trunk zero kept
        ("jdoe@mgh.org", "CONTACT", None, "en", matches(r"[\w.+-]+@[\w-]+(\.[\w-]+)+")),  # email guessed
        ("https://www.mgh.org/", "CONTACT", "url", "en", matches(r"https?://\S+/")),  # url
        ("@maria_g_1985", "CONTACT", "handle", "en", matches(r"@[\w.]+")),  # another user name
        ("www.mgh.org", "CONTACT", None, "en", matches(r"www\.[\w.-]+\.[a-z]+")),  # bare domain guessed
        ("A12-345b", "ID", "mrn", "en", same_layout("A12-345b")),  # digits and letters of same case
        (
            "1 85 05 78 006 084 36",
            "ID",
            "nir",
            "fr",
            lambda s: same_layout("1 85 05 78 006 084 36")(s) and _valid_nir(s),
        ),
        ("185057800608436", "ID", "nir", "fr", lambda s: s.isdigit() and _valid_nir(s)),  # compact NIR
        # a woman's NIR stays a woman's (the sex digit kept, as names keep gender); found without its subtype,
        # a NIR whose key is right still gets a valid NIR, not random digits ("0 74 68 ..." before)
        ("2 33 03 21 231 045 04", "ID", "nir", "fr", lambda s: _valid_nir(s) and s.startswith("2 ")),
        ("2 33 03 21 231 045 04", "ID", None, "fr", lambda s: _valid_nir(s) and s.startswith("2 ")),
        ("1234", "ID", "nir", "fr", matches(r"\d{4}")),  # not a NIR layout: digit layout only
        # a French NIR with a mistyped key is a NIR still ("1 47 02 69 123 456 78" became "0 23 60 ...")
        ("1 47 02 69 123 456 78", "ID", "other", "fr", lambda s: _valid_nir(s) and s.startswith("1 ")),
        ("123-45-6789", "ID", "ssn", "en", lambda s: mask(s) == "999-99-9999" and _valid_ssn(s)),  # SSN
        ("Infirmier", "PROFESSION", None, "fr", lambda s: s.casefold() in _provider_list("fr_FR", "jobs")),
        ("Xy-12", "OTHER", None, "en", same_layout("Xy-12")),  # same-shape random characters
    ],
)
def test_surrogate_of_each_label_keeps_the_shape(
    text: str, label: str, subtype: str | None, lang: str, check: Callable[[str], bool]
) -> None:
    check_all_seeds(text, label, subtype, lang, check)


def test_equal_values_in_a_document_get_equal_surrogates_in_matching_case() -> None:
    doc = make_doc(
        [("John Smith", "NAME"), " ; ", ("JOHN", "NAME"), " ; ", ("Smith", "NAME"), " ; ", ("john", "NAME"),
         " ; ", ("02/12/2020", "DATE"), " ; ", ("02/12/2020", "DATE"), " ; ", ("A123", "ID"), " ; ",
         ("a123", "ID")]
    )  # fmt: skip
    for seed in (1, 2, None):
        full, upper, last, lower, date1, date2, id1, id2 = substitute(doc, seed)
        first = full.split()[0]
        assert upper == first.upper() and lower == first.lower() and last == full.split()[1]
        assert date1 == date2 and id2 == id1.lower()  # same draws, case of each original


def _ids(doc_id: str, patient: str | None = None) -> Document:
    parts: list[Part] = []
    for value in ("123456789", "987654321", "555443333", "A1B2C3D4E5"):
        parts += [(value, "ID"), " "]
    return make_doc(parts, doc_id=doc_id, patient=patient)


def test_documents_are_independent_without_a_patient_key() -> None:
    first, second = substitute(_ids("d1", "p1"), 5), substitute(_ids("d2", "p1"), 5)
    assert all(a != b for a, b in zip(first, second, strict=True))


def test_a_patient_key_links_the_documents_of_one_patient_only() -> None:
    key = b"k" * 32
    same_patient = [
        substitute(_ids(doc, "p1"), seed, key=key) for doc, seed in (("d1", 1), ("d2", 2), ("d3", None))
    ]
    other_patient = substitute(_ids("d4", "p2"), 1, key=key)
    assert same_patient[0] == same_patient[1] == same_patient[2]
    assert all(a != b for a, b in zip(same_patient[0], other_patient, strict=True))


NOTE = "Seen by Dr. Helen Park on 02/12/2020, MRN 123456789, phone (617) 555-0142."


def _note_doc() -> Document:
    spans = (
        Span.of(NOTE, 12, 22, "NAME", subtype="clinician"),
        Span.of(NOTE, 26, 36, "DATE"),
        Span.of(NOTE, 42, 51, "ID", subtype="mrn"),
        Span.of(NOTE, 59, 73, "CONTACT", subtype="phone"),
    )
    return Document("n1", NOTE, {"lang": "en"}, spans=spans)


def _run(seed: int | None) -> str:
    every_label_fake = {label: "fake" for label in Label}  # the dp_* defaults draw unseedable OpenDP noise
    config = PipelineConfig(detectors=(), seed=seed, operators=every_label_fake, stages=("substitute",))
    return Pipeline(config).run(_note_doc()).result


def test_seeded_runs_reproduce_and_different_seeds_differ() -> None:
    assert _run(3) == _run(3)
    assert _run(3) != _run(4)


def test_secure_runs_differ_between_runs() -> None:
    assert _run(None) != _run(None)


def test_fakers_are_built_once_per_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []

    def counting_faker(locale: str) -> Faker:
        built.append(locale)
        return Faker(locale)

    monkeypatch.setattr(fake_module, "Faker", counting_faker)
    operator = FakeOperator()
    operator.validate()
    stage = Substituter(dict.fromkeys(Label, operator))
    for i in range(3):
        for lang in ("en", "fr"):
            stage(
                make_doc([("Jean Dupont", "NAME"), " ", ("Paris", "LOCATION")], lang=lang, doc_id=str(i)),
                RandomSource(i),
            )
    assert sorted(built) == ["en_US", "fr_FR"]


def test_a_surrogate_never_equals_its_original_even_with_one_try() -> None:
    stage = Substituter(dict.fromkeys(Label, FakeOperator(FakeParams(max_tries=1))))
    for seed in range(60):
        replacement = stage(make_doc([("May", "DATE"), " ", ("5", "AGE")]), RandomSource(seed)).replacements
        assert replacement[0].surrogate not in ("May", "") and replacement[1].surrogate != "5"


def test_fallback_is_shape_random_when_faker_keeps_returning_the_original(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    operator = FakeOperator(FakeParams(max_tries=3))
    monkeypatch.setattr(operator.faker("en", RandomSource(0)), "company", lambda: "Acme", raising=False)
    stage = Substituter(dict.fromkeys(Label, operator))
    (replacement,) = stage(make_doc([("Acme", "ORGANIZATION")]), RandomSource(1)).replacements
    surrogate = replacement.surrogate
    assert surrogate != "Acme" and mask(surrogate) == "Aaaa"


def test_locales_can_be_overridden() -> None:
    operator = build_operator("fake", {"locales": {"en": "en_GB"}})
    gb_last, us_last = _provider_list("en_GB", "last_names"), EN_LAST
    names = [f"Qz{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(30)]  # unknown words: last names
    doc = make_doc([part for name in names for part in ((name, "NAME"), " ")])
    surrogates = [
        r.surrogate for r in Substituter(dict.fromkeys(Label, operator))(doc, RandomSource(2)).replacements
    ]
    assert all(s.casefold() in gb_last for s in surrogates)
    assert any(s.casefold() not in us_last for s in surrogates)


@pytest.mark.parametrize(
    "params",
    [
        {"locales": {"en": "xx_XX"}},  # no such Faker locale
        {"min_year": 2000, "max_year": 1990},  # empty year range
        {"min_birth_year": 0},  # year zero does not exist
        {"max_tries": 0},  # must try at least once
        {"colour": "blue"},  # unknown parameter
    ],
)
def test_bad_parameters_are_configuration_errors(params: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        build_operator("fake", params)


def test_a_surrogate_avoids_the_other_original_values_of_the_document() -> None:
    alone = substitute(make_doc([("Smith", "NAME")]), 3)[0]
    together = substitute(make_doc([("Smith", "NAME"), " and ", (alone, "NAME")]), 3)
    assert together[0].casefold() not in (alone.casefold(), "smith")


def test_an_unmapped_language_falls_back_to_english() -> None:
    (surrogate,) = substitute(make_doc([("Smith", "NAME")], lang="de"))
    assert surrogate.casefold() in EN_LAST


@pytest.mark.parametrize(
    ("phone", "layout"),
    [
        ("1-800-222-1222", r"1-[2-9]\d\d-[2-9]\d\d-\d{4}"),  # the trunk prefix stays (it became "9-420-...")
        ("1 617 555 0143", r"1 [2-9]\d\d [2-9]\d\d \d{4}"),
        ("+1 (617) 555-0143", r"\+1 \([2-9]\d\d\) [2-9]\d\d-\d{4}"),
        ("001-541-754-3010", r"001-[2-9]\d\d-[2-9]\d\d-\d{4}"),
        ("617-555-0143", r"[2-9]\d\d-[2-9]\d\d-\d{4}"),  # an exchange starting with 0 or 1 does not exist
        ("06 12 34 56 78", r"0[2-9] \d\d \d\d \d\d \d\d"),  # French: the trunk zero stays
        ("+33 6 12 34 56 78", r"\+33 [2-9] \d\d \d\d \d\d \d\d"),
    ],
)
def test_phone_surrogates_follow_the_numbering_plan(phone: str, layout: str) -> None:
    surrogates = {fake_phone(phone, RandomSource(seed)) for seed in range(40)}
    assert all(re.fullmatch(layout, surrogate) for surrogate in surrogates), sorted(surrogates)[:3]
    assert len(surrogates) > 30
