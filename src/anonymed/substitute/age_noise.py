"""The ``age_noise`` operator: an age moved by a small non-zero step, never above 89 (written "90+").

"45 years old" becomes "44 years old" or "47 years old": a whole step of at most ``max_step`` units of the
age (years unless a unit word says months, weeks...), drawn once per distinct age from the value streams
(the same in all of a patient's notes with a patient key). Ages above 89 years, true or after the step,
are written with the ``over89`` group as ``dp_age`` does (HIPAA Safe Harbor). Spans that are not read as
an age go to the ``fallback`` operator.
"""

from __future__ import annotations

from dataclasses import dataclass

from anonymed.dates.over89 import HIPAA_MAX_AGE
from anonymed.dates.temporal import Unit, parse_temporal
from anonymed.document import Span
from anonymed.errors import ConfigError
from anonymed.randomness import RandomSource
from anonymed.substitute.base import Context, Operator, OperatorParams, check_other_operator, fallback_for
from anonymed.substitute.date_shift import jitter_amount
from anonymed.substitute.dp_age import release_age


@dataclass(frozen=True)
class AgeNoiseParams(OperatorParams):
    """``max_step``: the largest move, in the age's unit; ``over89``: the group of ages above 89."""

    max_step: int = 2
    over89: str = "90+"
    fallback: str = "fake"


class AgeNoiseOperator(Operator[AgeNoiseParams]):
    """Move an age by a small non-zero step (see the module docstring)."""

    name = "age_noise"
    params_type = AgeNoiseParams

    def validate(self) -> None:
        """A positive step; a group text without digits but 90; another operator as fallback."""
        super().validate()
        p = self.params
        if p.max_step < 1 or any(ch.isdigit() for ch in p.over89.replace("90", "")):
            raise ConfigError(
                f"age_noise needs max_step >= 1 and an over89 text with no number but 90, got {p.max_step!r}"
            )
        check_other_operator(self, p.fallback, "fallback")

    def operate(self, span: Span, context: Context) -> str:
        """The age written with its moved value (or its group), or the fallback's surrogate."""
        value = parse_temporal(span.text, lang=context.lang, age=True)
        if value is None:
            return fallback_for(self, self.params.fallback).operate(span, context)
        if value.unit is Unit.YEAR and value.quantity > HIPAA_MAX_AGE:
            return release_age(value, value.quantity, self.params.over89)
        rng = RandomSource.from_key(context.streams.key_for(span.label.value, "\x00value:" + value.key))
        moved = jitter_amount(value.quantity, rng, self.params.max_step, floor=0)
        return release_age(value, moved, self.params.over89)
