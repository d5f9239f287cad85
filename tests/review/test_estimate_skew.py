"""The skewness-corrected intervals (Johnson 1978, Hall 1992) against values computed by hand."""

from __future__ import annotations

import math

import pytest
from scipy.stats import t

from anonymed.errors import ConfigError
from anonymed.review.estimate import (
    Unit,
    ratio_interval,
    skew_matched_size,
    skewed_t_interval,
    third_cumulant,
)

# five notes of 100 tokens from a stratum of 1,000 notes, one note with all 5 misses: R = 5 / 500 = 0.01;
# weights 200, sum(w x) = 100,000, scores z = 200 (y - 1) / 100,000 = (-0.002 x 4, 0.008), mean 0
UNITS = [Unit("all", y, 100) for y in (0, 0, 0, 0, 5)]
POPULATION = {"all": 1000}
# V = (1 - 5/1000) * 5/4 * sum(z^2) = 0.995 * 1.25 * 8e-5
VARIANCE = 0.995 * 1.25 * 8e-5
# k3 = 5 / (4 * 3) * sum(z^3) = 5/12 * (4 * -8e-9 + 5.12e-7) = 2e-7; kappa3 = 0.995 * 0.99 * 5 * k3
CUMULANT3 = 0.995 * 0.99 * 5 * 2e-7
# Satterthwaite: terms in ratio 4:4:4:4:64, kurtosis 5 * 4160 / 80^2 = 3.25, df = 2 / (2/4 + 0.25/5)
DF = 2 / (0.5 + 0.05)
Q = float(t.ppf(0.975, DF))


def test_third_cumulant_matches_the_hand_value() -> None:
    weights = [200.0] * 5
    assert third_cumulant(UNITS, weights, 0.01, 100_000.0, {"all": 5}, POPULATION) == pytest.approx(9.8505e-7)


def test_johnson_interval_shifts_the_t_interval_by_k3_over_6v() -> None:
    interval = ratio_interval(UNITS, POPULATION, skew_rule="johnson")
    centre = 0.01 + CUMULANT3 / (6 * VARIANCE)  # 0.01 + 0.00165
    assert interval.method == "johnson" and interval.estimate == pytest.approx(0.01)
    assert interval.upper == pytest.approx(centre + Q * math.sqrt(VARIANCE))
    assert interval.lower == 0.0  # centre - Q * se is negative: clipped


def test_hall_interval_inverts_the_transformation() -> None:
    interval = ratio_interval(UNITS, POPULATION, skew_rule="hall")
    a = CUMULANT3 / VARIANCE**1.5

    def g(x: float) -> float:  # Hall (1992): t + a t^2 / 3 + a^2 t^3 / 27 + a / 6
        return x + a * x * x / 3 + a * a * x**3 / 27 + a / 6

    se = math.sqrt(VARIANCE)
    assert interval.upper is not None and interval.lower is not None
    assert g((0.01 - interval.upper) / se) == pytest.approx(-Q)
    assert interval.lower == 0.0 or g((0.01 - interval.lower) / se) == pytest.approx(Q)
    johnson = ratio_interval(UNITS, POPULATION, skew_rule="johnson")
    assert johnson.upper is not None and interval.upper > johnson.upper  # keeps the quadratic term


def test_without_skewness_both_are_the_t_interval() -> None:
    for rule in ("johnson", "hall"):
        low, high = skewed_t_interval(0.1, 0.0004, 0.0, 10.0, 0.95, rule)
        half = float(t.ppf(0.975, 10)) * 0.02
        assert (low, high) == pytest.approx((0.1 - half, 0.1 + half))


def test_the_default_is_korn_graubard_with_the_skew_cap_and_bad_rules_are_refused() -> None:
    assert ratio_interval(UNITS, POPULATION).method == "korn-graubard"
    with pytest.raises(ConfigError, match="skew_rule"):
        ratio_interval(UNITS, POPULATION, skew_rule="edgeworth")


def test_matched_size_is_the_binomial_size_with_the_estimators_skewness() -> None:
    gamma = CUMULANT3 / VARIANCE**1.5  # 0.9925
    size = skew_matched_size(0.01, VARIANCE, CUMULANT3)
    assert size == pytest.approx(0.98**2 / (gamma**2 * 0.01 * 0.99))  # 98.5 notes' worth of tokens
    assert (1 - 2 * 0.01) / math.sqrt(size * 0.01 * 0.99) == pytest.approx(gamma)
    assert skew_matched_size(0.01, VARIANCE, -CUMULANT3) == math.inf  # left skew: no cap
    # here the variance's effective size (91.9, after the df shrinkage) is already the smaller one
    matched = ratio_interval(UNITS, POPULATION, skew_rule="matched")
    assert matched.upper == ratio_interval(UNITS, POPULATION, skew_rule="none").upper


def test_matched_size_caps_the_effective_size_when_misses_cluster_unevenly() -> None:
    # 100 notes of 100 tokens from 100,000; misses 5, 3, 2, 2, 1, 1, 1, 1: R = 16 / 10,000 = 0.0016
    units = [Unit("all", y, 100) for y in (5, 3, 2, 2, 1, 1, 1, 1)] + [Unit("all", 0, 100)] * 92
    population = {"all": 100_000}
    # z = (y - 0.16) / 1e4; sum (y - 0.16)^2 = 46 - 5.12 + 2.56 = 43.44
    variance = 0.999 * 100 / 99 * 43.44e-8
    # sum (y - 0.16)^3 = 172 - 0.48 * 46 + 0.0768 * 16 - 100 * 0.004096 = 150.7392
    cumulant3 = 0.999 * 0.998 * 100 * 100 / (99 * 98) * 150.7392e-12
    gamma = cumulant3 / variance**1.5
    expected = (1 - 2 * 0.0016) ** 2 / (gamma**2 * 0.0016 * 0.9984)  # 2,183 tokens
    matched = ratio_interval(units, population)  # the default
    default = ratio_interval(units, population, skew_rule="none")
    assert matched.n_effective == pytest.approx(expected)
    assert default.n_effective is not None and default.n_effective > expected  # 2,405: the cap binds
    assert matched.upper is not None and default.upper is not None and matched.upper > default.upper
