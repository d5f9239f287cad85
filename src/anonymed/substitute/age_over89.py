"""The ``age_over89`` operator (HIPAA Safe Harbor ages): ages up to 89 kept, older ones grouped as "90+".

45 CFR 164.514(b)(2)(i)(C) removes "all ages over 89 ... except that such ages ... may be aggregated into
a single category of age 90 or older"; younger ages may stay, and this operator keeps them (counted as
kept in the run summary). An age over 89 years is written with the ``over89`` group ("95 years old" ->
"90+ years old"); a span that is not read as an age becomes ``redacted`` ("[AGE]").
"""

from __future__ import annotations

from dataclasses import dataclass

from anonymed.dates.model import UNITS_PER_YEAR
from anonymed.dates.over89 import HIPAA_MAX_AGE
from anonymed.dates.temporal import Temporal, Unit, parse_temporal
from anonymed.document import Span
from anonymed.errors import ConfigError
from anonymed.substitute.base import Context, Operator, OperatorParams
from anonymed.substitute.dp_age import release_age


@dataclass(frozen=True)
class AgeOver89Params(OperatorParams):
    """``over89``: the group of ages above 89; ``redacted``: what replaces a span not read as an age."""

    over89: str = "90+"
    redacted: str = "[AGE]"


def over_89(value: Temporal) -> bool:
    """Whether the age is above 89 years, in whatever unit it is written."""
    return value.quantity / UNITS_PER_YEAR.get(value.unit, 1.0) > HIPAA_MAX_AGE


class AgeOver89Operator(Operator[AgeOver89Params]):
    """Keep ages up to 89; group older ones (see the module docstring)."""

    name = "age_over89"
    params_type = AgeOver89Params

    def validate(self) -> None:
        """The group may hold no number but 90; the redaction no digit."""
        super().validate()
        p = self.params
        if any(ch.isdigit() for ch in p.over89.replace("90", "") + p.redacted):
            raise ConfigError(f"age_over89 texts may hold no number but 90, got {p.over89!r}, {p.redacted!r}")

    def promises_change(self, span: Span, context: Context) -> bool:
        """Only for ages over 89 and unread spans: younger ages stay on purpose."""
        value = parse_temporal(span.text, lang=context.lang, age=True)
        return value is None or over_89(value)

    def operate(self, span: Span, context: Context) -> str:
        """The age itself, its group, or the redaction text."""
        p = self.params
        value = parse_temporal(span.text, lang=context.lang, age=True)
        if value is None:
            return p.redacted
        if not over_89(value):
            return span.text
        return release_age(value, 90 if value.unit is Unit.YEAR else value.quantity, p.over89)
