"""The configuration options every command that runs the pipeline shares, declared once.

``configured(*groups)`` adds the options of ``groups`` (``PIPELINE``, ``DETECTION``, ``HYBRID``) to a
command and hands the command a ``Choices``: the configuration file and the options the user typed. An
option left at its default is not typed, so it never overrides the file (click's parameter source), while
its help still shows the built-in default. Precedence: docs/configuration.md.
"""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from anonymed.config import PipelineConfig
from anonymed.errors import ConfigError
from anonymed.labels import label_key
from anonymed.methods.configure import Configured, configure, hybrid_defaults
from anonymed.profiles import DEFAULT_PROFILE, profile_names

SEED_HELP = (
    "Seed: the same input and options give the same output (for anyone who knows the seed). "
    "Noise of the differentially private operators (dp_*) comes from OpenDP and cannot be seeded."
)
_DEFAULTS = PipelineConfig()
_HYBRID = hybrid_defaults()


def _option(name: str, annotation: Any, default: Any) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


CONFIG = _option(
    "config",
    Annotated[Path | None, typer.Option("--config", help="TOML configuration file (docs/configuration.md).")],
    None,
)
LANG = _option("lang", Annotated[str, typer.Option("--lang", help="Language of the notes: en or fr.")], "en")
DETECTORS = _option(
    "detectors",
    Annotated[str, typer.Option("--detectors", metavar="NAMES", help="Comma-separated detector names.")],
    ",".join(_DEFAULTS.detectors),
)
HIGH_RECALL = _option(
    "high_recall",
    Annotated[
        bool,
        typer.Option(
            "--high-recall/--no-high-recall",
            help="Lower thresholds and more context rules in every detector.",
        ),
    ],
    False,
)
ALLOW = _option(
    "allow_list",
    Annotated[
        list[Path] | None,
        typer.Option(
            "--allow-list",
            metavar="FILE",
            help="Terms never flagged (CSV term,label,match,case or .txt); repeatable.",
        ),
    ],
    None,
)
DENY = _option(
    "deny_list",
    Annotated[
        list[Path] | None,
        typer.Option(
            "--deny-list", metavar="FILE", help="Terms always flagged (CSV with labels); repeatable."
        ),
    ],
    None,
)
KNOWN_FIELD = _option(
    "known_field",
    Annotated[
        list[str] | None,
        typer.Option(
            "--known-field",
            metavar="FIELD=KIND",
            help="FIELD=KIND: a record field holding a known identifier; repeatable.",
        ),
    ],
    None,
)
KNOWN_SIDE = _option(
    "known_side_file",
    Annotated[
        Path | None,
        typer.Option(
            "--known-side-file",
            metavar="FILE",
            help="Known identifiers by patient id (CSV or JSONL; a patient memory from detect --memory).",
        ),
    ],
    None,
)
PROFILE = _option(
    "profile",
    Annotated[
        str,
        typer.Option("--profile", help=f"Privacy profile: {', '.join(profile_names())} (docs/profiles.md)."),
    ],
    DEFAULT_PROFILE,
)
SEED = _option("seed", Annotated[int | None, typer.Option("--seed", help=SEED_HELP)], None)
OPERATOR = _option(
    "operator",
    Annotated[
        list[str] | None,
        typer.Option(
            "--operator",
            metavar="LABEL=OPERATOR",
            help="LABEL=OPERATOR over the profile's (NAME=tag); repeatable.",
        ),
    ],
    None,
)
EPSILON = _option(
    "epsilon",
    Annotated[
        float | None, typer.Option("--epsilon", help="Per-document privacy budget for the dp_* operators.")
    ],
    None,
)
EPSILON_WEIGHT = _option(
    "epsilon_weight",
    Annotated[
        list[str] | None,
        typer.Option(
            "--epsilon-weight", metavar="LABEL=WEIGHT", help="LABEL=WEIGHT budget share; repeatable."
        ),
    ],
    None,
)
THEN = _option(
    "then",
    Annotated[str, typer.Option("--then", help="The second stage: sentences | words.")],
    _HYBRID["then"],
)
K = _option(
    "k", Annotated[int, typer.Option("--k", help="Sentences: draw from the k nearest (>= 2).")], _HYBRID["k"]
)
N = _option(
    "n",
    Annotated[str, typer.Option("--n", help="Words: degree of obfuscation, 5 or a range 3-14.")],
    _HYBRID["n"],
)
BANK = _option(
    "bank",
    Annotated[Path | None, typer.Option("--bank", help="Sentences: bank folder (default: the shipped one).")],
    None,
)
SPACE = _option(
    "space",
    Annotated[Path | None, typer.Option("--space", help="Words: space folder (default: the shipped one).")],
    None,
)

#: what detection reads: ``anonymed detect``, ``anonymed review sample``
DETECTION = (CONFIG, LANG, DETECTORS, HIGH_RECALL, ALLOW, DENY, KNOWN_FIELD, KNOWN_SIDE)
#: every option of the detect-and-replace pipeline: ``deid``, ``demo``, ``obfuscate hybrid``, ``config show``
PIPELINE = (*DETECTION, PROFILE, SEED, OPERATOR, EPSILON, EPSILON_WEIGHT)
#: the second stage of ``obfuscate hybrid``
HYBRID = (THEN, K, N, BANK, SPACE)
#: option name -> the key of the configuration file it overrides
KEYS: Mapping[str, tuple[str, ...]] = {
    "lang": ("pipeline", "lang"),
    "profile": ("pipeline", "profile"),
    "seed": ("pipeline", "seed"),
    "epsilon": ("pipeline", "epsilon"),
    "high_recall": ("pipeline", "high_recall"),
    "detectors": ("pipeline", "detectors"),
    "operator": ("operators",),
    "epsilon_weight": ("epsilon_weights",),
    "known_field": ("known", "fields"),
    "known_side_file": ("known", "side_file"),
    "allow_list": ("lists", "allow"),
    "deny_list": ("lists", "deny"),
}
#: the options of a second stage: keys of the command's table (``[hybrid]``, ``[words]``, ``[sentences]``)
STAGE_OPTIONS = ("then", "k", "n", "bank", "space")
#: ``obfuscate words`` and ``obfuscate sentences``: their table's options and the seed
WORDS = (CONFIG, SEED, N, SPACE)
SENTENCES = (CONFIG, SEED, K, BANK)


def parse_operators(values: Sequence[str] | None) -> dict[str, str]:
    """``["NAME=tag", "DATE=dp_date"]`` -> {"NAME": "tag", ...} (labels checked)."""
    chosen: dict[str, str] = {}
    for value in values or []:
        label, sep, name = value.partition("=")
        if not sep:
            raise ConfigError(f"--operator expects LABEL=OPERATOR, got {value!r}")
        chosen[label_key(label, "--operator").value] = name
    return chosen


def parse_weights(values: Sequence[str] | None) -> dict[str, float] | None:
    """``["LOCATION=2"]`` -> {"LOCATION": 2.0}; None when no weight is given."""
    weights: dict[str, float] = {}
    for value in values or []:
        label, sep, number = value.partition("=")
        try:
            weights[label.upper()] = float(number)
        except ValueError:
            sep = ""
        if not sep:
            raise ConfigError(f"--epsilon-weight expects LABEL=NUMBER, got {value!r}")
    return weights or None


def parse_known_fields(values: Sequence[str] | None) -> dict[str, str] | None:
    """``["patient_name=NAME/patient"]`` -> {"patient_name": "NAME/patient"}; None when none is given."""
    fields: dict[str, str] = {}
    for value in values or []:
        name, sep, kind = value.partition("=")
        if not sep or not name.strip() or not kind.strip():
            raise ConfigError(f"--known-field expects FIELD=KIND (patient_name=NAME/patient), got {value!r}")
        fields[name.strip()] = kind.strip()
    return fields or None


def _value(name: str, value: Any) -> Any:
    """An option's value as the configuration file writes it."""
    if name == "detectors":
        return [item.strip() for item in str(value).split(",") if item.strip()]
    if name == "operator":
        return parse_operators(value)
    if name == "epsilon_weight":
        return parse_weights(value)
    if name == "known_field":
        return parse_known_fields(value)
    if name in ("allow_list", "deny_list"):
        return [os.path.abspath(path) for path in value]
    if name in ("bank", "space", "known_side_file"):
        return os.path.abspath(value)
    return value


def option_layer(typed: Mapping[str, Any], stage: str = "hybrid") -> dict[str, Any]:
    """The options the user typed as a configuration document (file names absolute); the second stage's
    options (``--n``, ``--k``...) set keys of the ``stage`` table."""
    document: dict[str, Any] = {}
    for name, value in typed.items():
        converted = _value(name, value)
        key_of = (stage, name) if name in STAGE_OPTIONS else KEYS.get(name)
        if converted is None or key_of is None:
            continue
        *tables, key = key_of
        node = document
        for table in tables:
            node = node.setdefault(table, {})
        if isinstance(converted, dict) and isinstance(node.get(key), dict):
            node[key].update(converted)
        else:
            node[key] = converted
    return document


@dataclass(frozen=True)
class Choices:
    """A command's configuration file and the configuration options the user typed."""

    config: Path | None
    typed: Mapping[str, Any]
    #: the table the second stage's options set (``hybrid``, ``words``, ``sentences``)
    stage: str = "hybrid"

    def configured(self) -> Configured:
        """The effective configuration: defaults < profile < the file < these options."""
        return configure(self.config, option_layer(self.typed, self.stage))


#: the name of the click context the wrapped command receives (Typer passes it by its annotation)
_CONTEXT = "anonymed_click_context"
#: the parameter sources (by name: Typer's click may not be the installed click) of a value the user gave
_GIVEN = frozenset({"COMMANDLINE", "ENVIRONMENT", "PROMPT"})


def _given(ctx: typer.Context, name: str) -> bool:
    source = ctx.get_parameter_source(name)
    return source is not None and source.name in _GIVEN


def configured(
    *groups: Sequence[inspect.Parameter], stage: str = "hybrid"
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Add the options of ``groups`` to a command, which receives them as ``choices: Choices``
    (``stage``: the table its ``--n``, ``--k``, ``--bank``, ``--space`` set)."""
    extra = {param.name: param for group in groups for param in group}

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        signature = inspect.signature(func, eval_str=True)
        kept = [param for param in signature.parameters.values() if param.name != "choices"]

        @functools.wraps(func)
        def command(**kwargs: Any) -> Any:
            ctx: typer.Context = kwargs.pop(_CONTEXT)
            picked = {name: kwargs.pop(name) for name in extra}
            typed = {name: value for name, value in picked.items() if _given(ctx, name)}
            return func(**kwargs, choices=Choices(typed.pop("config", None), typed, stage))

        context = inspect.Parameter(_CONTEXT, inspect.Parameter.KEYWORD_ONLY, annotation=typer.Context)
        params = [*kept, *extra.values(), context]
        command.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
        command.__annotations__ = {param.name: param.annotation for param in params}
        return command

    return decorate
