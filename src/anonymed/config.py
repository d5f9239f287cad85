"""Pipeline configuration: built-in defaults < a privacy profile < a TOML file < command-line options.

``PipelineConfig`` holds what the user chose (in a file, on the command line, in Python) and the name of
a profile (``profiles``); its ``substitution`` is the result of laying the user's choices over the
profile's and the profile's over the built-in defaults (every label ``fake``). So changing the profile
of a configuration keeps the operators the user chose and takes the new profile's for the rest.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any

from anonymed.detect.known.detector import KnownParams
from anonymed.detect.known.rosters import read_roster
from anonymed.detect.lists import TermLists, read_lists
from anonymed.detect.registry import DEFAULT_DETECTORS, DETECTORS
from anonymed.errors import ConfigError
from anonymed.io.known import KnownFields
from anonymed.labels import Label, label_key
from anonymed.params import check_types
from anonymed.profiles import DEFAULT_PROFILE, Profile, load_profile
from anonymed.substitute.registry import DEFAULT_OPERATORS, OPERATORS
from anonymed.tomlfile import read_toml

LANGUAGES = ("en", "fr")
STAGES = ("detect", "substitute")


@dataclass(frozen=True)
class Substitution:
    """The substitution a configuration resolves to: an operator per label, parameters, budget."""

    profile: Profile
    operators: Mapping[Label, str]
    operator_params: Mapping[str, Mapping[str, Any]]
    epsilon: float | None
    epsilon_weights: Mapping[str, float]


@dataclass(frozen=True)
class PipelineConfig:
    """Everything a de-identification run needs to know; immutable and checked on creation.

    ``operators``, ``operator_params``, ``epsilon`` and ``epsilon_weights`` are the user's own choices;
    ``substitution`` lays them over the ``profile``'s.
    """

    lang: str = "en"
    detectors: tuple[str, ...] = DEFAULT_DETECTORS
    detector_params: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    high_recall: bool = False
    profile: str = DEFAULT_PROFILE
    operators: Mapping[Label, str] = field(default_factory=dict)
    operator_params: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    stages: tuple[str, ...] = STAGES
    seed: int | None = None
    patient_key: bytes | None = field(default=None, repr=False)
    epsilon: float | None = None
    epsilon_weights: Mapping[str, float] = field(default_factory=dict)
    #: record fields holding known identifiers ([known] fields, side_file, keep_fields)
    known: KnownFields = field(default_factory=KnownFields)
    #: the ``known`` detector's options and the site's roster ([known] typos, clinicians, places)
    known_detector: KnownParams = field(default_factory=KnownParams)
    #: allow and deny lists ([lists] allow, deny)
    lists: TermLists = field(default_factory=TermLists)

    def __post_init__(self) -> None:
        if self.lang not in LANGUAGES:
            raise ConfigError(f"unsupported language {self.lang!r}; expected one of {LANGUAGES}")
        for name in self.detectors:
            if name not in DETECTORS:
                raise ConfigError(f"unknown detector {name!r}; known: {sorted(DETECTORS)}")
        ops = {label_key(str(k), "operators"): v for k, v in self.operators.items()}
        object.__setattr__(self, "operators", MappingProxyType(ops))
        for label, name in self.substitution.operators.items():
            if name not in OPERATORS:
                raise ConfigError(
                    f"unknown operator {name!r} for label {label.value}; known: {sorted(OPERATORS)}"
                )
        object.__setattr__(self, "operator_params", MappingProxyType(dict(self.operator_params)))
        object.__setattr__(self, "detector_params", MappingProxyType(dict(self.detector_params)))
        given = dict(self.epsilon_weights)
        weights = {label_key(str(k), "epsilon_weights").value: float(v) for k, v in given.items()}
        for name, weight in weights.items():
            if not weight > 0:
                raise ConfigError(f"epsilon weight {name}={weight!r}: need a positive weight")
        object.__setattr__(self, "epsilon_weights", MappingProxyType(weights))
        for stage in self.stages:
            if stage not in STAGES:
                raise ConfigError(f"unknown stage {stage!r}; known: {STAGES}")
        if self.seed is not None and (isinstance(self.seed, bool) or not isinstance(self.seed, int)):
            raise ConfigError(f"seed must be an integer, got a {type(self.seed).__name__}")
        if self.epsilon is not None and not self.epsilon > 0:
            raise ConfigError(f"epsilon must be positive, got {self.epsilon!r}")
        self._check_site()

    def _check_site(self) -> None:
        """The types of the site's settings, and what the profile forbids of them."""
        for name, kind in (("known", KnownFields), ("known_detector", KnownParams), ("lists", TermLists)):
            if not isinstance(getattr(self, name), kind):
                raise ConfigError(f"{name} must be a {kind.__name__}")
        if self.known.keep_fields and self.substitution.profile.drop_known_fields:
            raise ConfigError(
                f"profile {self.profile!r} never writes the known fields out: [known] keep_fields is refused"
            )
        if "known" in self.detector_params:
            raise ConfigError("the known detector takes its options from the [known] table")
        custom = dict(self.detector_params.get("patterns", {})).get("custom")
        if custom:
            from anonymed.detect.custom import custom_patterns

            custom_patterns(custom)  # each regex checked for catastrophic backtracking now, not mid-run

    @cached_property
    def substitution(self) -> Substitution:
        """The user's substitution choices laid over the profile's, over the defaults (module docstring)."""
        profile = load_profile(self.profile)
        names = set(profile.operator_params) | set(self.operator_params)
        params = {
            name: MappingProxyType(
                {**profile.operator_params.get(name, {}), **self.operator_params.get(name, {})}
            )
            for name in names
        }
        return Substitution(
            profile=profile,
            operators=MappingProxyType({**DEFAULT_OPERATORS, **profile.operators, **self.operators}),
            operator_params=MappingProxyType(params),
            epsilon=self.epsilon if self.epsilon is not None else profile.epsilon,
            epsilon_weights=MappingProxyType({**profile.epsilon_weights, **self.epsilon_weights}),
        )

    def replace(self, **changes: Any) -> PipelineConfig:
        """A copy with some fields overridden (``None`` values are ignored)."""
        return dataclasses.replace(self, **{k: v for k, v in changes.items() if v is not None})

    @classmethod
    def from_toml(cls, path: Path, **overrides: Any) -> PipelineConfig:
        """Read the file's tables, then overrides; the files it names are relative to its folder."""
        return cls.from_mapping(read_toml(path), base=Path(path).parent).replace(**overrides)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, base: Path | None = None) -> PipelineConfig:
        """Build from a parsed TOML document (files named relative to ``base``); unknown keys are errors."""
        unknown = set(data) - set(TABLES)
        if unknown:
            raise ConfigError(f"unknown configuration tables {sorted(unknown)}; known: {sorted(TABLES)}")
        pipeline = dict(data.get("pipeline", {}))
        bad = set(pipeline) - set(PIPELINE_KEYS)
        if bad:
            raise ConfigError(f"unknown [pipeline] keys {sorted(bad)}; known: {sorted(PIPELINE_KEYS)}")
        for key in ("detectors", "stages"):
            if key in pipeline:
                pipeline[key] = tuple(pipeline[key])
        operators = {label_key(k, "[operators]"): v for k, v in dict(data.get("operators", {})).items()}
        return cls(
            **pipeline,
            operators=operators,
            operator_params=dict(data.get("operator_params", {})),
            detector_params=dict(data.get("detector_params", {})),
            epsilon_weights=dict(data.get("epsilon_weights", {})),
            **site_settings(data, base or Path()),
        )


#: the tables of the site's settings (docs/site-configuration.md)
SITE_TABLES = ("known", "lists")
#: every table of a configuration file; ``[hybrid]``, ``[words]`` and ``[sentences]`` are read by
#: ``methods/configure.py`` (docs/configuration.md)
TABLES = ("pipeline", "operators", "operator_params", "detector_params", "epsilon_weights", *SITE_TABLES,
          "hybrid", "words", "sentences")  # fmt: skip
#: the keys of the ``[pipeline]`` table
PIPELINE_KEYS = ("lang", "profile", "detectors", "high_recall", "seed", "epsilon", "stages")


def default_layer() -> dict[str, Any]:
    """The built-in defaults of the pipeline as a configuration document (the ``default`` layer)."""
    defaults = PipelineConfig()
    pipeline = {key: getattr(defaults, key) for key in PIPELINE_KEYS if getattr(defaults, key) is not None}
    return {"pipeline": pipeline, "operators": {label.value: op for label, op in DEFAULT_OPERATORS.items()}}


_KNOWN_KEYS = frozenset({"fields", "side_file", "side_key", "keep_fields", "typos", "clinicians", "places",
                         "roster_typos"})  # fmt: skip


def _paths(value: Any, where: str, base: Path) -> list[Path]:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
        raise ConfigError(f"{where} must be a file name or a list of file names")
    return [base / item for item in items]


def _path(value: Any, where: str, base: Path) -> Path | None:
    if value is not None and not isinstance(value, str):
        raise ConfigError(f"{where} must be a file name")
    return None if value is None else base / value


def site_settings(data: Mapping[str, Any], base: Path) -> dict[str, Any]:
    """The ``[known]`` and ``[lists]`` tables as ``PipelineConfig`` fields (files read, relative to
    ``base``)."""
    known = dict(data.get("known", {}))
    lists = dict(data.get("lists", {}))
    if set(known) - _KNOWN_KEYS or set(lists) - {"allow", "deny"}:
        raise ConfigError(
            f"unknown keys {sorted(set(known) - _KNOWN_KEYS)} in [known] (known: {sorted(_KNOWN_KEYS)}) "
            f"or {sorted(set(lists) - {'allow', 'deny'})} in [lists] (known: allow, deny)"
        )
    side = known.get("side_file")
    fields = KnownFields(
        fields=dict(known.get("fields", {})),
        side_file=None if side is None else str(base / side),
        side_key=str(known.get("side_key", "patient_id")),
        keep_fields=known.get("keep_fields", False) is True,
    )
    roster = read_roster(*(_path(known.get(key), f"[known] {key}", base) for key in ("clinicians", "places")))
    options = {key: known[key] for key in ("typos", "roster_typos") if key in known}
    detector = KnownParams(roster=roster, **options)
    check_types(detector, "[known]")
    allow = _paths(lists.get("allow", []), "[lists] allow", base)
    deny = _paths(lists.get("deny", []), "[lists] deny", base)
    return {"known": fields, "known_detector": detector, "lists": read_lists(allow, deny)}
