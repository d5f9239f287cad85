"""The estimators against values computed by hand (0 misses, all misses, a weighted sample)."""

from __future__ import annotations

import math

import pytest
from scipy.stats import beta

from anonymed.errors import ConfigError
from anonymed.review.estimate import (
    Unit,
    clopper_pearson,
    notes_for_target,
    ratio_interval,
    rule_of_three,
    variance_df,
)


def notes(misses: int, total: int, stratum: str = "all") -> list[Unit]:
    return [Unit(stratum, 1 if i < misses else 0, 1) for i in range(total)]


def test_no_miss_in_a_simple_random_sample_gives_the_exact_bound_and_the_rule_of_three() -> None:
    interval = ratio_interval(notes(0, 10), {"all": 1000})
    assert interval.method == "clopper-pearson"
    assert interval.estimate == 0 and interval.lower == 0
    assert interval.upper == pytest.approx(1 - 0.025 ** (1 / 10))  # 0.3085: solves (1 - p)^10 = 0.025
    assert rule_of_three(10) == pytest.approx(0.3)
    assert rule_of_three(3000) == pytest.approx(0.001)


def test_all_misses_gives_the_mirror_bound() -> None:
    interval = ratio_interval(notes(10, 10), {"all": 1000})
    assert interval.estimate == 1 and interval.upper == 1
    assert interval.lower == pytest.approx(0.025 ** (1 / 10))  # 0.6915: solves p^10 = 0.025


def test_clopper_pearson_matches_the_published_value_for_one_in_ten() -> None:
    low, high = clopper_pearson(1, 10)
    assert low == pytest.approx(0.00253, abs=5e-6) and high == pytest.approx(0.44502, abs=5e-6)
    with pytest.raises(ConfigError):
        clopper_pearson(3, 2)


def test_weighted_sample_uses_the_design_weights_and_the_effective_size() -> None:
    # stratum A: 100 notes, 2 reviewed (weight 50), one with a miss; B: 10 notes, 2 reviewed (weight 5)
    units = [Unit("A", 1, 1), Unit("A", 0, 1), Unit("B", 0, 1), Unit("B", 0, 1)]
    interval = ratio_interval(units, {"A": 100, "B": 10})
    assert interval.method == "korn-graubard"
    assert interval.estimate == pytest.approx(50 / 110)  # Hajek: sum(w y) / sum(w): 50 of 110 notes
    # by hand: z = w (y - R) / 110 -> A: +-275/1210 around its mean, B: constant; fpc 0.98, n/(n-1) = 2
    variance = 2 * 0.98 * 2 * (275 / 1210) ** 2
    # kurtosis 4 * 2c^2 / (2c)^2 = 2 -> df 4.8, capped at the design's n - H = 2
    factor = (3.182446305284263 / 4.302652729911275) ** 2  # (t_0.975(3) / t_0.975(2))^2
    n_eff = (50 / 110) * (60 / 110) / variance * factor
    assert n_eff == pytest.approx(0.669888, rel=1e-5)
    assert interval.n_effective == pytest.approx(n_eff)
    x = interval.estimate * n_eff
    assert interval.lower == pytest.approx(beta.ppf(0.025, x, n_eff - x + 1))
    assert interval.upper == pytest.approx(beta.ppf(0.975, x + 1, n_eff - x))


def test_weighted_estimate_of_a_rate_per_token() -> None:
    # two notes of 100 tokens (weight 10 each, one miss each) and two of 400 (weight 1, no miss)
    units = [Unit("short", 1, 100), Unit("short", 1, 100), Unit("long", 0, 400), Unit("long", 0, 400)]
    interval = ratio_interval(units, {"short": 20, "long": 2})
    assert interval.estimate == pytest.approx(20 / 2800)  # 20 misses in 2,000 + 800 tokens
    assert interval.lower is not None and interval.upper is not None
    assert interval.lower < interval.estimate < interval.upper


def test_no_miss_in_a_weighted_sample_falls_back_to_kish() -> None:
    units = [Unit("A", 0, 1), Unit("A", 0, 1), Unit("B", 0, 1), Unit("B", 0, 1)]
    interval = ratio_interval(units, {"A": 100, "B": 10})
    kish = 110**2 / (2 * 50**2 + 2 * 5**2)  # (sum w)^2 / sum w^2 = 2.396
    assert interval.estimate == 0 and interval.n_effective == pytest.approx(kish)
    assert interval.upper == pytest.approx(1 - 0.025 ** (1 / kish))


def test_a_census_has_no_sampling_error_and_a_census_stratum_adds_no_variance() -> None:
    units = [Unit("all", 1, 1), Unit("all", 0, 1), Unit("all", 0, 1)]
    census = ratio_interval(units, {"all": 3})
    assert census.method == "census" and census.lower == census.upper == census.estimate == pytest.approx(
        1 / 3
    )
    sampled = [Unit("s", 1, 1), Unit("s", 0, 1), Unit("s", 0, 1), Unit("s", 1, 1)]
    alone = ratio_interval(sampled, {"s": 40})
    mixed = ratio_interval([*sampled, Unit("c", 0, 1), Unit("c", 0, 1)], {"s": 40, "c": 2})
    assert mixed.estimate == pytest.approx(20 / 42)
    # by hand: only stratum s varies: z = 10 (y - R) / 42 -> +-5/42 around its mean, fpc 0.9, n/(n-1) = 4/3
    variance = 4 * 0.9 * 4 / 3 * (5 / 42) ** 2
    factor = (2.5705818366147395 / 2.7764451051977987) ** 2  # df: 4 equal terms -> 12, capped at 6 - 2
    assert mixed.n_effective == pytest.approx((20 / 42) * (22 / 42) / variance * factor)
    assert alone.method == "clopper-pearson"


def test_variance_df_is_n_minus_one_for_equal_terms_and_small_when_one_term_dominates() -> None:
    assert variance_df([1.0] * 10, 100) == pytest.approx(2 / (2 / 9 + (1 - 3) / 10))  # kurtosis 1
    assert variance_df([1.0] * 10, 5) == 5
    assert variance_df([100.0] + [0.01] * 99, 99) < 3


def test_notes_for_target_solves_the_exact_bound() -> None:
    interval = ratio_interval(notes(0, 100), {"all": 100_000})
    needed = notes_for_target(interval, 0.01)
    # (1 - 0.01)^n < 0.025 first holds at n = 368 (ln 0.025 / ln 0.99 = 367.03)
    assert needed == math.ceil(math.log(0.025) / math.log(0.99)) == 368
    assert notes_for_target(ratio_interval(notes(5, 100), {"all": 100_000}), 0.01) is None  # estimate above
    assert notes_for_target(interval, 0.5) == 100  # already under the target


def test_inputs_are_checked() -> None:
    with pytest.raises(ConfigError):
        ratio_interval([Unit("x", 1, 1)], {"all": 10})
    with pytest.raises(ConfigError):
        ratio_interval([Unit("all", 2, 1)], {"all": 10})
    with pytest.raises(ConfigError):
        ratio_interval(notes(0, 3), {"all": 2})
    assert ratio_interval([], {"all": 10}).estimate is None


def test_misses_clustered_in_one_note_widen_the_interval_beyond_the_design_df() -> None:
    units = [Unit("s", 5, 100)] + [Unit("s", 0, 100)] * 19  # five misses, all in one note
    clustered = ratio_interval(units, {"s": 1000})
    design = ratio_interval(units, {"s": 1000}, df_rule="design")
    assert clustered.estimate == design.estimate == pytest.approx(5 / 2000)
    assert clustered.n_effective is not None and design.n_effective is not None
    assert clustered.n_effective < design.n_effective and clustered.upper > design.upper  # type: ignore[operator]
    with pytest.raises(ConfigError, match="df_rule"):
        ratio_interval(units, {"s": 1000}, df_rule="normal")


def test_the_jackknife_variance_is_the_delete_one_formula_by_hand() -> None:
    # stratum A: 100 notes, 3 reviewed (y misses, x tokens); B: 10 notes, 2 reviewed
    units = [Unit("A", 2, 10), Unit("A", 0, 20), Unit("A", 1, 30), Unit("B", 0, 5), Unit("B", 1, 15)]
    population = {"A": 100, "B": 10}
    wa, wb = 100 / 3, 10 / 2
    total_y, total_x = wa * 3 + wb * 1, wa * 60 + wb * 20
    ratio = total_y / total_x
    # drop one note of A (the other two weigh 100/2) or of B (the other weighs 10/1)
    drop_a = [(wb * 1 + 50 * (3 - y), wb * 20 + 50 * (60 - x)) for y, x in ((2, 10), (0, 20), (1, 30))]
    drop_b = [(wa * 3 + 10 * (1 - y), wa * 60 + 10 * (20 - x)) for y, x in ((0, 5), (1, 15))]
    variance = 0.0
    for replicates, n, size in ((drop_a, 3, 100), (drop_b, 2, 10)):
        ratios = [y / x for y, x in replicates]
        mean = sum(ratios) / n
        variance += (1 - n / size) * (n - 1) / n * sum((r - mean) ** 2 for r in ratios)
    interval = ratio_interval(
        units, population, df_rule="design", variance_rule="jackknife", skew_rule="none"
    )
    assert interval.estimate == pytest.approx(ratio)
    factor = (2.7764451051977987 / 3.182446305284263) ** 2  # (t_0.975(n - 1 = 4) / t_0.975(n - H = 3))^2
    kish = total_x**2 / (wa * wa * 60 + wb * wb * 20)  # (sum w x)^2 / sum(w^2 x)
    expected = min(kish, ratio * (1 - ratio) / variance * factor)
    assert interval.n_effective == pytest.approx(expected, rel=1e-9)
    linear = ratio_interval(units, population, df_rule="design", skew_rule="none")
    assert linear.n_effective != pytest.approx(expected)  # a different variance


def test_an_unknown_variance_rule_is_refused() -> None:
    with pytest.raises(ConfigError, match="variance_rule"):
        ratio_interval(notes(1, 5), {"all": 50}, variance_rule="bootstrap")
