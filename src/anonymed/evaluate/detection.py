"""Detection metrics: predicted spans against gold spans, at the token and at the entity level.

Tokens are maximal alphanumeric runs of the note text (see ``tokens.py``). A token is gold-positive if it
shares a character with a gold span and predicted-positive if it shares one with a predicted span; the
overall token scores are binary (label-blind). A gold entity is *found* (strict entity recall) when every
alphanumeric character of it is covered by some predicted span, whatever their labels. Gold spans without
any alphanumeric character have no token and cannot leak a word: they are left out and counted apart.

Per label (``by_label``, keyed by ``NAME``...) and per full label (``by_full_label``, ``NAME/clinician``...):
recall counts the gold tokens and entities of that label found by predictions of any label; precision
counts the tokens predicted with that label that are gold-positive under any label. A row with no gold
has no recall and a row with no prediction has no precision (``None``, not zero).
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from anonymed.document import Document, Span
from anonymed.errors import SpanError
from anonymed.evaluate.scores import rounded
from anonymed.evaluate.tokens import TokenIndex, coverage, fully_covered, tokenize
from anonymed.labels import Label

Pair = tuple[Document, Sequence[Span] | None]
KeyFn = Callable[[Span], str]


def _ratio(numerator: int, denominator: int) -> float | None:
    return None if denominator == 0 else numerator / denominator


@dataclass(frozen=True, slots=True)
class TokenCounts:
    """Token counts: gold tokens found / missed, predicted tokens correct / spurious."""

    found: int = 0
    missed: int = 0
    correct: int = 0
    spurious: int = 0

    @property
    def tp(self) -> int:
        """Gold-positive tokens that are predicted (the recall side's true positives)."""
        return self.found

    @property
    def fn(self) -> int:
        """Gold-positive tokens not predicted."""
        return self.missed

    @property
    def fp(self) -> int:
        """Predicted tokens that are not gold-positive."""
        return self.spurious

    @property
    def support(self) -> int:
        """Number of gold-positive tokens."""
        return self.found + self.missed

    @property
    def recall(self) -> float | None:
        """found / (found + missed), or None without gold tokens."""
        return _ratio(self.found, self.found + self.missed)

    @property
    def precision(self) -> float | None:
        """correct / (correct + spurious), or None without predicted tokens."""
        return _ratio(self.correct, self.correct + self.spurious)

    @property
    def f1(self) -> float | None:
        """Harmonic mean of precision and recall; None when either is undefined."""
        p, r = self.precision, self.recall
        if p is None or r is None:
            return None
        return 0.0 if p + r == 0 else 2 * p * r / (p + r)

    def to_json(self) -> dict[str, Any]:
        """Counts and scores (rounded to 4 decimals; null when undefined)."""
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "tp_predicted": self.correct,
            "support": self.support,
            "precision": rounded(self.precision),
            "recall": rounded(self.recall),
            "f1": rounded(self.f1),
        }


@dataclass(frozen=True, slots=True)
class EntityCounts:
    """Gold entities, and how many of them are entirely covered by predictions."""

    found: int = 0
    total: int = 0

    @property
    def recall(self) -> float | None:
        """found / total, or None without gold entities."""
        return _ratio(self.found, self.total)

    def to_json(self) -> dict[str, Any]:
        """Counts and recall."""
        return {"found": self.found, "total": self.total, "recall": rounded(self.recall)}


@dataclass(frozen=True, slots=True)
class Scores:
    """Token and entity scores of one row of the report (``overall``, a label or a full label)."""

    key: str
    tokens: TokenCounts
    entities: EntityCounts

    def to_json(self) -> dict[str, Any]:
        """The row as JSON."""
        return {"tokens": self.tokens.to_json(), "entities": self.entities.to_json()}


@dataclass(frozen=True, slots=True)
class DetectionReport:
    """Detection scores over a corpus, with the bookkeeping needed to trust them."""

    overall: Scores
    by_label: tuple[Scores, ...]
    by_full_label: tuple[Scores, ...]
    documents: int
    missing_predictions: int
    unknown_predictions: int
    ignored_gold_spans: int

    def to_json(self) -> dict[str, Any]:
        """The report as JSON (plain dicts, lists, numbers and null)."""
        return {
            "documents": self.documents,
            "missing_predictions": self.missing_predictions,
            "unknown_predictions": self.unknown_predictions,
            "ignored_gold_spans": self.ignored_gold_spans,
            "overall": self.overall.to_json(),
            "by_label": {row.key: row.to_json() for row in self.by_label},
            "by_full_label": {row.key: row.to_json() for row in self.by_full_label},
        }


@dataclass(slots=True)
class _Tally:
    """Mutable counters summed over documents, frozen into a Scores at the end."""

    found: int = 0
    missed: int = 0
    correct: int = 0
    spurious: int = 0
    entities_found: int = 0
    entities_total: int = 0

    def add_gold(self, found: int, missed: int, entities: tuple[int, int]) -> None:
        self.found += found
        self.missed += missed
        self.entities_found += entities[0]
        self.entities_total += entities[1]

    def add_predicted(self, correct: int, spurious: int) -> None:
        self.correct += correct
        self.spurious += spurious

    def freeze(self, key: str) -> Scores:
        tokens = TokenCounts(self.found, self.missed, self.correct, self.spurious)
        return Scores(key, tokens, EntityCounts(self.entities_found, self.entities_total))


def _label_key(span: Span) -> str:
    return span.label.value


def _full_label_key(span: Span) -> str:
    return span.full_label


_ORDER = {label.value: index for index, label in enumerate(Label)}


def _sort_key(key: str) -> tuple[int, str]:
    head, _, sub = key.partition("/")
    return _ORDER.get(head, len(_ORDER)), sub


def _group(spans: Iterable[Span], key: KeyFn) -> dict[str, list[Span]]:
    groups: dict[str, list[Span]] = defaultdict(list)
    for span in spans:
        groups[key(span)].append(span)
    return groups


def _split(positives: set[int], reference: set[int]) -> tuple[int, int]:
    """How many of ``positives`` are in ``reference``, and how many are not."""
    hits = len(positives & reference)
    return hits, len(positives) - hits


def _entities(text: str, gold: Iterable[Span], mask: bytearray) -> tuple[int, int]:
    """(found, total) gold entities with at least one token; found = all their tokens covered by ``mask``."""
    found = total = 0
    for span in gold:
        tokens = tokenize(text, span.start, span.end)
        if tokens:
            total += 1
            found += fully_covered(mask, tokens)
    return found, total


def _check_predicted(doc: Document, spans: Sequence[Span]) -> None:
    for span in spans:
        if span.end > len(doc.text) or doc.text[span.start : span.end] != span.text:
            raise SpanError(
                f"document {doc.id!r}: predicted span {span.start}-{span.end} does not match the text"
            )


class _Accumulator:
    """Sums per-document counts into the overall row and the per-label rows."""

    def __init__(self) -> None:
        self.overall = _Tally()
        self.rows: dict[KeyFn, dict[str, _Tally]] = {_label_key: {}, _full_label_key: {}}
        self.ignored = 0

    def add(self, doc: Document, predicted: Sequence[Span]) -> None:
        index = TokenIndex.of(doc.text)
        gold_pos, pred_pos = index.positives(doc.gold), index.positives(predicted)
        mask = coverage(len(doc.text), predicted)
        self.ignored += sum(1 for span in doc.gold if not tokenize(doc.text, span.start, span.end))
        self.overall.add_gold(*_split(gold_pos, pred_pos), _entities(doc.text, doc.gold, mask))
        self.overall.add_predicted(*_split(pred_pos, gold_pos))
        for key_fn, rows in self.rows.items():
            for key, spans in _group(doc.gold, key_fn).items():
                found_missed = _split(index.positives(spans), pred_pos)
                rows.setdefault(key, _Tally()).add_gold(*found_missed, _entities(doc.text, spans, mask))
            for key, spans in _group(predicted, key_fn).items():
                rows.setdefault(key, _Tally()).add_predicted(*_split(index.positives(spans), gold_pos))

    def rows_of(self, key_fn: KeyFn) -> tuple[Scores, ...]:
        rows: Mapping[str, _Tally] = self.rows[key_fn]
        return tuple(rows[key].freeze(key) for key in sorted(rows, key=_sort_key))


def evaluate_detection(pairs: Iterable[Pair], *, unknown_predictions: int = 0) -> DetectionReport:
    """Score predicted spans against each document's ``gold`` spans.

    ``pairs`` holds (document with gold, predicted spans) per document; ``None`` as the prediction means
    the document had no prediction record: it counts as all missed and in ``missing_predictions``.
    ``unknown_predictions`` (prediction records whose id matches no document) is reported as given.
    Raises ``SpanError`` (document id and offsets only) if a predicted span does not match the text.
    """
    acc = _Accumulator()
    documents = missing = 0
    for doc, predicted in pairs:
        documents += 1
        if predicted is None:
            missing += 1
        spans = tuple(predicted or ())
        _check_predicted(doc, spans)
        acc.add(doc, spans)
    return DetectionReport(
        overall=acc.overall.freeze("overall"),
        by_label=acc.rows_of(_label_key),
        by_full_label=acc.rows_of(_full_label_key),
        documents=documents,
        missing_predictions=missing,
        unknown_predictions=unknown_predictions,
        ignored_gold_spans=acc.ignored,
    )


def pair_by_id(
    gold: Iterable[Document], predicted: Iterable[tuple[str, Sequence[Span]]]
) -> tuple[list[Pair], list[str]]:
    """Match gold documents with (id, spans) prediction records; returns the pairs and the unmatched ids.

    A repeated id (corpora do hold duplicate records) is matched occurrence by occurrence: the k-th
    prediction with that id goes with the k-th document with that id. A document without a prediction is
    paired with ``None``; each prediction left over is listed (its id, repeated if need be).
    """
    queues: dict[str, deque[Sequence[Span]]] = defaultdict(deque)
    for record_id, spans in predicted:
        queues[record_id].append(spans)
    pairs: list[Pair] = []
    for doc in gold:
        queue = queues.get(doc.id)
        pairs.append((doc, queue.popleft() if queue else None))
    return pairs, [record_id for record_id, queue in queues.items() for _ in queue]


__all__ = [
    "DetectionReport",
    "EntityCounts",
    "Scores",
    "TokenCounts",
    "evaluate_detection",
    "pair_by_id",
]
