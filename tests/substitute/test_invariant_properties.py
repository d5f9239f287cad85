"""Property tests of the invariant for every non-DP operator: no value, nor any word of it, written back.

Two layers: the substitution stage over arbitrary text and spans (what a user gets, whatever an operator
does), and each operator alone on realistic values of its labels (the stage's fallback is then not needed).
``keep`` is excluded (keeping is the user's explicit choice); so are the spans that an operator declares it
may keep (a year under Safe Harbor, an age under 90, a State).
"""

from __future__ import annotations

import datetime as dt
from functools import cache

import pytest
from faker import Faker
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_stage import documents as stage_documents

from anonymed.document import Document, Span
from anonymed.labels import Label
from anonymed.randomness import RandomSource
from anonymed.substitute.base import Context, Operator
from anonymed.substitute.context import ValueStreams
from anonymed.substitute.invariant import leaks
from anonymed.substitute.registry import OPERATORS, build_operator, operator_class
from anonymed.substitute.stage import Substituter

NON_DP = sorted(n for n in OPERATORS if n != "keep" and not operator_class(n).differentially_private)
PROPERTY = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
KEY = b"property-patient-key-0123456789ab"


@cache
def operator(name: str) -> Operator:
    return build_operator(name)


def documents() -> st.SearchStrategy[Document]:
    """The stage tests' arbitrary documents (text, disjoint spans of any label), of a patient."""
    return stage_documents().map(lambda doc: doc.evolve(metadata={**doc.metadata, "patient_id": "P1"}))


def test_every_non_dp_operator_is_covered() -> None:
    assert {"fake", "tag", "redact", "date_shift", "age_noise", "year_only", "age_over89", "zip3"} <= set(
        NON_DP
    )


@pytest.mark.parametrize("name", NON_DP)
@PROPERTY
@given(doc=documents(), seed=st.one_of(st.none(), st.integers(0, 2**32)), keyed=st.booleans())
def test_the_stage_never_writes_a_promised_value_back(
    name: str, doc: Document, seed: int | None, keyed: bool
) -> None:
    op = operator(name)
    substituter = Substituter(dict.fromkeys(Label, op), patient_key=KEY if keyed else None)
    rng = RandomSource(seed)
    done = substituter(doc, rng)
    probe = Context(doc, rng, ValueStreams(doc, rng), doc.lang)  # the stage's language ("UN" is 1 in French)
    op.prepare(doc.spans, probe)
    shift = 0
    for span, rep in zip(doc.spans, done.replacements, strict=True):
        at = rep.start + shift
        assert done.result[at : at + len(rep.surrogate)] == rep.surrogate
        if op.promises_change(span, probe):
            assert not leaks(rep.surrogate, rep.original), (name, rep.original, rep.surrogate)
        shift += len(rep.surrogate) - (rep.end - rep.start)


_FAKER = {"en": Faker("en_US"), "fr": Faker("fr_FR")}


@st.composite
def realistic(draw: st.DrawFn) -> tuple[str, Label, str | None, str]:
    """A realistic value of a label, in English or French: (text, label, subtype, lang)."""
    lang = draw(st.sampled_from(["en", "fr"]))
    faker = _FAKER[lang]
    faker.seed_instance(draw(st.integers(0, 2**31)))
    day = draw(st.dates(dt.date(1940, 1, 1), dt.date(2030, 12, 31)))
    choices = [
        (faker.name(), Label.NAME, None),
        (faker.last_name().upper(), Label.NAME, "patient"),
        (
            day.strftime(draw(st.sampled_from(["%m/%d/%Y", "%d/%m/%Y", "%B %d, %Y", "%Y", "%b %Y"]))),
            Label.DATE,
            None,
        ),
        (f"{draw(st.integers(1, 110))} {'ans' if lang == 'fr' else 'years old'}", Label.AGE, None),
        (faker.city(), Label.LOCATION, "city"),
        (faker.postcode(), Label.LOCATION, "zip"),
        (faker.street_address(), Label.LOCATION, "street"),
        (faker.phone_number(), Label.CONTACT, "phone"),
        (faker.email(), Label.CONTACT, "email"),
        (faker.company(), Label.ORGANIZATION, None),
        (str(draw(st.integers(10**5, 10**9))), Label.ID, "mrn"),
    ]
    text, label, subtype = draw(st.sampled_from(choices))
    return text, label, subtype, lang


#: the operators of each label in the shipped profiles (the ones users get)
_BY_LABEL = {
    Label.DATE: ("fake", "date_shift", "year_only", "tag", "redact"),
    Label.AGE: ("fake", "age_noise", "age_over89", "tag", "redact"),
    Label.LOCATION: ("fake", "zip3", "tag", "redact"),
}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=realistic(), seed=st.integers(0, 2**32))
def test_each_operator_alone_keeps_no_word_of_a_realistic_value(
    value: tuple[str, Label, str | None, str], seed: int
) -> None:
    text, label, subtype, lang = value
    note = f"Note: {text} ."
    span = Span.of(note, 6, 6 + len(text), label, subtype=subtype)
    doc = Document(
        "r", note, {"lang": lang, "patient_id": "P1", "reference_date": "2031-01-01"}, spans=(span,)
    )
    for name in _BY_LABEL.get(label, ("fake", "tag", "redact")):
        done = Substituter({label: operator(name)}, patient_key=KEY)(doc, RandomSource(seed))
        counts = done.privacy["substitution"]["counts"]
        assert not any(key.endswith("|fallback") for key in counts), (
            name,
            text,
            done.replacements[0].surrogate,
        )
        if not any(key.endswith("|kept") for key in counts):
            assert not leaks(done.replacements[0].surrogate, text), (name, text)
