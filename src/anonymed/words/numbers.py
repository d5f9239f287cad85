"""Numbers are replaced by random digits of the same shape, never by themselves."""

from __future__ import annotations

import numpy as np

from anonymed.randomness import RandomSource


def _ascii(token: str) -> str:
    return token if token.isascii() else str(int(token)).zfill(len(token))


def _draw(originals: list[str], rng: RandomSource) -> list[str]:
    lengths = np.fromiter(map(len, originals), dtype=np.int64, count=len(originals))
    ends = np.cumsum(lengths)
    starts = ends - lengths
    lead = starts[
        (lengths > 1) & np.fromiter((o[0] != "0" for o in originals), dtype=bool, count=len(originals))
    ]
    bounds = np.full(int(ends[-1]), 10, dtype=np.int64)
    bounds[lead] = 9
    digits = rng.integers(bounds)
    digits[lead] += 1
    text = (digits + 48).astype(np.uint8).tobytes().decode("ascii")
    return [text[a:b] for a, b in zip(starts.tolist(), ends.tolist(), strict=True)]


def random_numbers(tokens: list[str], rng: RandomSource) -> list[str]:
    """For each digit run, random ASCII digits of the same length that differ from it.

    A multi-digit number keeps a non-zero first digit unless it had a leading zero ("007" may become "042").
    """
    if not tokens:
        return []
    originals = [_ascii(t) for t in tokens]
    out = _draw(originals, rng)
    pending = [i for i, (a, b) in enumerate(zip(out, originals, strict=True)) if a == b]
    while pending:
        for i, value in zip(pending, _draw([originals[i] for i in pending], rng), strict=True):
            out[i] = value
        pending = [i for i in pending if out[i] == originals[i]]
    return out
