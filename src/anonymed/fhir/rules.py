"""The rules table of the FHIR structured pass: for each element path, what happens to its values.

A table is a TOML file (the shipped ones are in ``anonymed/resources/fhir/``, one per privacy profile,
named like it). It belongs to one profile (``[profile] name``): a run takes the table of its profile,
and the profile's operators scrub the notes. Its ``[rules]`` table maps element paths to actions; paths
are dotted FHIR element names from the resource type, arrays being transparent
(``Patient.name.given``). A segment may be ``*`` (any one element name), a glob (``*DateTime``) or
``**`` (any number of elements, none included).

Which rule applies to a value: the rule naming its own path, else the rule of its nearest enclosing
element (a rule on ``Patient.address`` applies to every value under it that no deeper rule names). Among
rules naming the same path, the one with more literal segments wins, then more glob segments, then
fewer ``**``, then the one written first. ``remove`` on an element removes it whole, whatever deeper
rules say. A value no rule reaches is removed and counted (deny by default).

Extensions are looked up by ``url`` in ``[extensions]`` (unknown ones are removed and counted) and
modifier extensions in ``[modifier_extensions]`` (an unknown one quarantines its resource).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from importlib import resources
from pathlib import Path
from typing import Any, Final

from anonymed.errors import ConfigError
from anonymed.profiles import DEFAULT_PROFILE, profile_names

#: action -> what it does (the documentation of the table format; docs/fhir.md repeats it)
ACTIONS: Final[Mapping[str, str]] = {
    "keep": "copy the value unchanged",
    "remove": "drop the element (and everything under it)",
    "id": "replace a resource id with its pseudonym (HMAC or random, per [profile] ids)",
    "pseudonym": "replace a business identifier value with its pseudonym (keyed by its system)",
    "reference": "rewrite a reference so that it points to the pseudonymised target",
    "shift": "move a date by the patient's shift (precision and time kept); remove it if 90+ years old",
    "year": "keep only the year of a date; remove a date 90 or more years before --as-of",
    "age": "keep an Age up to 89 years; above, 90 with the comparator >= (age_over89's category)",
    "zip3": "a US ZIP code to its first three digits, the rest * (000 for restricted areas); else remove",
    "text": "scrub a string with the text pipeline (a Document with the patient's id and identifiers)",
    "narrative": "scrub an XHTML narrative (text and attributes) as one text with an offset map",
    "attachment": "decode, scrub and re-encode an Attachment; recompute hash and size, or drop data",
}
#: actions that apply to an element holding an object (the others apply to the values under it)
CONTAINER_ACTIONS: Final = frozenset({"remove", "attachment", "age"})
#: what an extension rule may say (``keep``: the whole extension; the others act on its ``value[x]``)
EXTENSION_ACTIONS: Final = frozenset({"keep", "remove", "shift", "year", "text", "pseudonym"})
PROFILES_DIR: Final = "fhir"
ID_SCHEMES: Final = ("hmac", "random")


@dataclass(frozen=True)
class Rule:
    """One ``path = action`` line, with its precomputed specificity."""

    pattern: tuple[str, ...]
    action: str
    order: int

    @property
    def rank(self) -> tuple[int, int, int, int]:
        """Higher wins: literal segments, glob segments, fewer ``**``, written earlier."""
        literal = sum(1 for s in self.pattern if not _is_glob(s))
        globs = sum(1 for s in self.pattern if _is_glob(s) and s not in ("*", "**"))
        return (literal, globs, -self.pattern.count("**"), -self.order)


def _is_glob(segment: str) -> bool:
    return any(ch in segment for ch in "*?[")


def _matches(pattern: tuple[str, ...], path: tuple[str, ...]) -> bool:
    """Whether ``pattern`` names exactly ``path`` (``**`` spans zero or more segments)."""
    if not pattern:
        return not path
    head, rest = pattern[0], pattern[1:]
    if head == "**":
        return any(_matches(rest, path[i:]) for i in range(len(path) + 1))
    return bool(path) and fnmatchcase(path[0], head) and _matches(rest, path[1:])


@dataclass(frozen=True)
class RuleTable:
    """A parsed rules table: element rules, extension rules and the profile's settings."""

    name: str
    rules: tuple[Rule, ...]
    extensions: Mapping[str, str]
    modifier_extensions: Mapping[str, str]
    ids: str = "hmac"
    safe_harbor: bool = False
    patient_elements: tuple[str, ...] = ("subject", "patient")
    reference_dates: tuple[str, ...] = ()
    _cache: dict[tuple[str, ...], str | None] = field(default_factory=dict, compare=False, repr=False)

    def action(self, path: tuple[str, ...]) -> str | None:
        """The action of the best rule naming exactly ``path``, or None (memoised: paths repeat)."""
        try:
            return self._cache[path]
        except KeyError:
            pass
        best: Rule | None = None
        for rule in self.rules:
            if _matches(rule.pattern, path) and (best is None or rule.rank > best.rank):
                best = rule
        found = self._cache[path] = None if best is None else best.action
        return found

    @property
    def shifts_dates(self) -> bool:
        """Whether the table keeps timelines (some rule or extension rule says ``shift``); else dates keep
        their year at most (the Safe Harbor and dp tables): the rule of a SQL run's date column too."""
        return any(rule.action == "shift" for rule in self.rules) or "shift" in self.extensions.values()

    def extension_action(self, url: str, *, modifier: bool = False) -> str | None:
        """The action for an extension ``url`` (None: unknown)."""
        return (self.modifier_extensions if modifier else self.extensions).get(url)


def _str_tuple(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where} must be a list of strings")
    return tuple(value)


def _checked(
    actions: Mapping[str, Any], allowed: frozenset[str] | Mapping[str, str], where: str
) -> dict[str, str]:
    for key, action in actions.items():
        if action not in allowed:
            raise ConfigError(f"{where}: unknown action {action!r} for {key!r}; known: {sorted(allowed)}")
    return dict(actions)


def parse_table(data: Mapping[str, Any], name: str) -> RuleTable:
    """Build a ``RuleTable`` from a parsed TOML document; unknown tables, keys and actions are errors."""
    known = {"profile", "patient", "text", "rules", "extensions", "modifier_extensions"}
    if set(data) - known:
        raise ConfigError(
            f"rules table {name!r}: unknown tables {sorted(set(data) - known)}; the shift sizes and the "
            "notes' operators are the privacy profile's ([operator_params.date_shift], [operators])"
        )
    profile = dict(data.get("profile", {}))
    if profile.get("name") not in profile_names():
        raise ConfigError(
            f"rules table {name!r}: [profile] name must be the privacy profile it belongs to, one of "
            f"{list(profile_names())}, got {profile.get('name')!r}"
        )
    ids = profile.get("ids", "hmac")
    if ids not in ID_SCHEMES:
        raise ConfigError(f"rules table {name!r}: [profile] ids must be one of {ID_SCHEMES}, got {ids!r}")
    text = dict(data.get("text", {}))
    if set(text) - {"reference_dates"}:
        raise ConfigError(f"rules table {name!r}: [text] holds reference_dates only")
    rules = tuple(
        Rule(tuple(path.split(".")), action, order)
        for order, (path, action) in enumerate(_checked(data.get("rules", {}), ACTIONS, "[rules]").items())
    )
    table = RuleTable(
        name=str(profile["name"]),
        rules=rules,
        extensions=_checked(data.get("extensions", {}), EXTENSION_ACTIONS, "[extensions]"),
        modifier_extensions=_checked(
            data.get("modifier_extensions", {}), frozenset({"keep", "remove"}), "[modifier_extensions]"
        ),
        ids=ids,
        safe_harbor=bool(profile.get("safe_harbor", False)),
        patient_elements=_str_tuple(
            dict(data.get("patient", {})).get("references", ["subject", "patient"]), "[patient] references"
        ),
        reference_dates=_str_tuple(text.get("reference_dates", []), "[text] reference_dates"),
    )
    if table.safe_harbor:
        _check_safe_harbor(table)
    return table


#: what a table may not do if it claims Safe Harbor: derived codes and moved dates are pseudonymisation
_NOT_SAFE_HARBOR: Final = frozenset({"shift", "pseudonym"})


def _check_safe_harbor(table: RuleTable) -> None:
    """Refuse a table that claims Safe Harbor but keeps more than years or derives codes from identifiers."""
    used = {rule.action for rule in table.rules} | set(table.extensions.values())
    if used & _NOT_SAFE_HARBOR or table.ids != "random":
        raise ConfigError(
            f"rules table {table.name!r} claims Safe Harbor but uses {sorted(used & _NOT_SAFE_HARBOR)}, "
            f"ids={table.ids!r}: Safe Harbor keeps years alone (no shift), removes identifiers (no HMAC "
            "pseudonyms) and needs ids='random'"
        )


def shipped_profiles() -> list[str]:
    """The names of the rules tables shipped with anonymed."""
    folder = resources.files("anonymed").joinpath("resources", PROFILES_DIR)
    return sorted(p.name[: -len(".toml")] for p in folder.iterdir() if p.name.endswith(".toml"))


def load_rules(profile: str = DEFAULT_PROFILE, path: Path | None = None) -> RuleTable:
    """The rules table in ``path``, else the shipped table of ``profile``; it must belong to ``profile``."""
    if path is not None:
        source, name = path.read_text(encoding="utf-8") if path.exists() else None, path.name
        if source is None:
            raise ConfigError(f"rules table not found: {str(path)!r}")
    else:
        name = profile
        if name not in shipped_profiles():
            raise ConfigError(
                f"no FHIR rules table for profile {name!r}; shipped for {shipped_profiles()}; "
                "give one of your own with --rules"
            )
        file = resources.files("anonymed").joinpath("resources", PROFILES_DIR, f"{name}.toml")
        source = file.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(source)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"cannot read rules table {name!r}: {exc}") from None
    table = parse_table(data, name)
    if table.name != profile:
        raise ConfigError(
            f"rules table {name!r} belongs to profile {table.name!r}, the run's profile is {profile!r}: "
            f"choose it with --profile {table.name}"
        )
    return table
