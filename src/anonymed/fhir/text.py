"""The text pass: every free text of a resource becomes a ``Document`` and goes through the pipeline.

A note, a narrative, an ``Annotation.text`` or a ``CodeableConcept.text`` is scrubbed by the configured
pipeline's detectors and operators, except that dates go to ``TextDateOperator`` (the patient's date
shift, or the year alone), so a patient's notes and structured dates share one timeline. Each Document
carries the patient id, a reference date and the patient's known identifiers (``metadata["known"]``, the
shared contract) for the detectors that use them. Short texts repeat (codes' display texts): their
results are memoised per patient and reference date.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Final

from anonymed.document import Document, Replacement
from anonymed.fhir.dates import DateShift
from anonymed.fhir.textdates import TextDateOperator
from anonymed.labels import Label
from anonymed.pipeline import Pipeline
from anonymed.substitute.registry import build_operator
from anonymed.substitute.stage import Substituter

#: texts up to this length are memoised (codes' texts, short annotations)
MEMO_MAX_CHARS: Final = 256
MEMO_ENTRIES: Final = 50_000


@dataclass(frozen=True)
class TextContext:
    """What a text's Document carries besides its text: ids, patient, reference date, known identifiers."""

    doc_id: str
    patient_id: str | None
    shift_subject: str
    reference_date: str | None = None
    known: Sequence[Mapping[str, str]] = ()

    def metadata(self, lang: str) -> dict[str, Any]:
        """The Document metadata (the known identifiers under ``known``, per the shared contract)."""
        meta: dict[str, Any] = {"lang": lang, "shift_subject": self.shift_subject, "known": list(self.known)}
        if self.patient_id is not None:
            meta["patient_id"] = self.patient_id
        if self.reference_date is not None:
            meta["reference_date"] = self.reference_date
        return meta


@dataclass
class TextStats:
    """Counts of the text pass (no text, no values)."""

    documents: int = 0
    memo_hits: int = 0
    characters: int = 0
    spans: Counter[str] = field(default_factory=Counter)

    def to_json(self) -> dict[str, Any]:
        """The counts as JSON."""
        return {"documents": self.documents, "memoised": self.memo_hits, "characters": self.characters,
                "spans": dict(sorted(self.spans.items()))}  # fmt: skip


class TextPass:
    """Scrubs texts with ``pipeline``'s detectors and operators, dates on the patient's timeline."""

    def __init__(
        self,
        pipeline: Pipeline,
        shift: DateShift,
        *,
        dates: str = "shift",
        operators: Mapping[str, str] | None = None,
    ) -> None:
        self.pipeline, self.shift, self.dates = pipeline, shift, dates
        self.overrides = {Label(k.upper()): v for k, v in (operators or {}).items()}
        self.stats = TextStats()
        self._memo: OrderedDict[tuple[str | None, str | None, str], tuple[str, tuple[Replacement, ...]]] = (
            OrderedDict()
        )

    @cached_property
    def substituter_(self) -> Substituter:
        """The pipeline's operators (with the table's overrides), DATE on the structured timeline."""
        config = self.pipeline.config
        names = {**config.operators, **self.overrides}
        built = {name: build_operator(name, config.operator_params.get(name)) for name in set(names.values())}
        operators = {Label(label): built[name] for label, name in names.items()}
        operators[Label.DATE] = TextDateOperator(self.shift, self.dates, operators[Label.DATE])
        return Substituter(
            operators,
            patient_key=config.patient_key,
            epsilon=config.epsilon,
            epsilon_weights=config.epsilon_weights,
        )

    def run(self, text: str, context: TextContext) -> Document:
        """The scrubbed Document of one text (detect, then substitute)."""
        doc = Document(context.doc_id, text, context.metadata(self.pipeline.config.lang))
        doc = self.pipeline.detect(doc)
        doc = self.substituter_(doc, self.pipeline.rng_.spawn(f"doc:{doc.id}"))
        self.stats.documents += 1
        self.stats.characters += len(text)
        self.stats.spans.update(span.label.value for span in doc.spans)
        return doc

    def scrub(self, text: str, context: TextContext) -> tuple[str, tuple[Replacement, ...]]:
        """The scrubbed text and its replacements (memoised for short texts)."""
        if not text.strip():
            return text, ()
        key = (context.patient_id, context.reference_date, text) if len(text) <= MEMO_MAX_CHARS else None
        if key is not None and key in self._memo:
            self._memo.move_to_end(key)
            self.stats.memo_hits += 1
            return self._memo[key]
        doc = self.run(text, context)
        result = (doc.result, doc.replacements)
        if key is not None:
            self._memo[key] = result
            if len(self._memo) > MEMO_ENTRIES:
                self._memo.popitem(last=False)
        return result
