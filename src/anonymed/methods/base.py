"""The method protocol: a typed frozen configuration and the method it builds, Document -> Document.

A configuration (``MethodConfig``) is plain, picklable data: it names the method (``kind``), carries the
seed, describes itself for a fingerprint (the batch runner's manifest records it, so that finished shards
of another configuration are never reused) and builds its method. A method (``Method``) loads its heavy
resources once (``load``), anonymizes one document (``__call__``) or several (``run_many``, batched where
the method can), counts what it did (``tally``) and gives a copy drawing from another seed that shares
everything it loaded (``reseeded``).

The seed rule, the same for every face (CLI, Python API, batch runner, report, audit, service):

* the random source of a run is ``check_random_state(seed)``: secure without a seed, reproducible with one;
* a document draws from ``source.spawn(f"doc:{doc.id}")``, so its output does not depend on the other
  documents, on sharding or on the number of workers;
* a stage of a composite method draws from its own stream ``stage_stream(seed, name)`` (the hybrid's second
  stage: ``"hybrid:words"`` or ``"hybrid:sentences"``), independent of the first stage's streams.
"""

from __future__ import annotations

import copy
import hashlib
import importlib
import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from anonymed.document import Document
from anonymed.errors import MethodUnavailable
from anonymed.randomness import RandomSource, check_random_state


def digest(data: Any) -> str:
    """A short stable digest of JSON-able ``data`` (paths and other objects as their ``str``)."""
    text = json.dumps(data, sort_keys=True, default=str)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def stage_stream(seed: int | None, stage: str) -> RandomSource:
    """The random source of one stage of a composite method (secure without a seed)."""
    return check_random_state(seed).spawn(stage)


def missing_modules(modules: Sequence[str], what: str, extra: str) -> str | None:
    """Why ``what`` cannot run when one of ``modules`` does not import (naming the extra), or None."""
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError as exc:
            return f"{what} is not available in this installation ({type(exc).__name__}: install {extra})"
    return None


class MethodConfig(ABC):
    """What a method does, as frozen data; subclasses are frozen dataclasses."""

    #: the method's name (``replace``, ``words``, ``sentences``, ``hybrid``)
    kind: ClassVar[str]

    @property
    @abstractmethod
    def seed(self) -> int | None:
        """The seed of the run (None: secure randomness)."""

    @abstractmethod
    def describe(self) -> Any:
        """Every setting that changes the output, as JSON-able data (secrets only as their digests)."""

    @abstractmethod
    def reseeded(self, seed: int | None) -> Self:
        """The same configuration with another seed."""

    @abstractmethod
    def build(self) -> Method[Any]:
        """The method of this configuration (resources are loaded by ``Method.load`` or on first use)."""

    def unavailable(self) -> str | None:
        """Why this method cannot run in this installation (a missing extra), or None when it can."""
        return None

    def fingerprint(self) -> str:
        """A digest of the kind and ``describe()``: equal for configurations that give the same output."""
        return digest([self.kind, self.describe()])


C = TypeVar("C", bound=MethodConfig)


class Method(ABC, Generic[C]):
    """Anonymizes documents: ``method(doc)`` returns the document with ``output`` (and reports) set."""

    def __init__(self, config: C) -> None:
        reason = config.unavailable()
        if reason is not None:
            raise MethodUnavailable(reason)
        self.config = config

    @property
    def kind(self) -> str:
        """The method's name."""
        return self.config.kind

    @abstractmethod
    def load(self) -> Self:
        """Load every heavy resource now (a bad space, bank or option fails here, before any document)."""

    @abstractmethod
    def __call__(self, doc: Document) -> Document:
        """The document anonymized (``output`` set; ``spans`` and ``replacements`` for detect-and-replace)."""

    def run_many(self, docs: Sequence[Document]) -> list[Document]:
        """Several documents, in order (a method that batches its work overrides this)."""
        return [self(doc) for doc in docs]

    @abstractmethod
    def reseeded(self, seed: int | None) -> Self:
        """A copy drawing from ``seed`` that shares every resource this one loaded."""

    def tally(self, doc: Document) -> Mapping[str, int]:
        """Counts of one anonymized document summed over a run (tokens replaced...); none by default."""
        return {}

    def fingerprint(self) -> str:
        """The configuration's fingerprint."""
        return self.config.fingerprint()


class Obfuscator(Protocol):
    """An obfuscator that draws every choice from ``rng_`` (word and sentence substitution)."""

    random_state: int | RandomSource | None
    rng_: RandomSource


Ob = TypeVar("Ob", bound=Obfuscator)


class ObfuscatorMethod(Method[C], Generic[C, Ob]):
    """A method around one obfuscator; copies with another stream share what the obfuscator loaded."""

    obfuscator: Ob

    def reseeded(self, seed: int | None) -> Self:
        """A copy drawing from ``seed``, sharing the loaded resources."""
        other = self.restreamed(check_random_state(seed))
        other.config = self.config.reseeded(seed)
        return other

    def restreamed(self, source: RandomSource) -> Self:
        """A copy drawing from ``source`` (a composite method's stage stream), sharing what was loaded."""
        self.load()
        other = copy.copy(self)
        other.obfuscator = copy.copy(self.obfuscator)
        other.obfuscator.random_state = source
        other.obfuscator.rng_ = source
        return other
