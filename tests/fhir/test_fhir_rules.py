"""The rules table: matching, specificity, parsing errors, and the shipped profiles' guarantees."""

from __future__ import annotations

from pathlib import Path

import pytest

from anonymed.errors import ConfigError
from anonymed.fhir.rules import ACTIONS, load_rules, parse_table, shipped_profiles


def table(rules: dict[str, str], **extra: object) -> object:
    return parse_table({"rules": rules, **extra}, "test")


def test_most_specific_rule_wins_whatever_the_order() -> None:
    t = parse_table({"rules": {"**.display": "remove", "**.coding.display": "keep"}}, "t")
    assert t.action(("Encounter", "type", "coding", "display")) == "keep"
    assert t.action(("Encounter", "subject", "display")) == "remove"
    swapped = parse_table({"rules": {"**.coding.display": "keep", "**.display": "remove"}}, "t")
    assert swapped.action(("Encounter", "type", "coding", "display")) == "keep"


def test_globs_and_double_star() -> None:
    t = parse_table({"rules": {"**.*DateTime": "shift", "Patient.**": "remove", "*.id": "id"}}, "t")
    assert t.action(("Condition", "onsetDateTime")) == "shift"
    assert t.action(("Condition", "stage", "assessmentDateTime")) == "shift"
    assert t.action(("Patient", "name", "given")) == "remove"
    assert t.action(("Condition", "id")) == "id"
    assert t.action(("Condition", "code", "id")) is None  # ``*.id`` is a resource's own id only
    assert t.action(("Condition", "code")) is None


def test_literal_beats_glob_beats_wildcard() -> None:
    t = parse_table(
        {"rules": {"*.birthDate": "year", "**.*Date": "shift", "Patient.birthDate": "birth_year"}}, "t"
    )
    assert t.action(("Patient", "birthDate")) == "birth_year"
    assert t.action(("RelatedPerson", "birthDate")) == "year"
    assert t.action(("Device", "manufactureDate")) == "shift"


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({"rules": {"Patient.name": "hash"}}, "unknown action 'hash'"),
        ({"extensions": {"http://x": "zip3"}}, "unknown action 'zip3'"),
        ({"modifier_extensions": {"http://x": "text"}}, "unknown action 'text'"),
        ({"profile": {"ids": "md5"}}, "ids must be one of"),
        ({"date_shift": {"min_days": 0}}, "min_days"),
        ({"text": {"dates": "noise"}}, "[text] dates"),
        ({"rulez": {}}, "unknown tables"),
    ],
)
def test_bad_tables_are_refused_with_the_bad_value_named(data: dict[str, object], fragment: str) -> None:
    with pytest.raises(ConfigError, match=__import__("re").escape(fragment)):
        parse_table(data, "t")


def test_shipped_profiles_parse_and_every_action_is_documented() -> None:
    assert shipped_profiles() == ["hipaa-safe-harbor", "pseudonymisation"]
    for name in shipped_profiles():
        t = load_rules(name)
        assert t.name == name
        assert {rule.action for rule in t.rules} <= set(ACTIONS)
    assert load_rules(None).name == "pseudonymisation"


def test_unknown_profile_and_missing_file_are_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no FHIR rules table for profile 'nope'"):
        load_rules("nope")
    with pytest.raises(ConfigError, match="not found"):
        load_rules(path=tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[rules\n")
    with pytest.raises(ConfigError, match="cannot read rules table"):
        load_rules(path=bad)


def test_safe_harbor_table_keeps_years_alone_and_derives_nothing_from_identifiers() -> None:
    sh = load_rules("hipaa-safe-harbor")
    actions = {rule.action for rule in sh.rules}
    assert sh.safe_harbor and sh.ids == "random" and sh.text.dates == "year"
    assert not actions & {"shift", "pseudonym"}  # shifted dates and HMAC pseudonyms are not Safe Harbor
    for path in [
        ("Patient", "name"),
        ("Patient", "telecom"),
        ("Patient", "address", "line"),
        ("Patient", "address", "city"),
        ("Patient", "identifier"),
        ("Patient", "photo"),
        ("Device", "serialNumber"),
        ("Device", "udiCarrier"),
        ("Location", "position"),
        ("RelatedPerson", "name"),
        ("Patient", "contact", "name"),
    ]:
        assert sh.action(path) == "remove", path
    assert sh.action(("Patient", "birthDate")) == "birth_year"
    assert sh.action(("Patient", "address", "postalCode")) == "zip3"
    assert sh.action(("Encounter", "period")) == "year"
    assert sh.action(("Observation", "issued")) == "remove"  # an instant cannot hold a year alone
    default = load_rules("pseudonymisation")
    assert not default.safe_harbor and default.ids == "hmac" and default.text.dates == "shift"
    assert default.action(("Encounter", "period")) == "shift"


@pytest.mark.parametrize(
    "data",
    [
        {"rules": {"**.period": "shift"}},
        {"rules": {"**.identifier.value": "pseudonym"}},
        {"extensions": {"http://x": "shift"}},
        {"profile": {"safe_harbor": True, "ids": "hmac"}},
        {"text": {"dates": "shift"}},
    ],
)
def test_a_table_claiming_safe_harbor_may_not_shift_or_derive_codes(data: dict[str, object]) -> None:
    base: dict[str, object] = {"profile": {"safe_harbor": True, "ids": "random"}, "text": {"dates": "year"}}
    with pytest.raises(ConfigError, match="claims Safe Harbor"):
        parse_table({**base, **data}, "t")
    assert parse_table(base, "t").safe_harbor
