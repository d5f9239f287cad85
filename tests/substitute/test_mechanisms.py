"""OpenDP mechanisms: Laplace on quantities, exponential mechanism over candidates."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from dp_montecarlo import check_ratio

from anonymed.errors import ConfigError
from anonymed.substitute import mechanisms


def test_laplace_integer_returns_an_integer_near_the_value() -> None:
    draws = mechanisms.laplace_integers([1000] * 4000, 1.0)
    assert all(isinstance(d, int) for d in draws)
    # mean |noise| of discrete Laplace with scale 1 is 2e/(e^2-1) ~ 0.85
    assert 0.7 < sum(abs(d - 1000) for d in draws) / len(draws) < 1.0


def test_laplace_float_spreads_with_scale_one_over_epsilon() -> None:
    draws = [mechanisms.laplace_float(0.0, 0.5) for _ in range(3000)]
    mean_abs = sum(abs(d) for d in draws) / len(draws)
    assert 1.8 < mean_abs < 2.2  # E|Laplace(b=2)| = 2


@pytest.mark.parametrize("epsilon", [0.0, -1.0, math.inf, math.nan])
def test_non_positive_or_infinite_epsilon_is_refused(epsilon: float) -> None:
    with pytest.raises(ConfigError):
        mechanisms.laplace_integer(3, epsilon)


def test_exponential_probabilities_follow_exp_epsilon_utility() -> None:
    probs = mechanisms.exponential_probabilities([1.0, 0.0], 1.0)
    assert probs[0] / probs[1] == pytest.approx(math.e)
    assert sum(probs) == pytest.approx(1.0)


def test_exponential_choice_with_one_candidate_returns_it() -> None:
    assert mechanisms.exponential_choice([0.3], 1.0) == 0


def test_exponential_choice_samples_the_exponential_law() -> None:
    utilities = [1.0, 0.5, 0.0, -0.5]
    expected = mechanisms.exponential_probabilities(utilities, 2.0)
    n = 6000
    counts = Counter(mechanisms.exponential_choice(utilities, 2.0) for _ in range(n))
    for i, p in enumerate(expected):
        tolerance = 4.5 * math.sqrt(p * (1 - p) / n)  # 4.5 binomial standard errors
        assert abs(counts[i] / n - p) < tolerance


def test_laplace_passes_the_ratio_check_at_distance_one() -> None:
    eps = 0.5
    first = mechanisms.laplace_integers([0] * 20000, eps)
    second = mechanisms.laplace_integers([1] * 20000, eps)
    result = check_ratio(first, second, eps * 1)
    assert result.tested >= 10
    assert result.violations == ()


def test_checker_flags_a_mechanism_twice_as_loose() -> None:
    # noise calibrated for 2*epsilon leaks exp(2*epsilon*d): the check at epsilon must catch it
    eps = 0.5
    first = mechanisms.laplace_integers([0] * 20000, 2 * eps)
    second = mechanisms.laplace_integers([1] * 20000, 2 * eps)
    assert check_ratio(first, second, eps * 1).violations != ()
