"""The ``dp_age`` operator: ages under epsilon·d-privacy in their own unit, grouped above 89 as HIPAA asks.

"40 years old", "40 ans", "âgé de 40 ans", "40-year-old", "40 y/o", "98", "18 months old": the number is
perturbed with OpenDP Laplace noise of scale ``1/epsilon`` in the age's unit (years unless a unit word
says months, weeks, days or hours), which is ``epsilon·|a1 - a2|``-private (Tchouka et al., Sect. 4.1);
the rest of the span is kept. Then, as post-processing of the noisy value only (so the guarantee holds):
negative ages become 0, and any age above 89 years is written ``over89`` ("90+" by default, e.g.
"90+ years old") so that no specific age above 89 is ever released (HIPAA Safe Harbor). A true age of 95
may therefore come out as "88 years old"; it never comes out as "95". Ages in months, weeks, days or hours
are capped just below 90 years. Equal ages share one draw and one charge. OpenDP's samplers cannot be
seeded: a seeded run reproduces everything but the noise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from anonymed.dates.model import UNITS_PER_YEAR
from anonymed.dates.over89 import HIPAA_MAX_AGE
from anonymed.dates.temporal import Temporal, Unit, parse_temporal, render_temporal
from anonymed.document import Span
from anonymed.errors import ConfigError
from anonymed.substitute import mechanisms
from anonymed.substitute.base import Context
from anonymed.substitute.dp_common import DPDocState, DPOperator, DPParams

#: ages above this many years are perturbed as this many: every release above 89 is "90+" anyway, clamping
#: is a contraction (the epsilon·d guarantee holds) and the integer stays in the range OpenDP's sampler
#: takes (a 30-digit "age" had raised an error)
AGE_CAP_YEARS: Final = 1000


@dataclass(frozen=True)
class DPAgeParams(DPParams):
    """``over89``: what replaces the number of any age above 89 years."""

    over89: str = "90+"


def release_age(value: Temporal, noisy: int | float, over89: str) -> str:
    """Write a noisy age: clamped at 0, grouped above 89 years (post-processing of the noisy value only)."""
    noisy = max(noisy, 0)
    per_year = UNITS_PER_YEAR.get(value.unit, 1.0)
    if value.unit is Unit.YEAR and noisy > HIPAA_MAX_AGE:
        return render_temporal(value, 90, number_text=over89)
    limit = (HIPAA_MAX_AGE + 1) * per_year - 1
    return render_temporal(value, min(noisy, int(limit) if isinstance(noisy, int) else limit))


class DPAgeOperator(DPOperator[DPAgeParams]):
    """Perturb ages with Laplace noise in their unit; never write an age above 89."""

    name = "dp_age"
    params_type = DPAgeParams

    def validate(self) -> None:
        """The over-89 text must not contain digits other than 90."""
        super().validate()
        if any(ch.isdigit() for ch in self.params.over89.replace("90", "")):
            raise ConfigError(f"dp_age over89 may only use the number 90, got {self.params.over89!r}")

    def parse(self, spans: Sequence[Span], context: Context) -> dict[tuple[int, int], tuple[str, Any] | None]:
        """Each span as an amount of years (or of the unit its words name)."""
        parsed: dict[tuple[int, int], tuple[str, Any] | None] = {}
        for span in spans:
            value = parse_temporal(span.text, lang=context.lang, age=True)
            parsed[(span.start, span.end)] = (
                None if value is None else (f"{span.label.value}:{value.key}", value)
            )
        return parsed

    def surrogate(self, span: Span, key: str, value: Any, context: Context, state: DPDocState) -> str:
        """The span with its perturbed, HIPAA-grouped age."""
        assert isinstance(value, Temporal)
        from anonymed.substitute.dp_date_law import age_p_unchanged  # it imports this module

        ledger = self.ledger(context)
        epsilon = ledger.epsilon_for(key)
        parameters = {
            "unit": value.unit.value,
            "scale": 1.0 / epsilon,
            "sensitivity": 1,
            "over89": "grouped",
            "p_unchanged": age_p_unchanged(value, epsilon),
            "p_unchanged_of": "release",
        }
        quantity = min(value.quantity, AGE_CAP_YEARS * UNITS_PER_YEAR.get(value.unit, 1.0))
        noisy = ledger.draw(key, "laplace", parameters, lambda e: mechanisms.laplace_quantity(quantity, e))
        state.released[key] = noisy
        return release_age(value, noisy, self.params.over89)
