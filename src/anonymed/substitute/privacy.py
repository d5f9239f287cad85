"""Privacy budget accounting per document: what was spent, on which value, by which mechanism.

A ledger holds one document's budget. Differentially private operators first *register* every distinct
value they will perturb (in ``prepare``, before any draw); at the first draw the ledger freezes the split:
the total epsilon is shared across the registered values uniformly (as in Tchouka et al.) or in proportion
to per-label weights. Draws are memoized by value key: a value repeated in the document reuses its one
draw and is charged once (repeating a value never spends more). Without a document budget an operator
uses an unbounded ledger where each value gets its operator's default epsilon, and the report says so.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from anonymed.errors import ConfigError

T = TypeVar("T")


@dataclass(frozen=True)
class Expense:
    """One draw from a mechanism: the label and span it protects, epsilon spent, mechanism parameters."""

    label: str
    start: int
    end: int
    epsilon: float
    mechanism: str
    parameters: dict[str, Any] = field(default_factory=dict)
    repeats: tuple[tuple[int, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The expense as JSON (offsets only, never the value itself)."""
        return {
            "label": self.label,
            "start": self.start,
            "end": self.end,
            "epsilon": self.epsilon,
            "mechanism": self.mechanism,
            "parameters": dict(self.parameters),
            "repeats": [list(r) for r in self.repeats],
        }


@dataclass
class _Planned:
    label: str
    default_epsilon: float
    spans: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class PrivacyLedger:
    """A document's epsilon budget, its split across values, and the expenses charged against it."""

    total: float
    expenses: list[Expense] = field(default_factory=list)
    weights: Mapping[str, float] = field(default_factory=dict)
    per_value: bool = False
    fallbacks: dict[str, int] = field(default_factory=dict)
    _planned: dict[str, _Planned] = field(default_factory=dict, repr=False)
    _shares: dict[str, float] | None = field(default=None, repr=False)
    _draws: dict[str, Any] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if not self.total > 0:
            raise ConfigError(f"epsilon budget must be positive, got {self.total!r}")
        for label, weight in self.weights.items():
            if not (math.isfinite(weight) and weight > 0):
                raise ConfigError(f"epsilon weight for label {label!r} must be positive, got {weight!r}")

    @classmethod
    def unbounded(cls) -> PrivacyLedger:
        """A ledger without a document budget: each value gets its operator's default epsilon."""
        return cls(math.inf, per_value=True)

    @property
    def spent(self) -> float:
        """Epsilon spent so far."""
        return math.fsum(e.epsilon for e in self.expenses)

    def charge(self, expense: Expense) -> None:
        """Record an expense; refuse one that would exceed the budget."""
        if self.spent + expense.epsilon > self.total * (1 + 1e-9):
            raise ConfigError(
                f"privacy budget exceeded at offsets {expense.start}-{expense.end}: "
                f"spent {self.spent:.6g} + {expense.epsilon:.6g} > total {self.total:.6g}"
            )
        self.expenses.append(expense)

    def register(self, key: str, label: str, start: int, end: int, *, default_epsilon: float = 1.0) -> None:
        """Announce a value (by memoization key) before any draw; repeated keys are counted once."""
        if self._shares is not None and key not in self._planned:
            raise ConfigError(f"value at offsets {start}-{end} registered after the budget split was frozen")
        if not (math.isfinite(default_epsilon) and default_epsilon > 0):
            raise ConfigError(f"default epsilon must be positive, got {default_epsilon!r}")
        planned = self._planned.setdefault(key, _Planned(label, default_epsilon))
        if (start, end) not in planned.spans:
            planned.spans.append((start, end))

    def _freeze(self) -> dict[str, float]:
        if self._shares is None:
            if self.per_value:
                self._shares = {k: p.default_epsilon for k, p in self._planned.items()}
            else:
                weight = {k: float(self.weights.get(p.label, 1.0)) for k, p in self._planned.items()}
                norm = math.fsum(weight.values())
                self._shares = {k: self.total * w / norm for k, w in weight.items()}
        return self._shares

    def epsilon_for(self, key: str) -> float:
        """The epsilon share of a registered value (freezes the split on first use)."""
        shares = self._freeze()
        if key not in shares:
            raise ConfigError("a value was drawn without being registered first (operator bug)")
        return shares[key]

    def draw(
        self, key: str, mechanism: str, parameters: Mapping[str, Any], sample: Callable[[float], T]
    ) -> T:
        """``sample(epsilon)`` for a registered value, once: later calls reuse the draw and spend nothing."""
        if key in self._draws:
            return self._draws[key]  # type: ignore[no-any-return]
        epsilon = self.epsilon_for(key)
        value = sample(epsilon)
        planned = self._planned[key]
        start, end = planned.spans[0]
        self.charge(
            Expense(planned.label, start, end, epsilon, mechanism, dict(parameters), tuple(planned.spans[1:]))
        )
        self._draws[key] = value
        return value

    def report(self) -> dict[str, Any]:
        """The privacy report (JSON-ready): budget, split, spent, and each expense (offsets, no values)."""
        return {
            "budget": "per_value" if self.per_value else "document",
            "epsilon_total": None if self.per_value else self.total,
            "epsilon_spent": self.spent,
            "split": "per_value" if self.per_value else ("weighted" if self.weights else "uniform"),
            "weights": dict(self.weights),
            "values": len(self._planned),
            "fallbacks": dict(self.fallbacks),
            "expenses": [e.to_json() for e in sorted(self.expenses, key=lambda e: (e.start, e.end))],
        }
