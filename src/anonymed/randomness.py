"""One helper turns a seed (or None) into a random source: secure by default, reproducible on request."""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Sequence
from typing import TypeVar

import numpy as np
import numpy.typing as npt

T = TypeVar("T")


class KeyedRandom(random.Random):
    """A deterministic CSPRNG: ``random.Random`` whose bits come from BLAKE2b(key, counter).

    Given the same key it replays the same stream; without the key its output is unpredictable.
    """

    def __init__(self, key: bytes) -> None:
        self._key = hashlib.blake2b(key, digest_size=32).digest()
        self._counter = 0
        super().__init__(0)

    def seed(self, a: object = None, version: int = 2) -> None:
        self._counter = 0

    def _block(self) -> int:
        self._counter += 1
        digest = hashlib.blake2b(self._counter.to_bytes(8, "big"), key=self._key, digest_size=8).digest()
        return int.from_bytes(digest, "big")

    def random(self) -> float:
        """A float in [0, 1) from 53 keyed bits."""
        return (self._block() >> 11) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k: int) -> int:
        """``k`` keyed random bits."""
        if k <= 0:
            return 0
        value, bits = 0, 0
        while bits < k:
            value = (value << 64) | self._block()
            bits += 64
        return value >> (bits - k)

    def getstate(self) -> tuple[bytes, int]:  # type: ignore[override]
        """The key and counter (enough to replay)."""
        return (self._key, self._counter)

    def setstate(self, state: tuple[bytes, int]) -> None:  # type: ignore[override]
        """Restore a state from ``getstate``."""
        self._key, self._counter = state


class RandomSource:
    """Random draws for anonymed; cryptographically secure unless built from a seed or a key.

    * ``RandomSource()``: secure, from the operating system's CSPRNG (``secrets``); not reproducible.
    * ``RandomSource(seed)``: reproducible by anyone who knows the seed.
    * ``RandomSource.from_key(key)``: reproducible by whoever holds ``key`` (a secret HMAC output).
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._key: bytes | None = None if seed is None else f"anonymed-seed:{seed}".encode()
        self._python: random.Random = random.SystemRandom() if self._key is None else KeyedRandom(self._key)
        self._numpy: np.random.Generator | None = None

    @classmethod
    def from_key(cls, key: bytes) -> RandomSource:
        """A deterministic stream derived from a (secret) key."""
        source = cls(None)
        source._key = key
        source._python = KeyedRandom(key)
        return source

    @property
    def secure(self) -> bool:
        """True when draws come straight from the OS CSPRNG."""
        return self._key is None

    @property
    def python(self) -> random.Random:
        """A ``random.Random`` view of this source (used to drive Faker)."""
        return self._python

    def integers(self, high: npt.ArrayLike, size: int | None = None) -> npt.NDArray[np.int64]:
        """Uniform integers in ``[0, high)``; ``high`` may be an array (one bound per draw)."""
        bound = np.asarray(high, dtype=np.uint64)
        n = int(size if size is not None and bound.ndim == 0 else bound.size)
        if self._key is None:
            raw = np.frombuffer(secrets.token_bytes(8 * n), dtype=np.uint64)
        else:
            if self._numpy is None:
                self._numpy = np.random.default_rng(
                    int.from_bytes(hashlib.blake2b(self._key).digest(), "big")
                )
            raw = self._numpy.integers(0, 2**64 - 1, size=n, dtype=np.uint64, endpoint=True)
        # 64 random bits per draw: the modulo bias is below 2**-40 for bounds under 2**24.
        return (raw % bound).astype(np.int64)

    def randbelow(self, high: int) -> int:
        """One uniform integer in ``[0, high)``."""
        return self._python.randrange(high)

    def uniform(self) -> float:
        """One float in ``[0, 1)``."""
        return self._python.random()

    def choice(self, options: Sequence[T]) -> T:
        """One element of a non-empty sequence, uniformly."""
        return options[self._python.randrange(len(options))]

    def spawn(self, key: str) -> RandomSource:
        """An independent stream for ``key`` (a document, value or shard id); secure stays secure."""
        if self._key is None:
            return RandomSource(None)
        return RandomSource.from_key(hashlib.blake2b(self._key + b"\x00" + key.encode()).digest())


def check_random_state(random_state: int | RandomSource | None) -> RandomSource:
    """Turn ``None`` (secure), an int seed (reproducible) or a source into a ``RandomSource``."""
    if isinstance(random_state, RandomSource):
        return random_state
    if random_state is None or (isinstance(random_state, int) and not isinstance(random_state, bool)):
        return RandomSource(random_state)
    raise TypeError(f"random_state must be None, an int or a RandomSource, not {type(random_state).__name__}")
