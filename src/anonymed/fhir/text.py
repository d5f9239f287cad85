"""The text pass: every free text of a resource becomes a ``Document`` and goes through the pipeline.

A note, a narrative, an ``Annotation.text`` or a ``CodeableConcept.text`` is scrubbed by the run's
detect-and-replace method (``anonymed.methods``, built like every face's): the detectors, then the
operators of the run's privacy profile (with the user's choices). Its
``patient_id`` is the patient of the resource (else the resource itself), so with the run's key the value
streams give the patient the same surrogates in every text and the profile's ``date_shift`` moves the
notes' dates by the same secret shift as the structured dates (``dates.Timeline``), plus its per-date
noise. Each Document also carries a reference date and the patient's known identifiers
(``metadata["known"]``, the shared contract) for the detectors that use them. Short texts repeat (codes'
display texts): their results are memoised per patient and reference date.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from anonymed.config import PipelineConfig
from anonymed.document import Document, Replacement
from anonymed.methods import ReplaceConfig, ReplaceMethod, build_method
from anonymed.pipeline import substitution_report
from anonymed.substitute.summary import document_counts

#: texts up to this length are memoised (codes' texts, short annotations)
MEMO_MAX_CHARS: Final = 256
MEMO_ENTRIES: Final = 50_000


def replace_method(config: PipelineConfig) -> ReplaceMethod:
    """The detect-and-replace method of ``config``, loaded, built as every face builds one."""
    method = build_method(ReplaceConfig(config))
    assert isinstance(method, ReplaceMethod)
    return method


@dataclass(frozen=True)
class TextContext:
    """What a text's Document carries besides its text: ids, subject, reference date, known identifiers.

    ``subject`` is the patient id of the resource, or a key of the resource itself when it belongs to no
    patient: the Document's ``patient_id``, which keys its value streams (surrogates and date shift).
    """

    doc_id: str
    subject: str
    reference_date: str | None = None
    known: Sequence[Mapping[str, str]] = ()

    def metadata(self, lang: str) -> dict[str, Any]:
        """The Document metadata (the known identifiers under ``known``, per the shared contract)."""
        meta: dict[str, Any] = {"lang": lang, "patient_id": self.subject, "known": list(self.known)}
        if self.reference_date is not None:
            meta["reference_date"] = self.reference_date
        return meta


@dataclass
class TextStats:
    """Counts of the text pass (no text, no values); ``counts``: the substitution stage's, per text run."""

    documents: int = 0
    memo_hits: int = 0
    characters: int = 0
    spans: Counter[str] = field(default_factory=Counter)
    counts: Counter[str] = field(default_factory=Counter)

    def to_json(self, method: ReplaceMethod) -> dict[str, Any]:
        """The counts as JSON, with the run summary's substitution part (profile, operators, checklist)."""
        return {"documents": self.documents, "memoised": self.memo_hits, "characters": self.characters,
                "spans": dict(sorted(self.spans.items())),
                "substitution": substitution_report(method.config.pipeline, self.counts)}  # fmt: skip


class TextPass:
    """Scrubs texts with ``method`` (its detectors and its profile's operators)."""

    def __init__(self, method: ReplaceMethod) -> None:
        self.method = method
        self.stats = TextStats()
        self._memo: OrderedDict[tuple[str, str | None, str], tuple[str, tuple[Replacement, ...]]] = (
            OrderedDict()
        )

    def run(self, text: str, context: TextContext) -> Document:
        """The scrubbed Document of one text (detect, then substitute)."""
        doc = self.method(Document(context.doc_id, text, context.metadata(self.method.config.pipeline.lang)))
        self.stats.documents += 1
        self.stats.characters += len(text)
        self.stats.spans.update(span.label.value for span in doc.spans)
        self.stats.counts.update(document_counts(doc))
        return doc

    def scrub(self, text: str, context: TextContext) -> tuple[str, tuple[Replacement, ...]]:
        """The scrubbed text and its replacements (memoised for short texts)."""
        if not text.strip():
            return text, ()
        key = (context.subject, context.reference_date, text) if len(text) <= MEMO_MAX_CHARS else None
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
