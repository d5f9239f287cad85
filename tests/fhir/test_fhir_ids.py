"""Pseudonyms of ids and identifiers, and references rewritten to match them."""

from __future__ import annotations

import re
import uuid

import pytest

from anonymed.errors import ConfigError
from anonymed.fhir.ids import Pseudonyms, conditional_identifier, rewrite_reference

FHIR_ID = re.compile(r"[A-Za-z0-9\-.]{1,64}")


def test_hmac_pseudonyms_are_consistent_keyed_and_valid_ids() -> None:
    a, b = Pseudonyms("hmac", key=b"k" * 32), Pseudonyms("hmac", key=b"k" * 32)
    assert a.resource_id("Patient", "123") == b.resource_id("Patient", "123")
    assert a.resource_id("Patient", "123") != a.resource_id("Encounter", "123")
    assert a.resource_id("Patient", "123") != Pseudonyms("hmac", key=b"j" * 32).resource_id("Patient", "123")
    assert a.value("urn:ssn", "999-12-3456") != a.value("urn:other", "999-12-3456")
    code = a.resource_id("Patient", "123")
    assert FHIR_ID.fullmatch(code) and uuid.UUID(code).version == 8
    assert "123" not in code


def test_random_pseudonyms_are_not_derived_from_the_id() -> None:
    first, second = Pseudonyms("random"), Pseudonyms("random")
    assert first.resource_id("Patient", "1") == first.resource_id("Patient", "1")
    assert first.resource_id("Patient", "1") != second.resource_id("Patient", "1")
    seeded = [Pseudonyms("random", seed=3) for _ in range(2)]
    assert seeded[0].resource_id("Patient", "1") == seeded[1].resource_id("Patient", "1")
    with pytest.raises(ConfigError, match="unknown id scheme"):
        Pseudonyms("md5")


def test_random_codes_depend_on_order_only() -> None:
    one, two = Pseudonyms("random", seed=5), Pseudonyms("random", seed=5)
    assert one.resource_id("Patient", "alice") == two.resource_id("Patient", "bob")


@pytest.mark.parametrize(
    "reference",
    ["Patient/abc", "https://fhir.example.org/r4/Patient/abc", "Patient/abc/_history/3"],
)
def test_literal_references_point_to_the_target_pseudonym(reference: str) -> None:
    ids = Pseudonyms("hmac", key=b"k" * 32)
    out = rewrite_reference(reference, ids)
    assert out is not None and out.endswith(f"Patient/{ids.resource_id('Patient', 'abc')}")
    assert "abc" not in out and "_history" not in out


def test_other_reference_forms() -> None:
    ids = Pseudonyms("hmac", key=b"k" * 32)
    urn = "urn:uuid:" + str(uuid.UUID(int=7))
    assert rewrite_reference(urn, ids) == f"urn:uuid:{ids.urn(str(uuid.UUID(int=7)))}"
    assert rewrite_reference("#contained-1", ids) == "#contained-1"
    assert rewrite_reference("Patient", ids) == "Patient"
    cond = "Practitioner?identifier=http://hl7.org/fhir/sid/us-npi|9999974592"
    assert (
        rewrite_reference(cond, ids, ("Practitioner", "p1"))
        == f"Practitioner/{ids.resource_id('Practitioner', 'p1')}"
    )
    unresolved = rewrite_reference(cond, ids)
    npi = "http://hl7.org/fhir/sid/us-npi"
    assert unresolved == f"Practitioner?identifier={npi}|{ids.value(npi, '9999974592')}"
    assert rewrite_reference(cond, Pseudonyms("random")) is None
    assert rewrite_reference("not a reference", ids) is None
    assert conditional_identifier("Patient?name=x&identifier=a|b") == ("Patient", "a", "b")
    assert conditional_identifier("Patient?identifier=b") == ("Patient", "", "b")
