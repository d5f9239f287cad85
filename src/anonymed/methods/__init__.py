"""The methods layer: the one way every face builds an anonymization method.

``replace`` (detect-and-replace), ``words`` (word substitution), ``sentences`` (sentence substitution) and
``hybrid`` (replace, then words or sentences): each a typed frozen configuration whose ``build()`` gives a
method mapping Document -> Document (see ``base.py`` for the protocol and the seed rule).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from anonymed.methods.base import Method, MethodConfig, stage_stream
from anonymed.methods.hybrid import HybridConfig, HybridMethod
from anonymed.methods.replace import ReplaceConfig, ReplaceMethod
from anonymed.methods.sentences import SentencesConfig, SentencesMethod
from anonymed.methods.words import WordsConfig, WordsMethod

#: method name -> its configuration type
METHODS: Final[Mapping[str, type[MethodConfig]]] = MappingProxyType(
    {
        "replace": ReplaceConfig,
        "words": WordsConfig,
        "sentences": SentencesConfig,
        "hybrid": HybridConfig,
    }
)

__all__ = [
    "METHODS",
    "HybridConfig",
    "HybridMethod",
    "Method",
    "MethodConfig",
    "ReplaceConfig",
    "ReplaceMethod",
    "SentencesConfig",
    "SentencesMethod",
    "WordsConfig",
    "WordsMethod",
    "build_method",
    "stage_stream",
]


def build_method(config: MethodConfig) -> Method[Any]:
    """The method of ``config`` with its resources loaded; ``MethodUnavailable`` when it cannot run here."""
    return config.build().load()
