"""How many failed records a run may have and still succeed (``--max-failures``).

A limit is a count (``5``: at most five records may fail) or a share of the records read (``1%`` or
``0.5%``). A run whose every record failed is over any limit, a run without records over none. The
batch runner writes its output either way (failed records as placeholders); the limit decides whether
the run *succeeded*, which the command line turns into its exit code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from anonymed.errors import ConfigError

#: the default of ``--max-failures``: a run fails when more than 1% of its records failed
DEFAULT_MAX_FAILURES: Final = "1%"


@dataclass(frozen=True)
class FailureLimit:
    """At most ``count`` failed records, or at most ``share`` of the records read (one of the two)."""

    count: int | None = None
    share: float | None = None

    def __post_init__(self) -> None:
        if (self.count is None) == (self.share is None):
            raise ConfigError("a failure limit is a count or a share, not both or neither")
        if self.count is not None and self.count < 0:
            raise ConfigError(f"--max-failures must be at least 0, got {self.count}")
        if self.share is not None and not 0.0 <= self.share <= 1.0:
            raise ConfigError(f"--max-failures must be a share between 0% and 100%, got {self.share:.2%}")

    @classmethod
    def parse(cls, text: str) -> FailureLimit:
        """``"5"`` (a count) or ``"1%"`` / ``"0.5%"`` (a share of the records read)."""
        value = text.strip()
        try:
            if value.endswith("%"):
                share = float(value[:-1]) / 100
                if not math.isfinite(share):
                    raise ValueError(value)
                return cls(share=share)
            return cls(count=int(value))
        except ValueError:
            raise ConfigError(
                f"--max-failures expects a count (5) or a share of the records (1%), got {text!r}"
            ) from None

    def allowed(self, read: int) -> int:
        """How many of ``read`` records may fail."""
        if self.count is not None:
            return self.count
        assert self.share is not None
        return math.floor(self.share * read + 1e-9)

    def exceeded(self, read: int, failed: int) -> bool:
        """True when the run failed: every record failed, or more than the limit allows."""
        if read == 0 or failed == 0:
            return False
        return failed == read or failed > self.allowed(read)

    def __str__(self) -> str:
        if self.count is not None:
            return str(self.count)
        assert self.share is not None
        return f"{self.share * 100:g}%"
