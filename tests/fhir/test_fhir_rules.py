"""The rules table: matching, specificity, parsing errors, and the shipped profiles' guarantees."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from anonymed.errors import ConfigError
from anonymed.fhir.rules import ACTIONS, RuleTable, load_rules, parse_table, shipped_profiles
from anonymed.profiles import DEFAULT_PROFILE, profile_names

PROFILE = {"name": "pseudonymise"}


def parse(data: dict[str, object]) -> RuleTable:
    """A table of the default profile with ``data``'s tables."""
    return parse_table({"profile": PROFILE, **data}, "t")


def test_most_specific_rule_wins_whatever_the_order() -> None:
    t = parse({"rules": {"**.display": "remove", "**.coding.display": "keep"}})
    assert t.action(("Encounter", "type", "coding", "display")) == "keep"
    assert t.action(("Encounter", "subject", "display")) == "remove"
    swapped = parse({"rules": {"**.coding.display": "keep", "**.display": "remove"}})
    assert swapped.action(("Encounter", "type", "coding", "display")) == "keep"


def test_globs_and_double_star() -> None:
    t = parse({"rules": {"**.*DateTime": "shift", "Patient.**": "remove", "*.id": "id"}})
    assert t.action(("Condition", "onsetDateTime")) == "shift"
    assert t.action(("Condition", "stage", "assessmentDateTime")) == "shift"
    assert t.action(("Patient", "name", "given")) == "remove"
    assert t.action(("Condition", "id")) == "id"
    assert t.action(("Condition", "code", "id")) is None  # ``*.id`` is a resource's own id only
    assert t.action(("Condition", "code")) is None


def test_literal_beats_glob_beats_wildcard() -> None:
    t = parse({"rules": {"*.birthDate": "year", "**.*Date": "shift", "Patient.birthDate": "remove"}})
    assert t.action(("Patient", "birthDate")) == "remove"
    assert t.action(("RelatedPerson", "birthDate")) == "year"
    assert t.action(("Device", "manufactureDate")) == "shift"


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({"rules": {"Patient.name": "hash"}}, "unknown action 'hash'"),
        ({"extensions": {"http://x": "zip3"}}, "unknown action 'zip3'"),
        ({"modifier_extensions": {"http://x": "text"}}, "unknown action 'text'"),
        ({"profile": {"name": "pseudonymise", "ids": "md5"}}, "ids must be one of"),
        ({"profile": {"name": "pseudonymisation"}}, "the privacy profile it belongs to"),
        ({"profile": {}}, "the privacy profile it belongs to"),
        ({"date_shift": {"min_days": 1}}, "[operator_params.date_shift]"),
        ({"text": {"dates": "year"}}, "[text] holds reference_dates only"),
        ({"rulez": {}}, "unknown tables"),
    ],
)
def test_bad_tables_are_refused_with_the_bad_value_named(data: dict[str, object], fragment: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(fragment)):
        parse_table({"profile": PROFILE, **data}, "t")


def test_shipped_tables_are_named_after_their_profiles_and_every_action_is_documented() -> None:
    assert shipped_profiles() == ["dp", "hipaa-safe-harbor", "pseudonymise"]
    assert set(shipped_profiles()) == set(profile_names())  # every profile ships its table
    for name in shipped_profiles():
        t = load_rules(name)
        assert t.name == name
        assert {rule.action for rule in t.rules} <= set(ACTIONS)
    assert load_rules().name == DEFAULT_PROFILE


def test_a_table_of_your_own_must_belong_to_the_runs_profile(tmp_path: Path) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text('[profile]\nname = "hipaa-safe-harbor"\nids = "random"\nsafe_harbor = true\n')
    assert load_rules("hipaa-safe-harbor", mine).safe_harbor
    with pytest.raises(ConfigError, match=r"belongs to profile 'hipaa-safe-harbor'.*--profile hipaa-safe"):
        load_rules("pseudonymise", mine)


def test_unknown_profile_and_missing_file_are_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"no FHIR rules table for profile 'nope'.*--rules"):
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
    assert sh.safe_harbor and sh.ids == "random"
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
    assert sh.action(("Patient", "birthDate")) == "year"
    assert sh.action(("Condition", "onsetAge")) == "age"
    assert sh.action(("Patient", "address", "postalCode")) == "zip3"
    assert sh.action(("Encounter", "period")) == "year"
    assert sh.action(("Observation", "issued")) == "remove"  # an instant cannot hold a year alone
    default = load_rules("pseudonymise")
    assert not default.safe_harbor and default.ids == "hmac"
    assert default.action(("Encounter", "period")) == "shift"


@pytest.mark.parametrize(
    "data",
    [
        {"rules": {"**.period": "shift"}},
        {"rules": {"**.identifier.value": "pseudonym"}},
        {"extensions": {"http://x": "shift"}},
        {"profile": {"name": "hipaa-safe-harbor", "safe_harbor": True, "ids": "hmac"}},
    ],
)
def test_a_table_claiming_safe_harbor_may_not_shift_or_derive_codes(data: dict[str, object]) -> None:
    base: dict[str, object] = {"profile": {"name": "hipaa-safe-harbor", "safe_harbor": True, "ids": "random"}}
    with pytest.raises(ConfigError, match="claims Safe Harbor"):
        parse_table({**base, **data}, "t")
    assert parse_table(base, "t").safe_harbor


def test_dp_table_generalises_dates_and_claims_neither_safe_harbor_nor_a_timeline() -> None:
    """The dp table keeps years alone (no per-patient shift, which the notes' DP dates around the true dates
    would give away), pseudonymises ids and identifiers (HMAC, as the SQL path's patient column) and removes
    what the other tables remove."""
    dp = load_rules("dp")
    assert dp.name == "dp" and not dp.safe_harbor and dp.ids == "hmac"
    assert not dp.shifts_dates and load_rules("pseudonymise").shifts_dates
    assert not load_rules("hipaa-safe-harbor").shifts_dates
    sh = load_rules("hipaa-safe-harbor")
    for path in [
        ("Patient", "birthDate"),
        ("Encounter", "period"),
        ("Condition", "onsetDateTime"),
        ("Observation", "issued"),
        ("DocumentReference", "date"),
        ("Patient", "address", "postalCode"),
        ("Patient", "address", "city"),
        ("Patient", "name"),
        ("Patient", "telecom"),
        ("Condition", "onsetAge"),
        ("Bundle", "timestamp"),
    ]:
        assert dp.action(path) == sh.action(path), path  # dates, places and people as under Safe Harbor
    assert dp.action(("Patient", "identifier", "value")) == "pseudonym"
    assert dp.action(("DocumentReference", "masterIdentifier", "value")) == "pseudonym"
    assert dp.action(("Organization", "name")) == "remove"  # dp_location may draw the place back
    assert dp.action(("Location", "name")) == "remove"
    assert dp.action(("Observation", "note", "text")) == "text"  # free text meets the profile's operators
    with pytest.raises(ConfigError, match="claims Safe Harbor"):  # it could not claim it
        parse_table({"profile": {"name": "dp", "ids": "hmac", "safe_harbor": True},
                     "rules": {"**.identifier.value": "pseudonym"}}, "t")  # fmt: skip
