"""Detectors registered by name: one explicit mapping of the built-in ones (imported only when used), plus
those of other packages (entry points of the ``anonymed.detectors`` group) and ``register_detector``."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from anonymed._lazy import Registry
from anonymed.detect.base import Detector
from anonymed.errors import ConfigError
from anonymed.params import check_types

#: name -> "module:Class"; imported lazily so heavy detectors cost nothing until asked for.
BUILTIN_DETECTORS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "patterns": "anonymed.detect.patterns.detector:PatternDetector",
        "lexicons": "anonymed.detect.lexicons.detector:LexiconDetector",
        "contexts": "anonymed.detect.lexicons.contexts:ContextDetector",
        "tagger": "anonymed.detect.tagger.detector:TaggerDetector",
        "spacy": "anonymed.detect.plugins:SpacyDetector",
        "huggingface": "anonymed.detect.plugins:HuggingFaceDetector",
        "known": "anonymed.detect.known.detector:KnownDetector",
    }
)

#: the entry-point group other packages declare their detectors in
ENTRY_POINT_GROUP: Final = "anonymed.detectors"

#: every detector by name: the built-in ones, those registered in code, those of installed packages
DETECTORS: Final[Registry[Detector[Any]]] = Registry(
    "detector", Detector, BUILTIN_DETECTORS, ENTRY_POINT_GROUP
)

#: the detectors a run uses when the configuration names none
#: the trained tagger (which runs patterns and lexicons internally as features) plus the patterns for recall:
#: patient-level CV on PhysioNet gives 0.915 / 0.877 (tagger alone 0.912 / 0.943, but no age over 89).
DEFAULT_DETECTORS: Final[tuple[str, ...]] = ("tagger", "patterns")


def detector_class(name: str) -> type[Detector[Any]]:
    """The detector class registered under ``name``."""
    return DETECTORS.resolve(name)


def register_detector(name: str, cls: type[Detector[Any]], *, replace: bool = False) -> None:
    """Make ``cls`` available under ``name`` in this process (configurations can then name it)."""
    DETECTORS.register(name, cls, replace=replace)


def build_detector(name: str, params: Mapping[str, Any] | None = None) -> Detector[Any]:
    """Instantiate the detector ``name`` with its typed parameters built from a mapping of fields."""
    cls = detector_class(name)
    try:
        typed = cls.params_type(**dict(params or {}))
    except TypeError as exc:
        raise ConfigError(f"bad parameters for detector {name!r}: {exc}") from None
    check_types(typed, f"detector {name!r}")
    return cls(typed)
