"""Word substitution (Abdalla et al.): every token becomes a random near neighbour in an embedding space."""

from __future__ import annotations

from anonymed.words.obfuscator import Degree, WordObfuscator

__all__ = ["Degree", "WordObfuscator"]
