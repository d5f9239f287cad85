"""What the differentially private operators share: budget registration, memoized draws, a fallback.

A DP operator works in two steps. ``prepare`` (once per document, before any draw) parses each span into
a value and a memoization key and registers the distinct keys with the document's ``PrivacyLedger`` so
that the budget can be split over every value of every DP operator. ``operate`` then draws (once per key,
through ``ledger.draw``) and writes the surrogate. Spans that cannot be parsed, or places the table does
not know, go to a fallback operator (``fake`` by default) that spends no budget; the report counts them.
When no budget is configured the operator opens an unbounded ledger where each value gets ``epsilon``.

OpenDP's samplers cannot be seeded: with a seed every other choice is reproducible, the noise is not.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from anonymed.document import Span, StateKey
from anonymed.errors import ConfigError
from anonymed.substitute.base import Context, Operator, OperatorParams, fallback_for
from anonymed.substitute.privacy import PrivacyLedger


@dataclass(frozen=True)
class DPParams(OperatorParams):
    """``epsilon``: per-value budget when the document has none; ``fallback``: operator for unparsed spans."""

    epsilon: float = 1.0
    fallback: str = "fake"


#: the parameter record type of a DP operator class
DPP = TypeVar("DPP", bound=DPParams)


@dataclass
class DPDocState:
    """One DP operator's state for one document: each parsed span's (key, value), the spans left to the
    fallback, the released value of each key, and whether the joint draws (``dp_date``'s chronology) ran."""

    entries: dict[tuple[int, int], tuple[str, Any]]
    fallback_spans: list[Span]
    released: dict[str, Any] = field(default_factory=dict)
    drawn: bool = False


class DPOperator(Operator[DPP]):
    """Base of ``dp_date``, ``dp_age`` and ``dp_location`` (see the module docstring)."""

    params_type = DPParams
    differentially_private = True

    def promises_change(self, span: Span, context: Context) -> bool:
        """Only for spans this operator did not draw (fallback, aggregated): a draw may equal the original."""
        state = self._state(context)
        return state is None or (span.start, span.end) not in state.entries

    def fell_back(self, span: Span, context: Context) -> bool:
        """True for the spans ``prepare`` left to the fallback (the privacy report's ``fallbacks``)."""
        state = self._state(context)
        return state is not None and any(
            s.start == span.start and s.end == span.end for s in state.fallback_spans
        )

    def validate(self) -> None:
        """Check epsilon and that the fallback names another, non-DP operator."""
        super().validate()
        eps = self.params.epsilon
        if not (isinstance(eps, int | float) and math.isfinite(eps) and eps > 0):
            raise ConfigError(f"operator {self.name!r}: epsilon must be a positive number, got {eps!r}")
        from anonymed.substitute.registry import OPERATORS

        if self.params.fallback not in OPERATORS or self.params.fallback.startswith("dp_"):
            raise ConfigError(
                f"operator {self.name!r}: fallback must be a non-DP operator, got {self.params.fallback!r}"
            )

    def fallback_operator(self) -> Operator[Any]:
        """The operator used for spans this one cannot handle (built once)."""
        return fallback_for(self, self.params.fallback)

    def parse(self, spans: Sequence[Span], context: Context) -> dict[tuple[int, int], tuple[str, Any] | None]:
        """Each span's (memoization key, parsed value), or ``None`` to use the fallback."""
        raise NotImplementedError

    def surrogate(self, span: Span, key: str, value: Any, context: Context, state: DPDocState) -> str:
        """The surrogate of a parsed span (draws through ``ledger(context).draw``)."""
        raise NotImplementedError

    @staticmethod
    def ledger(context: Context) -> PrivacyLedger:
        """The document's ledger, opening an unbounded one when no budget is configured."""
        if context.ledger is None:
            context.ledger = PrivacyLedger.unbounded()
        return context.ledger

    def releases(self, context: Context) -> dict[tuple[int, int], tuple[Any, Any]]:
        """For evaluation: each drawn span's (parsed value, released value) in this document, by offsets."""
        state = self._state(context)
        if state is None:
            return {}
        released = state.released
        entries = state.entries.items()
        return {where: (value, released[key]) for where, (key, value) in entries if key in released}

    def _state_key(self) -> StateKey[DPDocState]:
        return StateKey(f"dp:{self.name}")

    def _state(self, context: Context) -> DPDocState | None:
        return context.state.get(self._state_key())

    def prepare(self, spans: Sequence[Span], context: Context) -> None:
        """Parse the spans, register each distinct value with the ledger, prepare the fallback."""
        ledger = self.ledger(context)
        parsed = self.parse(spans, context)
        entries = {where: entry for where, entry in parsed.items() if entry is not None}
        fallback = [s for s in spans if parsed.get((s.start, s.end)) is None]
        for span in spans:
            entry = entries.get((span.start, span.end))
            if entry is not None:
                ledger.register(
                    entry[0], span.label.value, span.start, span.end, default_epsilon=self.params.epsilon
                )
        context.state.set(self._state_key(), DPDocState(entries, fallback))
        if fallback:
            ledger.fallbacks[self.name] = ledger.fallbacks.get(self.name, 0) + len(fallback)
            self.fallback_operator().prepare(fallback, context)

    def operate(self, span: Span, context: Context) -> str:
        """The DP surrogate of the span, or the fallback operator's when it could not be parsed."""
        state = self._state(context)
        if state is None:
            self.prepare([span], context)
            state = self._state(context)
            assert state is not None
        entry = state.entries.get((span.start, span.end))
        if entry is None:
            return self.fallback_operator().operate(span, context)
        return self.surrogate(span, entry[0], entry[1], context, state)
