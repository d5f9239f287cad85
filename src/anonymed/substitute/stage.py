"""The substitution stage: apply each label's operator to a document's spans and splice the surrogates."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from itertools import pairwise
from typing import Any, Final

from anonymed.document import Document, Replacement, Span
from anonymed.errors import ConfigError, SpanError
from anonymed.labels import Label
from anonymed.randomness import RandomSource
from anonymed.substitute.base import Context, Operator
from anonymed.substitute.context import ValueStreams
from anonymed.substitute.invariant import fold, leaks, safe_surrogate
from anonymed.substitute.privacy import PrivacyLedger

#: outcomes of a span in the run summary: surrogate written; surrogate of a fallback (the operator's own
#: fallback operator, ``Operator.fell_back``, or the stage's after a leaking surrogate); value kept on purpose
#: (``keep``, a year under Safe Harbor); DP draw equal to the original
REPLACED: Final = "replaced"
FALLBACK: Final = "fallback"
KEPT: Final = "kept"
UNCHANGED: Final = "unchanged"
#: the sum of the DP spans' probabilities of coming back unchanged, in millionths (counts are integers)
EXPECTED_UNCHANGED_PPM: Final = "expected_unchanged_ppm"


class Substituter:
    """Replaces every span of a document with its label's operator; operators are built once."""

    def __init__(
        self,
        operators: Mapping[Label, Operator[Any]],
        *,
        patient_key: bytes | None = None,
        epsilon: float | None = None,
        epsilon_weights: Mapping[str, float] | None = None,
    ) -> None:
        self.operators = operators
        self.patient_key = patient_key
        self.epsilon = epsilon
        self.epsilon_weights = dict(epsilon_weights or {})

    def operator_for(self, span: Span) -> Operator[Any]:
        """The operator configured for the span's label."""
        try:
            return self.operators[span.label]
        except KeyError:
            raise ConfigError(f"no operator configured for label {span.label.value}") from None

    def __call__(self, doc: Document, rng: RandomSource) -> Document:
        """The document with ``output``, ``replacements`` and (if a budget is set) a privacy report."""
        ledger = None
        if self.epsilon is not None:
            ledger = PrivacyLedger(self.epsilon, weights=self.epsilon_weights)
        context = Context(doc, rng, ValueStreams(doc, rng, self.patient_key), doc.lang, ledger)
        _check_disjoint(doc)
        by_operator: dict[int, list[Span]] = defaultdict(list)
        for span in doc.spans:
            by_operator[id(self.operator_for(span))].append(span)
        for spans in by_operator.values():
            self.operator_for(spans[0]).prepare(spans, context)
        counts: Counter[str] = Counter()
        replacements = [self._replace(span, context, counts) for span in doc.spans]
        # an operator may open an unbounded ledger when no budget is set (differentially private operators do)
        privacy: dict[str, Any] = context.ledger.report() if context.ledger is not None else {}
        counts.update(_expected_unchanged(doc.spans, privacy, self.operator_for))
        privacy["substitution"] = {"counts": dict(sorted(counts.items()))}
        return doc.evolve(
            output=splice(doc.text, replacements), replacements=tuple(replacements), privacy=privacy
        )

    def _replace(self, span: Span, context: Context, counts: Counter[str]) -> Replacement:
        """The span's surrogate, checked against the invariant; its outcome is counted in ``counts``."""
        operator = self.operator_for(span)
        surrogate = operator.operate(span, context)
        outcome = FALLBACK if operator.fell_back(span, context) else REPLACED
        if operator.promises_change(span, context):
            if leaks(surrogate, span.text):
                surrogate = safe_surrogate(span.text, context.value_rng(span))
                outcome = FALLBACK
        elif fold(surrogate) == fold(span.text):
            outcome = UNCHANGED if operator.differentially_private else KEPT
        counts[count_key(span.full_label, operator.name, outcome)] += 1
        return Replacement(span.start, span.end, span.label, span.text, surrogate, operator.name)


def count_key(label: str, operator: str, outcome: str) -> str:
    """The key of one count of the run summary: ``LABEL[/subtype]|operator|outcome`` (no value)."""
    return f"{label}|{operator}|{outcome}"


def _expected_unchanged(
    spans: tuple[Span, ...], privacy: Mapping[str, Any], operator_for: Callable[[Span], Operator[Any]]
) -> Counter[str]:
    """Sum over DP spans of P(surrogate = original), in millionths, keyed like the outcome counts."""
    by_offsets = {(s.start, s.end): s for s in spans}
    expected: Counter[str] = Counter()
    for expense in privacy.get("expenses", ()):
        p = expense["parameters"].get("p_unchanged")
        if p is None:
            continue
        for start, end in [(expense["start"], expense["end"]), *expense["repeats"]]:
            span = by_offsets.get((start, end))
            if span is not None:
                key = count_key(span.full_label, operator_for(span).name, EXPECTED_UNCHANGED_PPM)
                expected[key] += round(float(p) * 1_000_000)
    return expected


def _check_disjoint(doc: Document) -> None:
    """Refuse overlapping spans: splicing them would duplicate or leak text."""
    ordered = sorted(doc.spans, key=lambda s: (s.start, s.end))
    for left, right in pairwise(ordered):
        if right.start < left.end:
            raise SpanError(
                f"document {doc.id!r}: spans {left.start}-{left.end} and {right.start}-{right.end} overlap"
            )


def splice(text: str, replacements: list[Replacement]) -> str:
    """``text`` with each (non-overlapping, sorted) replacement written in place of its span."""
    pieces: list[str] = []
    cursor = 0
    for rep in sorted(replacements, key=lambda r: r.start):
        pieces.append(text[cursor : rep.start])
        pieces.append(rep.surrogate)
        cursor = rep.end
    pieces.append(text[cursor:])
    return "".join(pieces)
