"""The ``keep`` operator: leave a span as it is (for labels a project chooses not to protect)."""

from __future__ import annotations

from anonymed.document import Span
from anonymed.substitute.base import Context, Operator


class KeepOperator(Operator):
    """Return the original text unchanged."""

    name = "keep"

    def operate(self, span: Span, context: Context) -> str:
        """The span's own text."""
        return span.text
