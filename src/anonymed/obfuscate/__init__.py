"""Word substitution over embedding spaces: train spaces, build neighbour tables, obfuscate every token."""

from __future__ import annotations

from anonymed.obfuscate.spaces import Space, default_space, load_space
from anonymed.obfuscate.training import PAPER_PARAMS, TrainParams, train_space
from anonymed.obfuscate.vocab import Hygiene
from anonymed.obfuscate.words import Degree, WordObfuscator

__all__ = [
    "PAPER_PARAMS",
    "Degree",
    "Hygiene",
    "Space",
    "TrainParams",
    "WordObfuscator",
    "default_space",
    "load_space",
    "train_space",
]
