"""The review sample's design: strata, their allocation and the draw (stratified simple random sampling).

Notes are grouped into strata (a note-type field or a length band, crossed with "flagged": a detected span
of low confidence or detectors that disagree). Each stratum gets at least two notes when it has them (so
that its variance can be estimated), and the rest of the sample in proportion to its size, flagged strata
counting ``oversample`` times: they are reviewed more often and their notes weigh less (``N_h / n_h``),
so estimates stay unbiased. Within a stratum the notes are a simple random sample without replacement;
the whole sample is then put in a random order so that a partly finished review is still a random
subsample of every stratum.
"""

from __future__ import annotations

import bisect
import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from anonymed.errors import ConfigError
from anonymed.randomness import RandomSource

#: notes a stratum needs (when it has them) for its variance to be estimable
MIN_PER_STRATUM = 2


@dataclass(frozen=True, slots=True)
class Frame:
    """One note of the sampling frame: its position in the input, its stratum and its size in tokens."""

    index: int
    stratum: str
    tokens: int
    flagged: bool = False


@dataclass(frozen=True, slots=True)
class Draw:
    """The drawn sample in review order, and each stratum's population and sample sizes."""

    order: tuple[Frame, ...]
    population: Mapping[str, int]
    allocation: Mapping[str, int]

    def weight(self, stratum: str) -> float:
        """The design weight of a note of ``stratum``: the inverse of its inclusion probability."""
        return self.population[stratum] / self.allocation[stratum]


def length_bands(tokens: Sequence[int], bands: int) -> list[int]:
    """Upper bounds (exclusive) of ``bands`` length bands at the quantiles of ``tokens`` (distinct bounds)."""
    if bands < 1:
        raise ConfigError(f"the number of length bands must be at least 1, got {bands}")
    ordered = sorted(tokens)
    if not ordered:
        return []
    cuts = {ordered[min(len(ordered) - 1, (len(ordered) * k) // bands)] for k in range(1, bands)}
    return sorted(c for c in cuts if c > ordered[0])


def band_of(tokens: int, bounds: Sequence[int]) -> str:
    """The name of the length band a note of ``tokens`` tokens falls in (``len0`` is the shortest)."""
    return f"len{bisect.bisect_right(bounds, tokens)}"


def stratum_name(base: str, flagged: bool) -> str:
    """A stratum's name: the base stratum, with ``+flagged`` for notes to over-sample."""
    return f"{base}+flagged" if flagged else base


def allocate(sizes: Mapping[str, int], n: int, factors: Mapping[str, float]) -> dict[str, int]:
    """Sample sizes per stratum: ``min(2, N_h)`` first, then the rest in proportion to ``N_h * factor``.

    Largest remainders, capped at each stratum's size; a sample at least as large as the population
    takes every note.
    """
    total = sum(sizes.values())
    if n < 1:
        raise ConfigError(f"the sample size must be at least 1, got {n}")
    if n >= total:
        return dict(sizes)
    floor = {h: min(MIN_PER_STRATUM, size) for h, size in sizes.items()}
    if sum(floor.values()) > n:
        raise ConfigError(
            f"a sample of {n} cannot give {MIN_PER_STRATUM} notes to each of {len(sizes)} strata: "
            "draw more notes or use fewer strata (--length-bands, --strata-field)"
        )
    alloc = dict(floor)
    left = n - sum(alloc.values())
    while left > 0:
        open_ = {h: sizes[h] * factors.get(h, 1.0) for h in sizes if alloc[h] < sizes[h]}
        mass = math.fsum(open_.values())
        shares = {h: left * m / mass for h, m in open_.items()}
        given = {h: min(math.floor(s), sizes[h] - alloc[h]) for h, s in shares.items()}
        if sum(given.values()) == 0:  # hand out one note by the largest remainder
            best = max(open_, key=lambda h: (shares[h] - math.floor(shares[h]), sizes[h], h))
            given = {best: 1}
        for h, extra in given.items():
            alloc[h] += extra
        left -= sum(given.values())
    return alloc


def draw_sample(frame: Sequence[Frame], n: int, oversample: float, rng: RandomSource) -> Draw:
    """Draw ``n`` notes from ``frame``: stratified, flagged strata ``oversample`` times more, shuffled."""
    if not oversample >= 1:
        raise ConfigError(f"the over-sampling factor must be at least 1, got {oversample}")
    if not frame:
        raise ConfigError("the input holds no note to sample")
    members: dict[str, list[Frame]] = defaultdict(list)
    for note in frame:
        members[note.stratum].append(note)
    sizes = Counter({h: len(notes) for h, notes in members.items()})
    flagged = {note.stratum for note in frame if note.flagged}
    alloc = allocate(sizes, n, {h: oversample for h in flagged})
    chosen: list[Frame] = []
    for stratum in sorted(members):
        chosen.extend(rng.python.sample(members[stratum], alloc[stratum]))
    rng.python.shuffle(chosen)
    return Draw(tuple(chosen), dict(sizes), alloc)
