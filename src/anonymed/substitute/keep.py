"""The ``keep`` operator: leave a span as it is (for labels a project chooses not to protect)."""

from __future__ import annotations

from anonymed.document import Span
from anonymed.substitute.base import Context, Operator, OperatorParams


class KeepOperator(Operator[OperatorParams]):
    """Return the original text unchanged."""

    name = "keep"

    def promises_change(self, span: Span, context: Context) -> bool:
        """Never: keeping a value is the user's explicit choice (counted as kept in the run summary)."""
        return False

    def operate(self, span: Span, context: Context) -> str:
        """The span's own text."""
        return span.text
