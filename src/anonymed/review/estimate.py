"""Estimates from a reviewed sample: a ratio of totals with an interval that accounts for the design.

Every figure of the review report is a ratio of population totals, ``R = sum(y) / sum(x)`` over notes:
missed identifiers per token (``y`` = misses in the note, ``x`` = its tokens), the share of notes with a
miss (``y`` = 0 or 1, ``x`` = 1) and the detector's precision (``y`` = confirmed spans, ``x`` = reviewed
spans). The sample is stratified, each stratum a simple random sample without replacement, so a note of
stratum ``h`` stands for ``w = N_h / n_h`` notes.

* Point estimate: the Hajek (weighted ratio) estimator ``sum(w y) / sum(w x)``.
* Variance: Taylor linearisation of the ratio with the finite-population correction of each stratum
  (``z = (y - R x) / sum(w x)``); a stratum with one reviewed note of several is centred on the mean of
  all notes (conservative, R survey's ``lonely.psu = "adjust"``).
* Interval: Korn and Graubard (1998): the Clopper-Pearson interval at the *effective sample size*
  ``n* = R (1 - R) / var``, with ``n* R`` successes, ``n*`` shrunk by the degrees-of-freedom factor
  ``(t(n - 1) / t(df))^2`` and never above Kish's effective number of elements
  ``(sum w x)^2 / sum(w^2 x)``; when no miss is seen (``R = 0``, no variance) ``n*`` is that Kish number.
  ``df`` is the Satterthwaite degrees of freedom of the variance estimate, from the kurtosis of its
  terms, within ``[1, n - H]``: misses cluster in few notes, and a variance carried by a few notes is
  uncertain (with the design's ``n - H`` alone, coverage fell to 92-94% in the simulation).
  The effective size is also never above the binomial size with the estimator's own skewness,
  ``(1 - 2R)^2 / (gamma^2 R (1 - R))`` with ``gamma = k3 / var^1.5`` (``skew_rule="matched"``, the
  default: moment matching of the third moment, as Satterthwaite matches the second; misses cluster in
  a few notes, so the estimator is far more right-skewed than a binomial of the variance's size).
  For a simple random sample of notes with 0/1 outcomes (one stratum, equal weights) this is exactly the
  Clopper-Pearson interval on (misses, notes). Coverage is measured by ``benchmarks/review_coverage.py``.
* ``variance_rule="jackknife"`` replaces the linearised variance by the stratified delete-one jackknife
  (Wolter 2007, section 4.5), known to be less optimistic for ratios in small samples (Royall and
  Cumberland, JASA 76, 1981); kept to compare them: in the coverage simulation it changed no cell by more
  than half a point, so the default stays the linearisation (docs/review.md, section 4).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from anonymed.errors import ConfigError

#: ``clopper-pearson``: exact, simple random sample of 0/1 outcomes; ``korn-graubard``: effective size;
#: ``census``: every note of every stratum reviewed (the value is known, no interval)
METHODS = ("clopper-pearson", "korn-graubard", "census")
#: degrees of freedom of the variance: from its terms' kurtosis (default), or the design's ``n - H``
DF_RULES = ("satterthwaite", "design")
#: variance of the ratio: Taylor linearisation, or the stratified delete-one jackknife
VARIANCE_RULES = ("linearization", "jackknife")
#: skewness correction of the interval: none (Korn-Graubard), Johnson's modified t, Hall's transformation,
#: or the effective size capped by the binomial size with the estimator's skewness (default)
SKEW_RULES = ("none", "johnson", "hall", "matched")


@dataclass(frozen=True, slots=True)
class Unit:
    """One reviewed note: its stratum, the numerator and denominator counts it contributes."""

    stratum: str
    y: float
    x: float


@dataclass(frozen=True, slots=True)
class Interval:
    """A ratio estimate with its two-sided interval, the sizes behind it and the method used."""

    estimate: float | None
    lower: float | None
    upper: float | None
    observed: float
    elements: float
    units: int
    n_effective: float | None
    confidence: float
    method: str

    def scaled(self, factor: float) -> dict[str, Any]:
        """The interval as JSON with estimate and bounds multiplied by ``factor`` (1000: per 1,000 tokens)."""

        def f(value: float | None) -> float | None:
            return None if value is None else value * factor

        return {
            "estimate": f(self.estimate),
            "lower": f(self.lower),
            "upper": f(self.upper),
            "observed": self.observed,
            "elements": self.elements,
            "units": self.units,
            "n_effective": self.n_effective,
            "confidence": self.confidence,
            "method": self.method,
        }


def clopper_pearson(successes: float, trials: float, confidence: float = 0.95) -> tuple[float, float]:
    """The exact binomial (Clopper-Pearson) interval; fractional counts are allowed (effective sizes)."""
    from statsmodels.stats.proportion import proportion_confint

    if trials <= 0 or not 0 <= successes <= trials:
        raise ConfigError(f"need 0 <= successes <= trials and trials > 0, got {successes}, {trials}")
    low, high = proportion_confint(successes, trials, alpha=1 - confidence, method="beta")
    return float(low), float(high)


def rule_of_three(trials: float) -> float:
    """The one-sided 95% upper bound on a rate when nothing was seen in ``trials`` (about 3 / n)."""
    if trials <= 0:
        raise ConfigError(f"the rule of three needs trials > 0, got {trials}")
    return 3.0 / trials


def _check(units: Sequence[Unit], population: Mapping[str, int], confidence: float) -> dict[str, int]:
    if not 0 < confidence < 1:
        raise ConfigError(f"confidence must be in (0, 1), got {confidence}")
    counts: dict[str, int] = defaultdict(int)
    for unit in units:
        if unit.stratum not in population:
            raise ConfigError(f"stratum {unit.stratum!r} has no population size")
        if unit.x < 0 or not 0 <= unit.y <= unit.x:
            raise ConfigError(f"need 0 <= y <= x in stratum {unit.stratum!r}, got {unit.y}, {unit.x}")
        counts[unit.stratum] += 1
    for stratum, n in counts.items():
        if n > population[stratum]:
            raise ConfigError(
                f"stratum {stratum!r}: {n} units reviewed of a population of {population[stratum]}"
            )
    return dict(counts)


def _variance_terms(
    units: Sequence[Unit],
    weights: Sequence[float],
    ratio: float,
    total_x: float,
    counts: Mapping[str, int],
    population: Mapping[str, int],
) -> list[float]:
    """The terms whose sum is the linearised variance of the ratio (one per note, fpc included)."""
    scores = [w * (u.y - ratio * u.x) / total_x for u, w in zip(units, weights, strict=True)]
    by_stratum: dict[str, list[float]] = defaultdict(list)
    for unit, score in zip(units, scores, strict=True):
        by_stratum[unit.stratum].append(score)
    grand = math.fsum(scores) / len(scores)
    terms: list[float] = []
    for stratum, values in by_stratum.items():
        n, size = counts[stratum], population[stratum]
        fpc = 1 - n / size
        if fpc <= 0:
            continue
        if n == 1:
            terms.append(fpc * (values[0] - grand) ** 2)
            continue
        mean = math.fsum(values) / n
        terms.extend(fpc * n / (n - 1) * (v - mean) ** 2 for v in values)
    return terms


def _jackknife_terms(
    units: Sequence[Unit],
    weights: Sequence[float],
    ratio: float,
    totals: tuple[float, float],
    counts: Mapping[str, int],
    population: Mapping[str, int],
) -> list[float]:
    """The terms of the stratified delete-one jackknife variance of the ratio (JKn, fpc included).

    Replicate ``(h, j)`` drops note ``j`` of stratum ``h`` and weighs the others of ``h`` by
    ``N_h / (n_h - 1)``; the variance is ``sum_h (1 - f_h) (n_h - 1) / n_h sum_j (R_(hj) - mean_h)^2``
    (Wolter, *Introduction to Variance Estimation*, 2nd ed., 2007, section 4.5; R survey's ``JKn``). A
    stratum with one note of several keeps its linearisation term.
    """
    total_y, total_x = totals
    sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for unit in units:
        sums[unit.stratum][0] += unit.y
        sums[unit.stratum][1] += unit.x
    replicates: dict[str, list[float]] = defaultdict(list)
    for unit in units:
        n, size = counts[unit.stratum], population[unit.stratum]
        if n < 2:
            continue
        sum_y, sum_x = sums[unit.stratum]
        rep_y = total_y - size / n * sum_y + size / (n - 1) * (sum_y - unit.y)
        rep_x = total_x - size / n * sum_x + size / (n - 1) * (sum_x - unit.x)
        replicates[unit.stratum].append(rep_y / rep_x if rep_x > 0 else ratio)
    scores = [w * (u.y - ratio * u.x) / total_x for u, w in zip(units, weights, strict=True)]
    grand = math.fsum(scores) / len(scores)
    terms = [
        (1 - 1 / population[u.stratum]) * (z - grand) ** 2
        for u, z in zip(units, scores, strict=True)
        if counts[u.stratum] == 1
    ]
    for stratum, values in replicates.items():
        n, size = counts[stratum], population[stratum]
        mean = math.fsum(values) / n
        terms.extend((1 - n / size) * (n - 1) / n * (v - mean) ** 2 for v in values)
    return terms


def third_cumulant(
    units: Sequence[Unit],
    weights: Sequence[float],
    ratio: float,
    total_x: float,
    counts: Mapping[str, int],
    population: Mapping[str, int],
) -> float:
    """Third cumulant of the linearised ratio: ``sum_h (1 - f_h)(1 - 2 f_h) n_h k3_h`` of the scores.

    ``k3_h = n_h / ((n_h - 1)(n_h - 2)) sum (z - mean)^3`` is the unbiased third k-statistic of the
    stratum's scores ``z = w (y - R x) / sum(w x)``; ``(1 - f)(1 - 2 f)`` is the finite-population factor
    of a third moment under sampling without replacement. Strata with fewer than three notes add nothing.
    """
    by_stratum: dict[str, list[float]] = defaultdict(list)
    for unit, w in zip(units, weights, strict=True):
        by_stratum[unit.stratum].append(w * (unit.y - ratio * unit.x) / total_x)
    total = 0.0
    for stratum, values in by_stratum.items():
        n = counts[stratum]
        if n < 3:
            continue
        f = n / population[stratum]
        mean = math.fsum(values) / n
        k3 = n / ((n - 1) * (n - 2)) * math.fsum((v - mean) ** 3 for v in values)
        total += (1 - f) * (1 - 2 * f) * n * k3
    return total


def skewed_t_interval(
    estimate: float, variance: float, cumulant3: float, df: float, confidence: float, rule: str
) -> tuple[float, float]:
    """A t interval corrected for the estimator's skewness, by Johnson (1978) or Hall (1992), in [0, 1]."""
    from scipy.stats import t

    q = float(t.ppf(1 - (1 - confidence) / 2, df))
    se = math.sqrt(variance)
    if rule == SKEW_RULES[1]:
        centre = estimate + cumulant3 / (6 * variance)
        low, high = centre - q * se, centre + q * se
    else:
        a = cumulant3 / (variance * math.sqrt(variance))  # the estimator's skewness, Hall's n^(-1/2) gamma

        def g_inverse(x: float) -> float:
            if a == 0:
                return x
            inner = 1 + a * (x - a / 6)
            return 3 / a * (math.copysign(abs(inner) ** (1 / 3), inner) - 1)

        low, high = estimate - se * g_inverse(q), estimate - se * g_inverse(-q)
    return max(0.0, low), min(1.0, high)


def skew_matched_size(ratio: float, variance: float, cumulant3: float) -> float:
    """The binomial size whose skewness ``(1 - 2R) / sqrt(n R (1 - R))`` is the estimator's (inf if none)."""
    if cumulant3 <= 0 or ratio >= 0.5:
        return math.inf
    gamma = cumulant3 / (variance * math.sqrt(variance))
    return (1 - 2 * ratio) ** 2 / (gamma * gamma * ratio * (1 - ratio))


def variance_df(terms: Sequence[float], design_df: int) -> float:
    """Degrees of freedom of a variance estimated as a sum of squared terms (Satterthwaite, with kurtosis).

    ``2 / (2 / (m - 1) + (kappa - 3) / m)`` for ``m`` terms of kurtosis ``kappa`` (``m * sum(c^2) /
    sum(c)^2`` of the terms ``c``): ``m - 1`` for normal data, far fewer when a few notes carry the
    variance (few notes with a miss). Kept within ``[1, design_df]``.
    """
    total = math.fsum(terms)
    m = len(terms)
    if m < 2 or total <= 0:
        return 1.0
    kurtosis = m * math.fsum(c * c for c in terms) / total**2
    df = 2 / (2 / (m - 1) + (kurtosis - 3) / m)
    return min(max(1.0, design_df), max(1.0, df))


def _df_factor(units: int, df: float, confidence: float) -> float:
    """Korn and Graubard's shrinkage of the effective size: ``(t(n - 1) / t(df))^2``."""
    from scipy.stats import t

    if units < 2:
        return 1.0
    q = 1 - (1 - confidence) / 2
    return float((t.ppf(q, units - 1) / t.ppf(q, df)) ** 2)


def ratio_interval(
    units: Sequence[Unit],
    population: Mapping[str, int],
    confidence: float = 0.95,
    *,
    df_rule: str = "satterthwaite",
    variance_rule: str = "linearization",
    skew_rule: str = "matched",
) -> Interval:
    """The weighted ratio ``sum(w y) / sum(w x)`` over reviewed notes, with its design-based interval.

    ``population`` gives each stratum's number of notes ``N_h``; weights are ``N_h / n_h`` over the notes
    actually reviewed in the stratum. Without units or elements the estimate is None. ``df_rule``:
    ``"satterthwaite"`` (the default, see the module) or ``"design"`` (Korn and Graubard's ``n - H``,
    kept to compare them in the coverage benchmark). ``skew_rule``: ``"matched"`` (the default: the
    effective size capped by the binomial size with the estimator's skewness), ``"none"`` (Korn and
    Graubard alone), ``"johnson"`` or ``"hall"`` (skewness-corrected t intervals, compared), see the module.
    """
    if df_rule not in DF_RULES:
        raise ConfigError(f"df_rule must be one of {DF_RULES}, got {df_rule!r}")
    if variance_rule not in VARIANCE_RULES:
        raise ConfigError(f"variance_rule must be one of {VARIANCE_RULES}, got {variance_rule!r}")
    if skew_rule not in SKEW_RULES:
        raise ConfigError(f"skew_rule must be one of {SKEW_RULES}, got {skew_rule!r}")
    counts = _check(units, population, confidence)
    weights = [population[u.stratum] / counts[u.stratum] for u in units]
    total_y = math.fsum(w * u.y for u, w in zip(units, weights, strict=True))
    total_x = math.fsum(w * u.x for u, w in zip(units, weights, strict=True))
    observed, elements = math.fsum(u.y for u in units), math.fsum(u.x for u in units)
    if total_x <= 0:
        return Interval(None, None, None, observed, elements, len(units), None, confidence, METHODS[1])
    ratio = total_y / total_x
    if all(counts[h] == population[h] for h in counts):  # every note reviewed: no sampling error
        return Interval(ratio, ratio, ratio, observed, elements, len(units), None, confidence, METHODS[2])
    simple = len(counts) == 1 and all(u.x == 1 for u in units)
    if simple:
        low, high = clopper_pearson(observed, len(units), confidence)
        return Interval(
            ratio, low, high, observed, elements, len(units), float(len(units)), confidence, METHODS[0]
        )
    kish = total_x**2 / math.fsum(w * w * u.x for u, w in zip(units, weights, strict=True))
    if variance_rule == VARIANCE_RULES[0]:
        terms = _variance_terms(units, weights, ratio, total_x, counts, population)
    else:
        terms = _jackknife_terms(units, weights, ratio, (total_y, total_x), counts, population)
    variance = math.fsum(terms)
    n_eff = kish
    df = 1.0
    if 0 < ratio < 1 and variance > 0:
        design_df = len(units) - len(counts)
        df = variance_df(terms, design_df) if df_rule == DF_RULES[0] else max(1.0, design_df)
        n_eff = min(kish, ratio * (1 - ratio) / variance * _df_factor(len(units), df, confidence))
    if skew_rule != SKEW_RULES[0] and 0 < ratio < 1 and variance > 0:
        cumulant3 = third_cumulant(units, weights, ratio, total_x, counts, population)
        if skew_rule == SKEW_RULES[3]:
            n_eff = min(n_eff, skew_matched_size(ratio, variance, cumulant3))
        else:
            low, high = skewed_t_interval(ratio, variance, cumulant3, df, confidence, skew_rule)
            return Interval(ratio, low, high, observed, elements, len(units), n_eff, confidence, skew_rule)
    low, high = clopper_pearson(ratio * n_eff, n_eff, confidence)
    return Interval(ratio, low, high, observed, elements, len(units), n_eff, confidence, METHODS[1])


def notes_for_target(interval: Interval, target: float, *, limit: int = 10_000_000) -> int | None:
    """How many reviewed notes in all would bring the upper bound under ``target``, if the estimate holds.

    The effective sample size is assumed to grow in proportion to the notes reviewed (same design, same
    design effect). None when the estimate itself is at or above the target (no sample size suffices)
    or when more than ``limit`` notes would be needed.
    """
    if not 0 < target < 1:
        raise ConfigError(f"the target must be in (0, 1), got {target}")
    if interval.estimate is None or interval.units == 0:
        return None
    if interval.upper is not None and interval.upper < target:
        return interval.units
    if interval.estimate >= target or interval.n_effective is None:
        return None
    per_unit = interval.n_effective / interval.units

    def below(units: int) -> bool:
        n_eff = per_unit * units
        assert interval.estimate is not None
        return clopper_pearson(interval.estimate * n_eff, n_eff, interval.confidence)[1] < target

    high = interval.units
    while not below(high):
        high *= 2
        if high > limit:
            return None
    low = max(interval.units, high // 2)
    while low < high:
        middle = (low + high) // 2
        if below(middle):
            high = middle
        else:
            low = middle + 1
    return high
