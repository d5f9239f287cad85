"""Word substitution (Abdalla et al.'s Algorithm 1, "KNEO"): every token becomes a random near neighbour.

Guarantees, enforced here and by the neighbour table: no word of the input is written at its own position
(compared case-insensitively), and every word written belongs to the space's hygienic replacement vocabulary;
numbers become random digits of the same shape, never themselves; layout (spaces, line breaks, punctuation)
and each word's case pattern are kept.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import repeat
from pathlib import Path

import numpy as np
import numpy.typing as npt

from anonymed.document import Document
from anonymed.embeddings.neighbours import Progress
from anonymed.embeddings.spaces import Space, cached_space, default_space
from anonymed.embeddings.tokenize import LOWER, apply_case, case_pattern, is_number, lower_all, split
from anonymed.embeddings.training import TrainParams, train_space
from anonymed.embeddings.vocab import Hygiene
from anonymed.errors import ConfigError
from anonymed.randomness import RandomSource, check_random_state
from anonymed.words.numbers import random_numbers
from anonymed.words.oov import UnseenWords, unseen_words


@dataclass(frozen=True)
class Degree:
    """The degree of obfuscation N: each word is replaced by one of its N nearest neighbours (N >= 2).

    ``Degree(5, 5)`` is fixed; ``Degree(3, 14)`` draws N uniformly in [3, 14] per token (the paper's idea).
    """

    low: int
    high: int

    def __post_init__(self) -> None:
        if self.low < 2 or self.high < self.low:
            raise ConfigError(
                f"degree of obfuscation must satisfy 2 <= low <= high, got {self.low}-{self.high}"
            )

    @classmethod
    def parse(cls, value: int | str | tuple[int, int] | Degree) -> Degree:
        """``5``, ``"5"``, ``"3-14"`` or ``(3, 14)``."""
        if isinstance(value, Degree):
            return value
        if isinstance(value, tuple):
            return cls(int(value[0]), int(value[1]))
        if isinstance(value, int) and not isinstance(value, bool):
            return cls(value, value)
        low, sep, high = str(value).strip().partition("-")
        try:
            return cls(int(low), int(high if sep else low))
        except ValueError:
            raise ConfigError(f"degree of obfuscation must look like 5 or 3-14, got {value!r}") from None

    def __str__(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"

    def draw(self, rng: RandomSource, size: int) -> npt.NDArray[np.int64]:
        """One degree per token."""
        if self.low == self.high:
            return np.full(size, self.low, dtype=np.int64)
        return self.low + rng.integers(self.high - self.low + 1, size=size)


@dataclass(frozen=True)
class Result:
    """One obfuscated text and what happened to it (counts only)."""

    text: str
    tokens: int
    unseen: int
    numbers: int


class WordObfuscator:
    """Replace every word of a text with a random one among its N nearest neighbours in an embedding space.

    In the scikit-learn manner: ``space`` (a ``Space``, a folder, or None for the shipped MTSamples space),
    ``n`` (degree: 5 or "3-14"), ``random_state`` (None: secure; int: reproducible by anyone with the seed).
    ``fit(corpus)`` trains a new space; ``transform(texts)`` obfuscates. ``paper_preprocessing`` gives the
    papers' output: lower case, words only, separated by single spaces.
    """

    def __init__(
        self,
        space: Space | str | Path | None = None,
        n: int | str | tuple[int, int] | Degree = 5,
        random_state: int | RandomSource | None = None,
        *,
        paper_preprocessing: bool = False,
        params: TrainParams | None = None,
        hygiene: Hygiene | None = None,
    ) -> None:
        self.space = space
        self.n = n
        self.random_state = random_state
        self.paper_preprocessing = paper_preprocessing
        self.params = params
        self.hygiene = hygiene
        self.degree = Degree.parse(n)
        self.rng_ = check_random_state(random_state)
        self.space_: Space | None = space if isinstance(space, Space) else None
        self._unseen: UnseenWords | None = None

    def fit(self, corpus: Iterable[str | Document], progress: Progress | None = None) -> WordObfuscator:
        """Train a space on ``corpus`` (de-identified texts or documents) with ``params`` and ``hygiene``."""
        self.space_ = train_space(corpus, self.params, self.hygiene, progress=progress)
        self._unseen = None
        return self

    def fit_transform(self, corpus: list[str]) -> list[str]:
        """``fit(corpus).transform(corpus)``."""
        return self.fit(corpus).transform(corpus)

    def loaded_space(self) -> Space:
        """The space in use, loaded on first use and widened if ``n`` exceeds its table."""
        if self.space_ is None:
            self.space_ = default_space() if self.space is None else cached_space(str(self.space))
        if self.degree.high > self.space_.n_max:
            self.space_ = self.space_.retable(n_max=self.degree.high)
        return self.space_

    def unseen(self) -> UnseenWords:
        """The strategy for out-of-vocabulary words of the current space."""
        space = self.loaded_space()
        if self._unseen is None or self._unseen.space is not space:
            self._unseen = unseen_words(space)
        return self._unseen

    def transform(self, texts: Iterable[str]) -> list[str]:
        """Obfuscate each text; with a seed, text ``i`` always gets the same stream."""
        return [self.obfuscate(text, self.rng_.spawn(f"text:{i}")).text for i, text in enumerate(texts)]

    def obfuscate_document(self, doc: Document) -> Document:
        """The document with ``output`` obfuscated (from ``doc.result``) and counts under ``privacy``."""
        result = self.obfuscate(doc.result, self.rng_.spawn(f"doc:{doc.id}"))
        report = {
            "method": "word_substitution",
            "n": str(self.degree),
            "tokens": result.tokens,
            "unseen": result.unseen,
            "numbers": result.numbers,
            "space": str(self.loaded_space().meta.get("corpus", {}).get("sha256", ""))[:16],
        }
        return doc.evolve(output=result.text, privacy={**doc.privacy, "words": report})

    __call__ = obfuscate_document

    def obfuscate(self, text: str, rng: RandomSource) -> Result:
        """Replace every token of ``text`` (see the module docstring for the guarantees)."""
        space = self.loaded_space()
        cut = split(text)
        size = len(cut.tokens)
        if size == 0:
            return Result("" if self.paper_preprocessing else text, 0, 0, 0)
        keys = lower_all(cut.tokens)
        ids = np.fromiter(map(space.index.get, keys, repeat(-1)), dtype=np.int64, count=size)
        degrees = self.degree.draw(rng, size)
        chosen = np.zeros(size, dtype=np.int64)
        known = ids >= 0
        chosen[known] = space.neighbours[ids[known], rng.integers(degrees[known])]
        unknown = np.flatnonzero(~known).tolist()
        numbers = [i for i in unknown if is_number(cut.tokens[i])]
        unseen = sorted(set(unknown) - set(numbers))
        if unseen:
            index = np.asarray(unseen)
            chosen[index] = self.unseen().choose([keys[i] for i in unseen], degrees[index], rng)
        out: list[str] = space.words[chosen].tolist()
        if self.paper_preprocessing:
            if numbers:
                skip = set(numbers)
                out = [w for i, w in enumerate(out) if i not in skip]
            return Result(" ".join(out), size, len(unseen), len(numbers))
        for i, value in zip(numbers, random_numbers([cut.tokens[i] for i in numbers], rng), strict=True):
            out[i] = value
        self._recase(cut.tokens, keys, out, set(numbers))
        return Result(cut.join(out), size, len(unseen), len(numbers))

    @staticmethod
    def _recase(tokens: list[str], keys: list[str], out: list[str], numbers: set[int]) -> None:
        """Give each replacement the case pattern (UPPER, Title, lower) of the word it replaces."""
        for i, (token, key) in enumerate(zip(tokens, keys, strict=True)):
            if token != key and i not in numbers:
                pattern = case_pattern(token)
                if pattern != LOWER:
                    out[i] = apply_case(out[i], pattern)
