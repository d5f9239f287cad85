"""The substitution stage: apply each label's operator to a document's spans and splice the surrogates."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from itertools import pairwise

from anonymed.document import Document, Replacement, Span
from anonymed.errors import ConfigError, SpanError
from anonymed.labels import Label
from anonymed.randomness import RandomSource
from anonymed.substitute.base import Context, Operator
from anonymed.substitute.context import ValueStreams
from anonymed.substitute.privacy import PrivacyLedger


class Substituter:
    """Replaces every span of a document with its label's operator; operators are built once."""

    def __init__(
        self,
        operators: Mapping[Label, Operator],
        *,
        patient_key: bytes | None = None,
        epsilon: float | None = None,
        epsilon_weights: Mapping[str, float] | None = None,
    ) -> None:
        self.operators = operators
        self.patient_key = patient_key
        self.epsilon = epsilon
        self.epsilon_weights = dict(epsilon_weights or {})

    def operator_for(self, span: Span) -> Operator:
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
        replacements = [
            Replacement(
                s.start,
                s.end,
                s.label,
                s.text,
                self.operator_for(s).operate(s, context),
                self.operator_for(s).name,
            )
            for s in doc.spans
        ]
        # an operator may open an unbounded ledger when no budget is set (differentially private operators do)
        privacy = context.ledger.report() if context.ledger is not None else {}
        return doc.evolve(
            output=splice(doc.text, replacements), replacements=tuple(replacements), privacy=privacy
        )


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
