"""The reported probability that a DP release is unchanged, against OpenDP draws (sampling error bound)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from anonymed.dates.temporal import parse_temporal
from anonymed.substitute import mechanisms
from anonymed.substitute.dp_date_law import age_p_unchanged, gaps_p_unchanged, p_unchanged

DRAWS = 40_000


def _within_sampling_error(observed: float, p: float, n: int = DRAWS) -> bool:
    """Within four standard errors of a binomial share (a false alarm about once in 16,000 runs)."""
    return abs(observed - p) <= 4 * math.sqrt(max(p * (1 - p), 1e-9) / n)


def _noise(epsilon: float, n: int = DRAWS) -> np.ndarray:
    return np.array(mechanisms.laplace_integers([0] * n, epsilon))


@pytest.mark.parametrize("epsilon", [0.05, 0.3, 1.0])
def test_p_zero_is_the_share_of_zero_noise(epsilon: float) -> None:
    assert _within_sampling_error(
        float(np.mean(_noise(epsilon) == 0)), mechanisms.discrete_laplace_p_zero(epsilon)
    )
    assert mechanisms.discrete_laplace_p_zero(1.0) == pytest.approx(math.tanh(0.5))


def test_periodic_values_come_back_when_the_noise_is_a_multiple_of_the_period() -> None:
    noise = _noise(0.3)
    assert _within_sampling_error(
        float(np.mean(noise % 12 == 0)), mechanisms.discrete_laplace_p_zero(0.3, period=12)
    )
    month = parse_temporal("in March", lang="en")
    assert month is not None and p_unchanged(month, 0.3) == mechanisms.discrete_laplace_p_zero(0.3, period=12)


def test_clamped_floors_and_grouped_ages() -> None:
    one_day = parse_temporal("1 day ago", lang="en")
    assert one_day is not None
    assert p_unchanged(one_day, 0.5, floor=1) == pytest.approx(mechanisms.discrete_laplace_p_nonpositive(0.5))
    old = parse_temporal("95 years old", lang="en", age=True)
    young = parse_temporal("45 years old", lang="en", age=True)
    assert old is not None and young is not None
    assert age_p_unchanged(old, 1.0) == 0.0
    assert age_p_unchanged(young, 1.0) == pytest.approx(math.tanh(0.5))


def test_fractional_amounts_are_unchanged_when_the_noise_rounds_away() -> None:
    value = parse_temporal("2.5 years ago", lang="en")
    assert value is not None and isinstance(value.quantity, float)
    draws = [mechanisms.laplace_float(2.5, 1.0) for _ in range(4000)]
    share = float(np.mean([abs(d - 2.5) < 0.05 for d in draws]))
    assert _within_sampling_error(share, p_unchanged(value, 1.0), 4000)


def test_gaps_law_matches_a_simulation_of_the_chronology() -> None:
    eps, last_eps, gaps = [0.4, 0.25, 0.6], 0.5, [3, 40, 1]
    laws = gaps_p_unchanged(last_eps, gaps, eps)
    error = _noise(last_eps)
    for gap, e, law in zip(gaps, eps, laws, strict=True):
        noisy_gap = np.maximum(gap + _noise(e), 1)
        error = error - (noisy_gap - gap)
        assert _within_sampling_error(float(np.mean(error == 0)), law)


def test_report_and_counts_carry_the_probability_of_an_unchanged_value() -> None:
    from anonymed.document import Document, Span
    from anonymed.labels import Label
    from anonymed.randomness import RandomSource
    from anonymed.substitute.registry import build_operator
    from anonymed.substitute.stage import Substituter

    text = "Admitted 02/12/2020, seen again 02/12/2020, discharged 03/30/2020."
    spans = [
        Span.of(text, 9, 19, Label.DATE),
        Span.of(text, 32, 42, Label.DATE),
        Span.of(text, 55, 65, Label.DATE),
    ]
    doc = Document("d", text, {"lang": "en"}, spans=tuple(spans))
    done = Substituter({Label.DATE: build_operator("dp_date", {"epsilon": 0.5})})(doc, RandomSource())
    expenses = done.privacy["expenses"]
    assert [e["parameters"]["p_unchanged"] for e in expenses] == pytest.approx([math.tanh(0.25)] * 2)
    counts = done.privacy["substitution"]["counts"]
    assert counts["DATE|dp_date|expected_unchanged_ppm"] == 3 * round(math.tanh(0.25) * 1e6)
    unchanged = sum(rep.surrogate == rep.original for rep in done.replacements)
    assert counts.get("DATE|dp_date|unchanged", 0) == unchanged
