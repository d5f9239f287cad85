"""The ``dp_date`` operator: dates and temporal expressions under epsilon·d-privacy (Laplace, unit metric).

Each span is parsed (``temporal.parse_temporal``) into a quantity in its own unit: days for dates (full or
day-month), months for "3 months ago" or "12/83", years for "10 years ago" or "1992", weeks, hours,
minutes for clock times. OpenDP adds Laplace noise of scale ``1/epsilon`` (sensitivity: one unit), which is
``epsilon·d``-private for ``d(v1, v2) = |v1 - v2|`` in that unit (Tchouka et al., Sect. 4.1): two dates
one day apart are nearly indistinguishable, two dates years apart are not meant to be. The surrogate is
written in the span's own format and language. Equal values (in any format) share one draw and one
charge. Numeric dates are read DD/MM in French and MM/DD in English unless the document's unambiguous
dates (a component above 12) say otherwise, or ``numeric_order`` forces it. Yearless dates take the year
of ``metadata["reference_date"]`` (ISO), else the most frequent year of the document's full dates.

Chronology of the document's dates (values in days), option ``chronology``:

* ``"sort"`` (default): each distinct date gets independent noise (``epsilon_i`` each), the noisy dates
  are sorted and handed out in the original order (ties broken by one day). Guarantee: for documents
  whose dates have the same order, moving date ``i`` by ``delta`` days changes the output law by at most
  ``exp(epsilon_i·|delta|)`` (and ``exp(sum_i epsilon_i·|delta_i|)`` for all moves at once): sorting is
  post-processing. The order itself is released, as the chronology is meant to be kept. Errors do not
  accumulate: each surrogate stays within the Laplace error of a value.
* ``"gaps"`` (the paper's approach): the latest date gets noise, then every gap between consecutive dates,
  walking back in time, gets its own noise (kept >= 1 day) and the earlier dates are rebuilt from the
  perturbed gaps. (Perturbing the gap to a public reference date is the same thing.) Guarantee:
  ``epsilon·d`` for ``d`` the L1 distance between gap vectors; moving one date by ``delta`` changes two
  gaps, so in the date metric the loss is up to ``(epsilon_i + epsilon_j)·|delta|``, twice the ``"sort"``
  loss for the same budget; the error of the k-th date back is a sum of k Laplace draws. Intervals
  (length of stay) keep one Laplace error instead of the difference of two.
* ``"none"``: independent noise, no ordering.

Other kinds (relative expressions, durations, years, months, times) are perturbed independently in their
own unit. Amounts are kept >= 1 ("0 months ago" is not written). Note: OpenDP's samplers cannot be seeded,
so a seeded run reproduces everything but the noise.

HIPAA Safe Harbor (``over89`` module): a DATE span whose value lies 90 years or more before the reference
date (a birth date of a patient aged 90+, a bare year such as 1925, "95 years ago") is aggregated before
any noise: it is written as the ``over89`` marker ("[90+]"), takes no part in the chronology, and is not
registered with the ledger, so it spends no budget (its release depends on the category only, which Safe
Harbor lets out; the guarantee above holds among dates on the same side of the 90-year line, and the
category itself is not protected). After the noise, as post-processing, any released value that lies 90
years or more before the reference is also written as the marker, so no output implies an age over 89.
Birth dates (subtype ``birth``) with a two-digit year are read in the century before the reference.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from anonymed.dates.model import UNITS_PER_YEAR, Part
from anonymed.dates.over89 import OVER89, aggregate, cached_reference, check_marker, implies_over89
from anonymed.dates.temporal import Kind, Temporal, Unit, render_temporal
from anonymed.dates.values import ORDERS, ReadingKey, Values, read_values
from anonymed.document import Span, StateKey
from anonymed.errors import ConfigError
from anonymed.labels import Label
from anonymed.substitute import mechanisms
from anonymed.substitute.base import Context
from anonymed.substitute.dp_age import DPAgeParams, release_age
from anonymed.substitute.dp_common import DPDocState, DPOperator, DPParams
from anonymed.substitute.dp_date_law import age_p_unchanged, gaps_p_unchanged, p_unchanged

CHRONOLOGIES = ("sort", "gaps", "none")
#: ``metric``: "own" measures each value in its own unit (days for dates, years for years: the paper's);
#: a unit name measures every value in that unit (epsilon per week: a day is 1/7 of the distance unit)
METRICS = ("own", "day", "week", "month", "year")


@dataclass(frozen=True)
class DPDateParams(DPParams):
    """``chronology``: sort | gaps | none; ``numeric_order``: auto | DMY | MDY; ``over89``: the marker of
    dates indicative of an age over 89 (see module docstring); ``metric``: the distance unit (``METRICS``)."""

    chronology: str = "sort"
    numeric_order: str = "auto"
    over89: str = OVER89
    metric: str = "own"


_MINUTES_PER_YEAR = 525_960.0
#: the parts of each date grouped as over 89 (``age_over89``), by span offsets
Aggregated = dict[tuple[int, int], tuple[Part, ...]]


class DPDateOperator(DPOperator[DPDateParams]):
    """Perturb dates and temporal expressions with Laplace noise in their own unit, keeping chronology."""

    name = "dp_date"
    params_type = DPDateParams

    def validate(self) -> None:
        """Check the chronology and numeric order options."""
        super().validate()
        if self.params.chronology not in CHRONOLOGIES:
            raise ConfigError(
                f"dp_date chronology must be one of {CHRONOLOGIES}, got {self.params.chronology!r}"
            )
        if self.params.numeric_order not in ORDERS:
            raise ConfigError(
                f"dp_date numeric_order must be one of {ORDERS}, got {self.params.numeric_order!r}"
            )
        check_marker(self.params.over89, "dp_date")
        if self.params.metric not in METRICS:
            raise ConfigError(f"dp_date metric must be one of {METRICS}, got {self.params.metric!r}")

    def prepare(self, spans: Sequence[Span], context: Context) -> None:
        """Aggregate the dates indicative of an age over 89 (no draw, no budget); prepare the others."""
        values = self._values(spans, context)
        reference = cached_reference(context.document, context.state)
        aggregated = {
            (s.start, s.end): value.parts
            for s in spans
            if s.label is Label.DATE
            and (value := values[(s.start, s.end)]) is not None
            and implies_over89(value, value.quantity, reference)
        }
        context.state.set(self._aggregated_key(), aggregated)
        super().prepare([s for s in spans if (s.start, s.end) not in aggregated], context)

    def _aggregated_key(self) -> StateKey[Aggregated]:
        """This operator's entry in the document's state: the dates grouped as over 89, by offsets."""
        return StateKey(f"dp_date:{id(self)}:over89")

    def _values_key(self) -> ReadingKey:
        """This operator's entry in the document's state: its reading of the document's dates."""
        return ReadingKey(f"dp_date:{id(self)}:values")

    def operate(self, span: Span, context: Context) -> str:
        """The marker for an aggregated date, else the DP surrogate (or the fallback's)."""
        if self._state(context) is None:
            self.prepare([span], context)
        parts = (context.state.get(self._aggregated_key()) or {}).get((span.start, span.end))
        if parts is not None:
            return aggregate(parts, self.params.over89)
        return super().operate(span, context)

    def parse(self, spans: Sequence[Span], context: Context) -> dict[tuple[int, int], tuple[str, Any] | None]:
        """Each span's (memoization key, value); ``None`` for the fallback."""
        values = self._values(spans, context)
        parsed: dict[tuple[int, int], tuple[str, Any] | None] = {}
        for span in spans:
            value = values[(span.start, span.end)]
            parsed[(span.start, span.end)] = (
                None if value is None else (f"{span.label.value}:{value.key}", value)
            )
        return parsed

    def _values(self, spans: Sequence[Span], context: Context) -> Values:
        """Each span read once per document (``dates.values.read_values``)."""
        return read_values(spans, context, self.params.numeric_order, self._values_key())

    def value_epsilon(self, value: Temporal, epsilon: float) -> float:
        """The epsilon per unit of the value's own quantity for ``epsilon`` per unit of the metric."""
        if self.params.metric == "own":
            return epsilon
        own = UNITS_PER_YEAR.get(value.unit, _MINUTES_PER_YEAR)
        return epsilon * UNITS_PER_YEAR[Unit(self.params.metric)] / own

    def _parameters(self, value: Temporal, epsilon: float, how: str, p_same: float) -> dict[str, Any]:
        return {
            "unit": value.unit.value,
            "kind": value.kind.value,
            "metric": value.unit.value if self.params.metric == "own" else self.params.metric,
            "scale": 1.0 / self.value_epsilon(value, epsilon),
            "sensitivity": 1,
            "noise": how,
            "p_unchanged": p_same,
            "p_unchanged_of": "draw" if self.params.chronology == "sort" else "release",
        }

    def _draw(
        self,
        context: Context,
        key: str,
        value: Temporal,
        how: str,
        target: int | float,
        p_same: float | None = None,
    ) -> int | float:
        def sample(eps: float) -> int | float:
            return mechanisms.laplace_quantity(target, self.value_epsilon(value, eps))

        epsilon = self.ledger(context).epsilon_for(key)
        if p_same is None:
            p_same = p_unchanged(value, self.value_epsilon(value, epsilon))
        parameters = self._parameters(value, epsilon, how, p_same)
        return self.ledger(context).draw(key, "laplace", parameters, sample)

    def _chronology(self, context: Context, state: DPDocState) -> None:
        dates = sorted(
            {k: v for k, v in state.entries.values() if v.kind is Kind.DATE}.items(),
            key=lambda kv: kv[1].quantity,
        )
        mode = self.params.chronology
        released: dict[str, int] = {}
        if mode == "gaps" and dates:
            last_key, last = dates[-1]
            current = int(self._draw(context, last_key, last, "laplace on the latest date", last.quantity))
            released[last_key] = current
            back = list(zip(reversed(dates[:-1]), reversed(dates[1:]), strict=True))
            gaps = [int(later.quantity) - int(value.quantity) for (_, value), (_, later) in back]
            ledger = self.ledger(context)
            laws = gaps_p_unchanged(
                self.value_epsilon(last, ledger.epsilon_for(last_key)),
                gaps,
                [self.value_epsilon(value, ledger.epsilon_for(key)) for (key, value), _ in back],
            )
            for ((key, value), _), gap, p_same in zip(back, gaps, laws, strict=True):
                how = "laplace on the gap to the next date"
                noisy_gap = int(self._draw(context, key, value, how, gap, p_same))
                current -= max(noisy_gap, 1)
                released[key] = current
        else:
            how = "laplace, then sorted" if mode == "sort" else "laplace"
            noisy = [int(self._draw(context, k, v, how, v.quantity)) for k, v in dates]
            if mode == "sort":
                noisy.sort()
                for i in range(1, len(noisy)):
                    noisy[i] = max(noisy[i], noisy[i - 1] + 1)
            released = {k: n for (k, _), n in zip(dates, noisy, strict=True)}
        state.released = released
        state.drawn = True

    def surrogate(self, span: Span, key: str, value: Any, context: Context, state: DPDocState) -> str:
        """The span written with its perturbed quantity."""
        assert isinstance(value, Temporal)
        if not state.drawn:
            self._chronology(context, state)
        released = state.released
        if key not in released:
            eps = self.value_epsilon(value, self.ledger(context).epsilon_for(key))
            if span.label is Label.AGE:
                p_same = age_p_unchanged(value, eps)
            else:
                p_same = p_unchanged(value, eps, floor=1 if value.kind is Kind.AMOUNT else None)
            noisy = self._draw(context, key, value, "laplace", value.quantity, p_same)
            if value.kind is Kind.AMOUNT and span.label is not Label.AGE:
                noisy = max(noisy, 1)
            released[key] = noisy
        if span.label is Label.AGE:  # ages routed here still get the HIPAA grouping
            return release_age(value, released[key], DPAgeParams().over89)
        if implies_over89(value, released[key], cached_reference(context.document, context.state)):
            return aggregate(value.parts, self.params.over89)  # post-processing of the noisy value
        return render_temporal(value, released[key])
