"""Privacy profiles: named bundles of substitution choices, declared as data (``resources/profiles/*.toml``).

A profile file has the tables of a configuration file that concern substitution: ``[operators]``,
``[operator_params.NAME]``, ``[epsilon_weights]`` and, in ``[pipeline]``, ``epsilon``; plus a
``[profile]`` table with its ``description`` and, optionally, the ``checklist`` the run summary shows.
A configuration names its profile (``[pipeline] profile``, ``--profile``, the service's ``profile``
field); what the configuration sets itself overrides the profile, which overrides the built-in defaults
(every label ``fake``). Profiles are documented in docs/profiles.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from types import MappingProxyType
from typing import Any, Final

from anonymed.errors import ConfigError
from anonymed.labels import Label, label_key
from anonymed.tomlfile import read_toml

#: the profile used when none is named: realistic, patient-consistent surrogates, dates never kept
DEFAULT_PROFILE: Final = "pseudonymise"
_TABLES: Final = frozenset({"profile", "pipeline", "operators", "operator_params", "epsilon_weights"})
_PIPELINE_KEYS: Final = frozenset({"epsilon"})


@dataclass(frozen=True)
class Profile:
    """One profile: its operators per label, their parameters, and the document budget if any."""

    name: str
    description: str
    operators: Mapping[Label, str]
    operator_params: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    epsilon: float | None = None
    epsilon_weights: Mapping[str, float] = field(default_factory=dict)
    checklist: str | None = None
    #: the record fields mapped to known identifiers are never written out, even if the user asks
    drop_known_fields: bool = False

    def layer(self) -> dict[str, Any]:
        """The profile's choices as a configuration document (the ``profile`` layer of a configuration)."""
        pipeline = {} if self.epsilon is None else {"epsilon": self.epsilon}
        return {
            "pipeline": pipeline,
            "operators": {label.value: name for label, name in self.operators.items()},
            "operator_params": {name: dict(params) for name, params in self.operator_params.items()},
            "epsilon_weights": dict(self.epsilon_weights),
        }


def _folder() -> Traversable:
    return resources.files("anonymed").joinpath("resources", "profiles")


@cache
def profile_names() -> tuple[str, ...]:
    """The names of the shipped profiles, sorted."""
    return tuple(
        sorted(p.name.removesuffix(".toml") for p in _folder().iterdir() if p.name.endswith(".toml"))
    )


@cache
def load_profile(name: str) -> Profile:
    """The shipped profile ``name`` (read once per process); ``ConfigError`` naming the known ones."""
    if name not in profile_names():
        raise ConfigError(f"unknown profile {name!r}; known: {list(profile_names())}")
    return profile_from_mapping(name, read_toml(_folder().joinpath(f"{name}.toml")))


def profile_from_mapping(name: str, data: Mapping[str, Any]) -> Profile:
    """Build a profile from a parsed TOML document; unknown tables, keys and labels are errors."""
    unknown = set(data) - _TABLES
    pipeline = dict(data.get("pipeline", {}))
    if unknown or set(pipeline) - _PIPELINE_KEYS:
        raise ConfigError(
            f"profile {name!r}: unknown tables {sorted(unknown)} or [pipeline] keys "
            f"{sorted(set(pipeline) - _PIPELINE_KEYS)}; profiles hold substitution choices only"
        )
    operators: dict[Label, str] = {}
    for label, operator in dict(data.get("operators", {})).items():
        operators[label_key(label, f"profile {name!r} [operators]")] = str(operator)
    about = dict(data.get("profile", {}))
    return Profile(
        name=name,
        description=str(about.get("description", "")),
        operators=MappingProxyType(operators),
        operator_params=MappingProxyType(
            {op: MappingProxyType(dict(p)) for op, p in dict(data.get("operator_params", {})).items()}
        ),
        epsilon=None if pipeline.get("epsilon") is None else float(pipeline["epsilon"]),
        epsilon_weights=MappingProxyType(dict(data.get("epsilon_weights", {}))),
        checklist=about.get("checklist"),
        drop_known_fields=bool(about.get("drop_known_fields", False)),
    )
