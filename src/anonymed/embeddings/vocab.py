"""Token counts of a training corpus and the hygienic replacement vocabulary drawn from them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from anonymed.embeddings.tokenize import is_stable
from anonymed.errors import ConfigError

GROUPINGS = ("document", "patient")


@dataclass(frozen=True)
class Hygiene:
    """Which tokens may be emitted: seen at least ``min_count`` times in at least ``min_docs`` documents.

    With ``by="patient"`` the second threshold counts distinct patients (documents without a patient id
    count as their own patient). A word that occurs in one note only (a leftover name, an address) can then
    never be written into another note, whatever the embedding space says.
    """

    min_count: int = 5
    min_docs: int = 3
    by: str = "document"

    def __post_init__(self) -> None:
        if self.min_count < 1 or self.min_docs < 1:
            raise ConfigError(
                f"hygiene thresholds must be >= 1, got min_count={self.min_count} min_docs={self.min_docs}"
            )
        if self.by not in GROUPINGS:
            raise ConfigError(f"hygiene grouping must be one of {GROUPINGS}, got {self.by!r}")


@dataclass
class Counts:
    """Occurrences and distinct documents (or patients) per lower-cased word, added document by document."""

    by: str = "document"
    count: Counter[str] = field(default_factory=Counter)
    groups: Counter[str] = field(default_factory=Counter)
    documents: int = 0
    tokens: int = 0
    _seen: dict[str, set[str]] = field(default_factory=dict, repr=False)

    def add(self, words: Sequence[str], group: str | None = None) -> None:
        """Count one document's words; ``group`` is its patient id when counting by patient."""
        self.documents += 1
        self.tokens += len(words)
        self.count.update(words)
        if self.by == "document" or group is None:
            self.groups.update(set(words))
            return
        for word in set(words):
            patients = self._seen.setdefault(word, set())
            if group not in patients:
                patients.add(group)
                self.groups[word] += 1


def candidate_ids(
    tokens: Sequence[str], counts: npt.NDArray[np.int64], groups: npt.NDArray[np.int64], hygiene: Hygiene
) -> npt.NDArray[np.int32]:
    """Ids of the tokens that pass ``hygiene`` and are stable in every case pattern, ascending."""
    frequent = (counts >= hygiene.min_count) & (groups >= hygiene.min_docs)
    ids = [i for i in np.flatnonzero(frequent).tolist() if is_stable(tokens[i])]
    return np.asarray(ids, dtype=np.int32)


def casefold_groups(tokens: Iterable[str]) -> npt.NDArray[np.int32]:
    """One group id per token; tokens equal under ``str.casefold`` share it (never replace each other)."""
    ids: dict[str, int] = {}
    return np.asarray([ids.setdefault(t.casefold(), len(ids)) for t in tokens], dtype=np.int32)
