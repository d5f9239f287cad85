"""The ``redact`` operator: replace a span by a mask character repeated, or remove it."""

from __future__ import annotations

from dataclasses import dataclass

from anonymed.document import Span
from anonymed.errors import ConfigError
from anonymed.substitute.base import Context, Operator, OperatorParams


@dataclass(frozen=True)
class RedactParams(OperatorParams):
    """``mask``: one character repeated over the span's length; empty string removes the span."""

    mask: str = "*"


class RedactOperator(Operator[RedactParams]):
    """Mask or remove a span."""

    name = "redact"
    params_type = RedactParams

    def validate(self) -> None:
        """The mask must be empty or a single character."""
        super().validate()
        if len(self.params.mask) > 1:
            raise ConfigError(f"redact mask must be one character or empty, got {self.params.mask!r}")

    def operate(self, span: Span, context: Context) -> str:
        """The masked span (keeps its length and line breaks) or the empty string."""
        if not self.params.mask:
            return ""
        return "".join(ch if ch in "\r\n" else self.params.mask for ch in span.text)
