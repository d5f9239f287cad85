"""The ``tag`` operator: replace a span by its label in brackets, e.g. ``[NAME]``."""

from __future__ import annotations

from dataclasses import dataclass

from anonymed.document import Span
from anonymed.errors import ConfigError
from anonymed.substitute.base import Context, Operator, OperatorParams


@dataclass(frozen=True)
class TagParams(OperatorParams):
    """Tag format; ``{label}`` and ``{subtype}`` are filled in."""

    template: str = "[{label}]"


class TagOperator(Operator[TagParams]):
    """Replace a span by its label tag."""

    name = "tag"
    params_type = TagParams

    def validate(self) -> None:
        """Check that the template only uses known fields."""
        super().validate()
        try:
            self.params.template.format(label="X", subtype="x")
        except (KeyError, IndexError, ValueError):
            raise ConfigError(
                f"tag template {self.params.template!r} may only use {{label}} and {{subtype}}"
            ) from None

    def operate(self, span: Span, context: Context) -> str:
        """The tag for the span's label."""
        return self.params.template.format(label=span.label.value, subtype=span.subtype or "")
