"""The operator interface (validate, then operate) and the per-document context operators draw on."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar, cast

from anonymed.document import DocState, Document, Span
from anonymed.randomness import RandomSource
from anonymed.substitute.context import ValueStreams
from anonymed.substitute.privacy import PrivacyLedger


@dataclass(frozen=True)
class OperatorParams:
    """Base class of the typed, frozen parameter records of operators (no parameters)."""


@dataclass
class Context:
    """What one document's substitution shares across its spans: randomness, language, budget, state."""

    document: Document
    rng: RandomSource
    streams: ValueStreams
    lang: str = "en"
    ledger: PrivacyLedger | None = None
    #: values computed once per document, under typed keys (``document.StateKey``)
    state: DocState = field(default_factory=DocState)

    def value_rng(self, span: Span) -> RandomSource:
        """The random stream of this span's value: equal values draw equal surrogates."""
        return self.streams.for_span(span)


#: the parameter record type of an operator class
P = TypeVar("P", bound=OperatorParams)


class Operator(ABC, Generic[P]):
    """Turns one detected span into its surrogate text; one subclass per file, registered by name.

    Generic in its parameter record: ``class RedactOperator(Operator[RedactParams])`` with
    ``params_type = RedactParams`` gives ``self.params`` the type ``RedactParams`` (``validate`` checks
    at run time that a record built elsewhere has that type).
    """

    name: ClassVar[str]
    params_type: ClassVar[type[OperatorParams]] = OperatorParams
    #: whether surrogates come from a differentially private mechanism (they may equal the original)
    differentially_private: ClassVar[bool] = False

    def __init__(self, params: P | None = None) -> None:
        self.params: P = params if params is not None else cast(P, self.params_type())

    def validate(self) -> None:
        """Check the parameters; raise ``ConfigError`` naming the bad value."""
        if not isinstance(self.params, self.params_type):
            from anonymed.errors import ConfigError

            raise ConfigError(
                f"operator {self.name!r} expects {self.params_type.__name__}, "
                f"got {type(self.params).__name__}"
            )

    def prepare(self, spans: Sequence[Span], context: Context) -> None:
        """Called once per document with all the spans this operator will receive (for joint mechanisms)."""
        return None

    def promises_change(self, span: Span, context: Context) -> bool:
        """Whether the surrogate of ``span`` must not leak its text (``invariant``); the stage checks it.

        True for every operator but ``keep``, the differentially private draws and the generalisations
        a rule allows (a year under Safe Harbor); called after ``operate``.
        """
        return True

    def fell_back(self, span: Span, context: Context) -> bool:
        """Whether ``span``'s surrogate came from this operator's fallback operator, not from itself (a DP
        operator's unreadable value or unknown place); the run summary counts it as ``fallback``."""
        return False

    @abstractmethod
    def operate(self, span: Span, context: Context) -> str:
        """The surrogate text for ``span``."""


def fallback_for(owner: Operator[Any], name: str) -> Operator[Any]:
    """The operator ``name`` that ``owner`` hands the spans it cannot handle to (built once per owner)."""
    built: Operator[Any] | None = getattr(owner, "_fallback", None)
    if built is None or built.name != name:
        from anonymed.substitute.registry import build_operator

        built = build_operator(name)
        owner._fallback = built  # type: ignore[attr-defined]
    return built


def check_other_operator(owner: Operator[Any], name: str, option: str) -> None:
    """``name`` (``owner``'s ``option``: a fallback, a delegate) must be another registered operator."""
    from anonymed.errors import ConfigError
    from anonymed.substitute.registry import OPERATORS

    if name not in OPERATORS or name == owner.name:
        raise ConfigError(f"{owner.name} {option} must be another operator, got {name!r}")
