"""One precedence for every face: built-in defaults < profile < configuration file < command-line options
< a service request's fields (docs/configuration.md).

``configure`` lays the layers (``anonymed.effective``) and gives a ``Configured``: the effective
configuration with the source of each value (for ``anonymed config show`` and the run summary), and the
typed configurations of the methods built from it. The profile layer is the profile the upper layers
name (or the default one); the pipeline keeps its own rule for substitution (``PipelineConfig``), so it is
built from the user's layers only, which gives the same operators as the effective document.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from anonymed.config import SITE_TABLES, PipelineConfig, default_layer
from anonymed.effective import Effective, Layer, file_layer, merge
from anonymed.errors import ConfigError
from anonymed.methods.hybrid import HYBRID_KEYS, HybridConfig
from anonymed.methods.sentences import SentencesConfig
from anonymed.methods.words import WordsConfig
from anonymed.profiles import DEFAULT_PROFILE, load_profile

#: the keys of the ``[words]`` and ``[sentences]`` tables (``obfuscate words``, ``obfuscate sentences``)
STAGE_KEYS: Mapping[str, frozenset[str]] = {
    "hybrid": HYBRID_KEYS,
    "words": frozenset({"n", "space"}),
    "sentences": frozenset({"k", "bank"}),
}
_STAGE_TYPES: Mapping[str, type[Any]] = {
    "hybrid": HybridConfig,
    "words": WordsConfig,
    "sentences": SentencesConfig,
}


def stage_defaults(table: str) -> dict[str, Any]:
    """The built-in defaults of ``[hybrid]``, ``[words]`` or ``[sentences]`` (their dataclasses' fields)."""
    fields = {f.name: f.default for f in dataclasses.fields(_STAGE_TYPES[table])}
    return {key: fields[key] for key in sorted(STAGE_KEYS[table]) if fields[key] is not None}


def hybrid_defaults() -> dict[str, Any]:
    """The ``[hybrid]`` table's built-in defaults (``HybridConfig``'s field defaults)."""
    return stage_defaults("hybrid")


@dataclass(frozen=True)
class Configured:
    """The effective configuration of a run and the user's own layers (file, options, request)."""

    effective: Effective
    user: Mapping[str, Any]
    #: the user's layers (file, options, request), to lay more over
    layers: tuple[Layer, ...] = ()

    def pipeline(self, *, site: PipelineConfig | None = None, **fixed: Any) -> PipelineConfig:
        """The pipeline configuration; ``fixed`` fields (stages, patient key...) are set by the command.

        ``site``: a configuration whose site settings (``[known]``, ``[lists]``, files already read) are
        taken instead of reading them again (the service, per request)."""
        skipped = {*STAGE_KEYS, *SITE_TABLES} if site is not None else set(STAGE_KEYS)
        config = PipelineConfig.from_mapping({k: v for k, v in self.user.items() if k not in skipped})
        if site is not None:
            fixed = {"known": site.known, "known_detector": site.known_detector, "lists": site.lists, **fixed}
        return dataclasses.replace(config, **fixed) if fixed else config

    def with_request(self, request: Mapping[str, Any]) -> Configured:
        """This configuration with a service request's fields laid over it."""
        return configure(request=request, base=self.layers)

    def hybrid(self, **fixed: Any) -> HybridConfig:
        """Detect-and-replace, then words or sentences, as the ``[hybrid]`` table says."""
        table = dict(self.effective.get("hybrid", default={}))
        for name in ("bank", "space"):
            if table.get(name) is not None:
                table[name] = Path(table[name])
        if "n" in table:
            table["n"] = str(table["n"])
        return HybridConfig(self.pipeline(**fixed), **table)

    def words(self, **fixed: Any) -> WordsConfig:
        """Word substitution as the ``[words]`` table says, drawing from the run's seed."""
        table = dict(self.effective.get("words", default={}))
        space = table.get("space")
        n = str(table.get("n", "5"))
        return WordsConfig(None if space is None else Path(space), n, self.seed, **fixed)

    def sentences(self) -> SentencesConfig:
        """Sentence substitution as the ``[sentences]`` table says, drawing from the run's seed."""
        table = dict(self.effective.get("sentences", default={}))
        bank = table.get("bank")
        return SentencesConfig(None if bank is None else Path(bank), table.get("k", 5), self.seed)

    @property
    def seed(self) -> int | None:
        """The run's seed (None: secure randomness)."""
        seed = self.effective.get("pipeline", "seed")
        return None if seed is None else int(seed)


def configure(
    file: Path | None = None,
    options: Mapping[str, Any] | None = None,
    request: Mapping[str, Any] | None = None,
    *,
    base: Sequence[Layer] = (),
) -> Configured:
    """The configuration of a run: the file at ``file`` (if any), then ``options``, then ``request``.

    ``base``: layers already read, under these (a service's file and options, under each request);
    ``options`` and ``request`` are documents shaped like the file (their file names already absolute).
    """
    user = [*base]
    if file is not None:
        user.append(file_layer(file))
    if options:
        user.append(Layer("option", options))
    if request:
        user.append(Layer("request", request))
    mine = merge(user)
    for table, keys in STAGE_KEYS.items():
        unknown = set(mine.get(table, default={})) - keys
        if unknown:
            raise ConfigError(f"unknown [{table}] keys {sorted(unknown)}; known: {sorted(keys)}")
    profile = mine.get("pipeline", "profile", default=DEFAULT_PROFILE)
    if not isinstance(profile, str):
        raise ConfigError(f"[pipeline] profile must be a profile name, got a {type(profile).__name__}")
    defaults = {**default_layer(), **{table: stage_defaults(table) for table in STAGE_KEYS}}
    layers = [Layer("default", defaults), Layer("profile", load_profile(profile).layer()), *user]
    return Configured(merge(layers), _thawed(mine.values), tuple(user))


def _thawed(data: Mapping[str, Any]) -> dict[str, Any]:
    return {k: _thawed(v) if isinstance(v, Mapping) else v for k, v in data.items()}
