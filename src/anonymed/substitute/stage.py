"""The substitution stage: apply each label's operator to a document's spans and splice the surrogates."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from anonymed.document import Document, Replacement, Span
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
    ) -> None:
        self.operators = operators
        self.patient_key = patient_key
        self.epsilon = epsilon

    def operator_for(self, span: Span) -> Operator:
        """The operator configured for the span's label."""
        return self.operators[span.label]

    def __call__(self, doc: Document, rng: RandomSource) -> Document:
        """The document with ``output``, ``replacements`` and (if a budget is set) a privacy report."""
        ledger = PrivacyLedger(self.epsilon) if self.epsilon is not None else None
        context = Context(doc, rng, ValueStreams(doc, rng, self.patient_key), doc.lang, ledger)
        by_operator: dict[str, list[Span]] = defaultdict(list)
        for span in doc.spans:
            by_operator[self.operator_for(span).name].append(span)
        named = {op.name: op for op in self.operators.values()}
        for name, spans in by_operator.items():
            named[name].prepare(spans, context)
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
        privacy = ledger.report() if ledger is not None else {}
        return doc.evolve(
            output=splice(doc.text, replacements), replacements=tuple(replacements), privacy=privacy
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
