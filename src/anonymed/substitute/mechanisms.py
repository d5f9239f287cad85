"""Calls into OpenDP: the Laplace mechanism on a quantity and the exponential mechanism over candidates.

Every draw comes from OpenDP's samplers (``import opendp.prelude as dp; dp.enable_features("contrib")``),
which take their randomness from the operating system and are built to avoid the floating-point leaks of
naive samplers. They cannot be seeded: a run started with a seed reproduces every other choice anonymed
makes, but not the differential-privacy noise.

* Laplace (metric privacy, ``epsilon·d`` with ``d = |v1 - v2|`` in the value's own unit): noise of scale
  ``1 / epsilon`` for a sensitivity of one unit. Integer quantities get OpenDP's discrete Laplace
  (``P(k) ∝ exp(-epsilon·|k|)``), float quantities the continuous one.
* Exponential mechanism: index ``i`` is returned with probability ``∝ exp(epsilon·u_i)``. OpenDP 0.16
  samples it as report-noisy-max with Gumbel noise of scale ``1 / epsilon`` (the Gumbel-max trick); in
  that release Gumbel noise is what ``make_noisy_max`` uses under the ``zero_concentrated_divergence``
  measure (the ``max_divergence`` variant adds exponential noise, i.e. permute-and-flip, whose output law
  is *not* ``∝ exp(epsilon·u)``). OpenDP's own privacy map (in rho, for scores of bounded sensitivity) is
  not used: the metric-privacy accounting is done by the callers, see ``dp_location``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from anonymed.errors import ConfigError


@lru_cache(maxsize=1)
def _dp() -> Any:
    """The OpenDP prelude with contrib features enabled (imported once, when first needed)."""
    import opendp.prelude as dp

    dp.enable_features("contrib")
    return dp


def _check_epsilon(epsilon: float) -> float:
    if not (isinstance(epsilon, int | float) and math.isfinite(epsilon) and epsilon > 0):
        raise ConfigError(f"epsilon must be a positive finite number, got {epsilon!r}")
    return float(epsilon)


@lru_cache(maxsize=256)
def _laplace(scale: float, integer: bool) -> Any:
    dp = _dp()
    if integer:
        return dp.m.make_laplace(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=scale)
    return dp.m.make_laplace(dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float), scale=scale)


@lru_cache(maxsize=64)
def _laplace_vector(scale: float) -> Any:
    dp = _dp()
    return dp.m.make_laplace(dp.vector_domain(dp.atom_domain(T=int)), dp.l1_distance(T=int), scale=scale)


@lru_cache(maxsize=256)
def _gumbel_max(scale: float) -> Any:
    dp = _dp()
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.linf_distance(T=float)
    return dp.m.make_noisy_max(*space, dp.zero_concentrated_divergence(), scale=scale)


def laplace_scale(epsilon: float) -> float:
    """The Laplace scale giving ``epsilon·d``-privacy for a one-unit metric: ``1 / epsilon``."""
    return 1.0 / _check_epsilon(epsilon)


def laplace_integer(value: int, epsilon: float) -> int:
    """``value`` plus discrete Laplace noise of scale ``1/epsilon`` (``epsilon·|v1-v2|``-private)."""
    return int(_laplace(laplace_scale(epsilon), True)(int(value)))


def laplace_float(value: float, epsilon: float) -> float:
    """``value`` plus continuous Laplace noise of scale ``1/epsilon`` (``epsilon·|v1-v2|``-private)."""
    return float(_laplace(laplace_scale(epsilon), False)(float(value)))


def laplace_integers(values: Sequence[int], epsilon: float) -> list[int]:
    """Independent discrete Laplace noise on each value, in one OpenDP call (for tests and benchmarks)."""
    if not values:
        return []
    return [int(v) for v in _laplace_vector(laplace_scale(epsilon))([int(v) for v in values])]


def laplace_quantity(quantity: int | float, epsilon: float) -> int | float:
    """Discrete Laplace for an integer quantity, continuous for a fractional one (scale ``1/epsilon``)."""
    if isinstance(quantity, float):
        return laplace_float(quantity, epsilon)
    return laplace_integer(quantity, epsilon)


def discrete_laplace_p_zero(epsilon: float, *, period: int | None = None) -> float:
    """P(noise = 0) of discrete Laplace noise of scale ``1/epsilon`` (``tanh(epsilon/2)``).

    With ``period``, P(noise is a multiple of ``period``): a month name recurs every 12 months.
    """
    eps = _check_epsilon(epsilon)
    p_zero = math.tanh(eps / 2)
    if period is None:
        return p_zero
    ratio = math.exp(-eps * period)
    return p_zero * (1 + ratio) / (1 - ratio)


def discrete_laplace_p_nonpositive(epsilon: float) -> float:
    """P(noise <= 0) of discrete Laplace noise of scale ``1/epsilon`` (a value clamped at its floor)."""
    return (1 + discrete_laplace_p_zero(epsilon)) / 2


def continuous_laplace_p_within(epsilon: float, half_width: float) -> float:
    """P(|noise| < ``half_width``) of continuous Laplace noise of scale ``1/epsilon`` (rounded output)."""
    return 1 - math.exp(-_check_epsilon(epsilon) * half_width)


def discrete_laplace_pmf(epsilon: float, radius: int) -> list[float]:
    """P(noise = k) for k in ``-radius..radius`` (discrete Laplace of scale ``1/epsilon``)."""
    eps = _check_epsilon(epsilon)
    p_zero = math.tanh(eps / 2)
    return [p_zero * math.exp(-eps * abs(k)) for k in range(-radius, radius + 1)]


def exponential_probabilities(utilities: Sequence[float], epsilon: float) -> list[float]:
    """The exact output law of ``exponential_choice``: ``exp(epsilon·u_i) / sum_j exp(epsilon·u_j)``."""
    eps = _check_epsilon(epsilon)
    if not utilities:
        raise ConfigError("the exponential mechanism needs at least one candidate")
    top = max(utilities)
    weights = [math.exp(eps * (u - top)) for u in utilities]
    total = math.fsum(weights)
    return [w / total for w in weights]


def exponential_choice(utilities: Sequence[float], epsilon: float) -> int:
    """An index drawn with probability ``∝ exp(epsilon·u_i)`` (OpenDP Gumbel report-noisy-max)."""
    eps = _check_epsilon(epsilon)
    if not utilities:
        raise ConfigError("the exponential mechanism needs at least one candidate")
    if len(utilities) == 1:
        return 0
    return int(_gumbel_max(1.0 / eps)([float(u) for u in utilities]))
