"""Randomness: secure by default, reproducible from a seed, independent streams per key."""

from __future__ import annotations

import numpy as np
import pytest

from anonymed.randomness import KeyedRandom, RandomSource, check_random_state


def test_seeded_sources_replay_the_same_draws() -> None:
    a, b = RandomSource(42), RandomSource(42)
    assert [a.randbelow(1000) for _ in range(20)] == [b.randbelow(1000) for _ in range(20)]
    assert np.array_equal(RandomSource(42).integers(7, 50), RandomSource(42).integers(7, 50))


def test_different_seeds_give_different_draws() -> None:
    assert RandomSource(1).integers(10**6, 10).tolist() != RandomSource(2).integers(10**6, 10).tolist()


def test_secure_source_is_not_reproducible_and_says_so() -> None:
    a, b = RandomSource(), RandomSource()
    assert a.secure and not RandomSource(3).secure
    assert a.integers(2**30, 8).tolist() != b.integers(2**30, 8).tolist()


def test_spawn_is_deterministic_per_key_and_independent_across_keys() -> None:
    root = RandomSource(9)
    assert root.spawn("doc:1").uniform() == RandomSource(9).spawn("doc:1").uniform()
    assert root.spawn("doc:1").uniform() != root.spawn("doc:2").uniform()
    assert RandomSource().spawn("x").secure


@pytest.mark.parametrize("source", [RandomSource(), RandomSource(5)], ids=["secure", "seeded"])
def test_integers_respect_per_draw_bounds(source: RandomSource) -> None:
    bounds = np.array([1, 2, 3, 10, 1000] * 200)
    draws = source.integers(bounds)
    assert draws.shape == bounds.shape
    assert (draws >= 0).all() and (draws < bounds).all()
    assert set(draws[bounds == 10].tolist()) == set(range(10))  # every value reachable


def test_keyed_random_is_uniform_enough() -> None:
    rng = KeyedRandom(b"key")
    values = [rng.random() for _ in range(20000)]
    assert 0.48 < sum(values) / len(values) < 0.52
    assert min(values) >= 0.0 and max(values) < 1.0
    assert rng.getrandbits(130) < 2**130


@pytest.mark.parametrize("bad", ["7", 1.5, True])
def test_check_random_state_rejects_other_types(bad: object) -> None:
    with pytest.raises(TypeError):
        check_random_state(bad)  # type: ignore[arg-type]


def test_check_random_state_passes_sources_through() -> None:
    source = RandomSource(1)
    assert check_random_state(source) is source
    assert check_random_state(None).secure
