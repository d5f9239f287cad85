"""Privacy budget accounting per document: what was spent, on which value, by which mechanism."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from anonymed.errors import ConfigError


@dataclass(frozen=True)
class Expense:
    """One draw from a mechanism: the label and span it protects, epsilon spent, mechanism parameters."""

    label: str
    start: int
    end: int
    epsilon: float
    mechanism: str
    parameters: dict[str, Any] = field(default_factory=dict)


@dataclass
class PrivacyLedger:
    """A document's epsilon budget and the expenses charged against it."""

    total: float
    expenses: list[Expense] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.total > 0:
            raise ConfigError(f"epsilon budget must be positive, got {self.total!r}")

    @property
    def spent(self) -> float:
        """Epsilon spent so far."""
        return sum(e.epsilon for e in self.expenses)

    def charge(self, expense: Expense) -> None:
        """Record an expense; refuse one that would exceed the budget."""
        if self.spent + expense.epsilon > self.total * (1 + 1e-9):
            raise ConfigError(
                f"privacy budget exceeded at offsets {expense.start}-{expense.end}: "
                f"spent {self.spent:.6g} + {expense.epsilon:.6g} > total {self.total:.6g}"
            )
        self.expenses.append(expense)

    def report(self) -> dict[str, Any]:
        """The privacy report: total, spent, and each expense."""
        return {
            "epsilon_total": self.total,
            "epsilon_spent": self.spent,
            "expenses": [e.__dict__ for e in self.expenses],
        }
