"""Sentence substitution as a method: every sentence of ``doc.result`` becomes a near bank sentence.

A bank (a folder, or the default MTSamples bank, built on first use) is loaded once per process and shared
by reference; ``run_many`` sends the sentences of several documents to the encoder and the index together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Self

from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.methods.base import MethodConfig, ObfuscatorMethod, missing_modules
from anonymed.methods.words import resolved
from anonymed.randomness import RandomSource
from anonymed.sentences.banks import Bank, load_bank
from anonymed.sentences.obfuscator import SentenceObfuscator

#: what sentence substitution imports (faiss: the ``embed`` extra)
MODULES = ("anonymed.sentences.obfuscator", "faiss")
#: documents per encoder and index call in ``run_many``
BATCH = 64


@lru_cache(maxsize=4)
def _bank(path: str) -> Bank:
    return load_bank(path)


def shared_bank(path: Path | None) -> Bank:
    """The bank at ``path``, loaded once per process (None: the default bank, built on first use)."""
    if path is None:
        from anonymed.sentences.bank_build import default_bank

        return default_bank()
    return _bank(str(Path(path).resolve()))


@dataclass(frozen=True)
class SentencesConfig(MethodConfig):
    """Sentence substitution: ``bank`` (None: default), draw from the ``k`` nearest (>= 2), ``seed``."""

    bank: Path | None = None
    k: int = 5
    seed: int | None = None  # type: ignore[assignment]  # a field where the base declares a property
    kind = "sentences"

    def __post_init__(self) -> None:
        if isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 2:
            raise ConfigError(
                f"k (the number of neighbours to draw from) must be an integer >= 2, got {self.k!r}"
            )
        if self.bank is not None:
            object.__setattr__(self, "bank", Path(self.bank))

    @classmethod
    def from_options(cls, options: Mapping[str, Any], seed: int | None = None) -> SentencesConfig:
        """From a ``[sentences]`` table (``bank``, ``k``); unknown keys are refused."""
        unknown = set(options) - {"bank", "k"}
        if unknown:
            raise ConfigError(f"unknown [sentences] options {sorted(unknown)}; known: ['bank', 'k']")
        bank = options.get("bank")
        return cls(None if bank is None else Path(bank), int(options.get("k", 5)), seed)

    def unavailable(self) -> str | None:
        """Why sentence substitution cannot run here (faiss missing), or None."""
        return missing_modules(MODULES, "sentence substitution", "anonymed[embed,sentences]")

    def describe(self) -> Any:
        """The bank folder's identity, k and the seed."""
        return [resolved(self.bank), self.k, self.seed]

    def reseeded(self, seed: int | None) -> SentencesConfig:
        """The same settings with another seed."""
        return SentencesConfig(self.bank, self.k, seed)

    def build(self) -> SentencesMethod:
        """The sentence substitution method."""
        return SentencesMethod(self)


class SentencesMethod(ObfuscatorMethod[SentencesConfig, SentenceObfuscator]):
    """A ``SentenceObfuscator``; ``random_state`` (a stage's stream) overrides the seed."""

    def __init__(self, config: SentencesConfig, random_state: RandomSource | None = None) -> None:
        super().__init__(config)
        state = config.seed if random_state is None else random_state
        self.obfuscator = SentenceObfuscator(config.bank, config.k, state)

    def load(self) -> Self:
        """Load the bank (and its encoder and index); a k the bank cannot serve fails here."""
        if self.obfuscator.bank_ is None:
            self.obfuscator.bank_ = shared_bank(self.config.bank)
        self.obfuscator.loaded_bank()
        return self

    def __call__(self, doc: Document) -> Document:
        """Every sentence of ``doc.result`` replaced; counts under ``privacy["sentences"]``."""
        return self.run_many([doc])[0]

    def run_many(self, docs: Sequence[Document]) -> list[Document]:
        """The documents in batches of ``BATCH`` (one encoder and index call per batch)."""
        self.load()
        done: list[Document] = []
        for start in range(0, len(docs), BATCH):
            done.extend(self.obfuscator.obfuscate_many(docs[start : start + BATCH]))
        return done

    def tally(self, doc: Document) -> Mapping[str, int]:
        """Sentences replaced."""
        return {"sentences": int(doc.privacy.get("sentences", {}).get("sentences", 0))}
