"""The probability that a ``dp_date`` or ``dp_age`` release writes its value back unchanged.

The privacy report states it for every drawn value (``p_unchanged`` in the expense's parameters), and the
run summary compares the expected number of unchanged values with the number observed. It is exact for
the Laplace draw and the post-processing of one value: integer quantities (discrete Laplace, scale
``1/epsilon``) are unchanged with probability ``tanh(epsilon/2)``; a value written without its period
(a yearless date every 365 days, a month name every 12 months, a clock time every day) also when the
noise is a multiple of the period; a value at the floor a clamp keeps ("1 day ago", age 0, day 1) also
when the noise is negative; a fractional amount when the continuous noise stays under half its last
written digit. In ``gaps`` chronology an earlier date is unchanged when the noises of the latest date and
of every gap after it cancel; that law is computed by convolution. In ``sort`` chronology the value is the
draw's: sorting can only move a value when noisy dates cross, which the report's ``p_unchanged_of =
"draw"`` says.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from anonymed.dates.over89 import HIPAA_MAX_AGE, has_year
from anonymed.dates.temporal import Kind, Slot, Temporal, Unit
from anonymed.substitute import mechanisms

#: written without their period: the same text comes back when the noise is a multiple of it
_PERIODS = {Kind.MONTH: 12, Kind.TIME: 1440, Kind.HOUR: 24}
_DAYS_PER_YEAR = 365
#: beyond this many scales the discrete Laplace mass is below exp(-40)
_TAIL_SCALES = 40
_MAX_RADIUS = 4000


def p_unchanged(value: Temporal, epsilon: float, *, floor: int | None = None) -> float:
    """P(the release of ``value`` with noise of scale ``1/epsilon`` is written as ``value``).

    ``floor``: the smallest quantity the release is clamped to (1 for relative amounts, 0 for ages).
    """
    quantity = value.quantity
    if isinstance(quantity, float):
        decimals = max((p.decimals for p in value.parts if isinstance(p, Slot)), default=0)
        return mechanisms.continuous_laplace_p_within(epsilon, 0.5 * 10.0**-decimals)
    if (floor is not None and quantity <= floor) or (value.kind is Kind.DAY_OF_MONTH and quantity <= 1):
        return mechanisms.discrete_laplace_p_nonpositive(epsilon)
    if value.kind is Kind.DAY_OF_MONTH and quantity >= 31:
        return mechanisms.discrete_laplace_p_nonpositive(epsilon)
    period = _PERIODS.get(value.kind)
    if value.kind is Kind.DATE and not has_year(value):
        period = _DAYS_PER_YEAR
    return mechanisms.discrete_laplace_p_zero(epsilon, period=period)


def age_p_unchanged(value: Temporal, epsilon: float) -> float:
    """P(an age's release is written as the age): never above 89 years (written "90+"), floor 0."""
    if value.unit is Unit.YEAR and value.quantity > HIPAA_MAX_AGE:
        return 0.0
    return p_unchanged(value, epsilon, floor=0)


def gaps_p_unchanged(last_epsilon: float, gaps: Sequence[int], epsilons: Sequence[float]) -> list[float]:
    """For ``gaps`` chronology: P(unchanged) of each earlier date, walking back from the latest.

    The latest date gets noise ``N`` (``last_epsilon``); date ``k`` back is released at the latest's release
    minus the noisy gaps, each ``max(gap + N_j, 1)`` with ``N_j`` of scale ``1/epsilons[j]``, so its error is
    ``N - sum_j (max(gap_j + N_j, 1) - gap_j)``: its law is the convolution of those terms.
    """
    radius = min(math.ceil(_TAIL_SCALES / min([last_epsilon, *epsilons])), _MAX_RADIUS)
    error = np.array(mechanisms.discrete_laplace_pmf(last_epsilon, radius))  # index i: error i - radius
    found = []
    for gap, eps in zip(gaps, epsilons, strict=True):
        term = np.array(mechanisms.discrete_laplace_pmf(eps, radius))  # index i: noise i - radius
        lowest = 1 - gap + radius  # noise below 1 - gap is clamped there (the gap stays >= 1 day)
        if lowest > 0:
            term[min(lowest, term.size - 1)] += term[:lowest].sum()
            term[:lowest] = 0.0
        error = np.convolve(error, term[::-1])  # error - term: the centre moves to the middle again
        centre = error.size // 2
        error = error[centre - radius : centre + radius + 1]
        found.append(float(error[radius]))
    return found
