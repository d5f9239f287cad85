"""Word substitution as a method: every token of ``doc.result`` becomes one of its N nearest neighbours.

The space (the shipped MTSamples space, or a folder) is loaded once per process and shared by reference
(``embeddings.spaces``); ``reseeded`` copies share it and its unseen-word strategy.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from anonymed.document import Document
from anonymed.methods.base import MethodConfig, ObfuscatorMethod
from anonymed.randomness import RandomSource
from anonymed.words.obfuscator import Degree, WordObfuscator

#: the counts a word-substituted document reports under ``privacy["words"]``
COUNTS = ("tokens", "unseen", "numbers")


def resolved(path: Path | None) -> str | None:
    """A resource folder's identity in a fingerprint: its absolute path (None: the shipped default)."""
    return None if path is None else str(Path(path).resolve())


@dataclass(frozen=True)
class WordsConfig(MethodConfig):
    """Word substitution: ``space`` (None: shipped), degree ``n`` (``5`` or ``3-14``), ``seed``."""

    space: Path | None = None
    n: str = "5"
    seed: int | None = None  # type: ignore[assignment]  # a field where the base declares a property
    paper_preprocessing: bool = False
    kind = "words"

    def __post_init__(self) -> None:
        object.__setattr__(self, "n", str(Degree.parse(self.n)))
        if self.space is not None:
            object.__setattr__(self, "space", Path(self.space))

    @property
    def degree(self) -> Degree:
        """The degree of obfuscation."""
        return Degree.parse(self.n)

    def describe(self) -> Any:
        """The space folder's identity, the degree, the seed and the preprocessing."""
        return [resolved(self.space), self.n, self.seed, self.paper_preprocessing]

    def reseeded(self, seed: int | None) -> WordsConfig:
        """The same settings with another seed."""
        return WordsConfig(self.space, self.n, seed, self.paper_preprocessing)

    def build(self) -> WordsMethod:
        """The word substitution method."""
        return WordsMethod(self)


class WordsMethod(ObfuscatorMethod[WordsConfig, WordObfuscator]):
    """A ``WordObfuscator`` over the space; ``random_state`` (a stage's stream) overrides the seed."""

    def __init__(self, config: WordsConfig, random_state: RandomSource | None = None) -> None:
        super().__init__(config)
        state = config.seed if random_state is None else random_state
        self.obfuscator = WordObfuscator(
            config.space, config.n, state, paper_preprocessing=config.paper_preprocessing
        )

    def load(self) -> Self:
        """Load the space (widened if N exceeds its table) and its unseen-word strategy."""
        self.obfuscator.unseen()
        return self

    def __call__(self, doc: Document) -> Document:
        """Every word of ``doc.result`` replaced; counts under ``privacy["words"]``."""
        return self.obfuscator.obfuscate_document(doc)

    def tally(self, doc: Document) -> Mapping[str, int]:
        """Tokens replaced, unseen words and numbers."""
        report = doc.privacy.get("words", {})
        return {key: int(report.get(key, 0)) for key in COUNTS}
