"""Anonymization sensitivity: how much of each gold PHI entity survives in an anonymized text.

Definitions (for a note with gold entities E and its anonymized text A; thresholds in ``AnonymityParams``):

* Normalisation: case-folded, every run of whitespace collapsed to one space. Tokens are maximal
  alphanumeric runs (``evaluate.tokens``). An entity's surface ``e`` is its normalised text from its first
  to its last token; an entity without any token cannot leak a word and is left out (counted apart).
* SMR (string-matching recall): share of entities whose surface no longer occurs in the normalised A
  (as a substring, as in Pissarra et al.; ``whole_words=True`` asks for token boundaries on both sides).
* s(e): the highest normalised Levenshtein similarity ``1 - lev(e, w) / max(|e|, |w|)`` between ``e`` and
  any window ``w`` of A spanning the same number of tokens as ``e`` (from the first character of its first
  token to the last of its last, in the normalised A). If A has fewer tokens, the one window is all of them;
  if A has no token, s(e) = 0.
* ALID: mean over entities of ``1 - s(e)``. LR: share of entities with ``s(e) < tau``.
* LRDI / LRQI: LR over the direct identifiers / the quasi-identifiers (``direct`` / ``quasi``: labels or
  ``LABEL/subtype`` full labels; a span matches by full label first, then by label).

Scores are computed per note and averaged over the notes where they are defined (``macro``, as in Figure 1
of Alves et al.), and also pooled over all entities (``micro``). Higher is better for every metric.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from anonymed.document import Document, Span
from anonymed.errors import ConfigError
from anonymed.evaluate.scores import rounded
from anonymed.evaluate.tokens import TOKEN_RE

_SPACES = re.compile(r"\s+")
DIRECT = ("NAME", "CONTACT/phone", "CONTACT/fax", "CONTACT/email", "ID")
QUASI = ("LOCATION", "DATE", "CONTACT/url", "AGE/over89", "ORGANIZATION")


def normalise(text: str) -> str:
    """Case-folded, whitespace runs collapsed to one space, stripped."""
    return _SPACES.sub(" ", text.casefold()).strip()


@dataclass(frozen=True)
class AnonymityParams:
    """Thresholds and groupings of the anonymity metrics."""

    tau: float = 0.85
    direct: tuple[str, ...] = DIRECT
    quasi: tuple[str, ...] = QUASI
    whole_words: bool = False

    def __post_init__(self) -> None:
        if not 0.0 < self.tau <= 1.0:
            raise ConfigError(f"tau must be in (0, 1], got {self.tau!r}")
        both = set(self.direct) & set(self.quasi)
        if both:
            raise ConfigError(f"labels {sorted(both)} are both direct and quasi-identifiers")

    def group(self, span: Span) -> str | None:
        """``direct``, ``quasi`` or None for a gold span."""
        for key in (span.full_label, span.label.value):
            if key in self.direct:
                return "direct"
            if key in self.quasi:
                return "quasi"
        return None


@dataclass(frozen=True, slots=True)
class EntityResult:
    """What survives of one gold entity: still present verbatim, and its best window similarity."""

    label: str
    group: str | None
    removed: bool
    similarity: float


@dataclass(frozen=True)
class Scores:
    """SMR, ALID, LR, LRDI, LRQI (None where no entity of the kind) and the entity counts behind them."""

    smr: float | None = None
    alid: float | None = None
    lr: float | None = None
    lrdi: float | None = None
    lrqi: float | None = None
    counts: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Rounded scores (null when undefined) and counts."""
        names = ("smr", "alid", "lr", "lrdi", "lrqi")
        data: dict[str, Any] = {n: rounded(getattr(self, n)) for n in names}
        return {**data, "counts": dict(self.counts)}


def _mean(values: Sequence[float]) -> float | None:
    return float(np.mean(values)) if values else None


def scores_of(results: Sequence[EntityResult], tau: float) -> Scores:
    """The five metrics over a group of entity results (one note, or pooled)."""
    direct = [r.similarity < tau for r in results if r.group == "direct"]
    quasi = [r.similarity < tau for r in results if r.group == "quasi"]
    return Scores(
        smr=_mean([float(r.removed) for r in results]),
        alid=_mean([1.0 - r.similarity for r in results]),
        lr=_mean([float(r.similarity < tau) for r in results]),
        lrdi=_mean([float(x) for x in direct]),
        lrqi=_mean([float(x) for x in quasi]),
        counts={"entities": len(results), "direct": len(direct), "quasi": len(quasi)},
    )


def _token_ends(text: str) -> tuple[list[int], list[int]]:
    spans = [m.span() for m in TOKEN_RE.finditer(text)]
    return [s for s, _ in spans], [e for _, e in spans]


def _surface(text: str) -> tuple[str, int]:
    """The normalised entity from its first to its last token, and its token count (0: no token)."""
    norm = normalise(text)
    starts, ends = _token_ends(norm)
    if not starts:
        return "", 0
    return norm[starts[0] : ends[-1]], len(starts)


def _windows(text: str, size: int, cache: dict[int, list[str]]) -> list[str]:
    """Every window of ``size`` consecutive tokens of the normalised ``text`` (all tokens if fewer)."""
    if size not in cache:
        starts, ends = _token_ends(text)
        width = min(size, len(starts))
        count = len(starts) - width + 1 if starts else 0
        cache[size] = [text[starts[i] : ends[i + width - 1]] for i in range(count)]
    return cache[size]


def _present(surface: str, text: str, whole_words: bool) -> bool:
    if not whole_words:
        return surface in text
    return re.search(rf"(?<![^\W_]){re.escape(surface)}(?![^\W_])", text) is not None


def entity_results(
    entities: Sequence[Span], anonymized: str, params: AnonymityParams | None = None
) -> tuple[list[EntityResult], int]:
    """One result per gold entity with at least one token, and the number of entities left out."""
    params = params or AnonymityParams()
    target = normalise(anonymized)
    cache: dict[int, list[str]] = {}
    by_size: dict[int, list[tuple[int, str]]] = defaultdict(list)
    kept: list[Span] = []
    for span in entities:
        surface, size = _surface(span.text)
        if size:
            by_size[size].append((len(kept), surface))
            kept.append(span)
    best = np.zeros(len(kept))
    for size, items in by_size.items():
        windows = _windows(target, size, cache)
        if windows:
            matrix = process.cdist(
                [s for _, s in items], windows, scorer=Levenshtein.normalized_similarity, dtype=np.float64
            )
            best[[i for i, _ in items]] = matrix.max(axis=1)
    surfaces = {i: s for items in by_size.values() for i, s in items}
    results = [
        EntityResult(
            span.full_label,
            params.group(span),
            not _present(surfaces[i], target, params.whole_words),
            best[i],
        )
        for i, span in enumerate(kept)
    ]
    return results, len(entities) - len(kept)


@dataclass(frozen=True)
class AnonymityReport:
    """Anonymity metrics over a corpus: note-averaged, pooled, and per gold label (pooled)."""

    macro: Scores
    micro: Scores
    by_label: dict[str, Scores]
    documents: int
    documents_with_entities: int
    ignored_entities: int
    params: AnonymityParams

    def to_json(self) -> dict[str, Any]:
        """The report as JSON."""
        return {
            "macro": self.macro.to_json(),
            "micro": self.micro.to_json(),
            "by_label": {key: value.to_json() for key, value in self.by_label.items()},
            "documents": self.documents,
            "documents_with_entities": self.documents_with_entities,
            "ignored_entities": self.ignored_entities,
            "params": {
                "tau": self.params.tau,
                "direct": list(self.params.direct),
                "quasi": list(self.params.quasi),
                "whole_words": self.params.whole_words,
            },
        }


def _macro(notes: list[Scores]) -> Scores:
    def mean(name: str) -> float | None:
        return _mean([v for note in notes if (v := getattr(note, name)) is not None])

    counts = {
        "notes": len(notes),
        "notes_direct": sum(note.lrdi is not None for note in notes),
        "notes_quasi": sum(note.lrqi is not None for note in notes),
    }
    return Scores(mean("smr"), mean("alid"), mean("lr"), mean("lrdi"), mean("lrqi"), counts)


def evaluate_anonymity(
    pairs: Iterable[tuple[Document, str]], params: AnonymityParams | None = None
) -> AnonymityReport:
    """Score (document with gold spans, anonymized text) pairs; see the module docstring."""
    params = params or AnonymityParams()
    notes: list[Scores] = []
    pooled: list[EntityResult] = []
    documents = ignored = 0
    for doc, anonymized in pairs:
        documents += 1
        results, left_out = entity_results(doc.gold, anonymized, params)
        ignored += left_out
        if results:
            notes.append(scores_of(results, params.tau))
            pooled.extend(results)
    labels: dict[str, list[EntityResult]] = defaultdict(list)
    for result in pooled:
        labels[result.label].append(result)
    return AnonymityReport(
        macro=_macro(notes),
        micro=scores_of(pooled, params.tau),
        by_label={key: scores_of(labels[key], params.tau) for key in sorted(labels)},
        documents=documents,
        documents_with_entities=len(notes),
        ignored_entities=ignored,
        params=params,
    )


__all__ = [
    "AnonymityParams",
    "AnonymityReport",
    "EntityResult",
    "Scores",
    "entity_results",
    "evaluate_anonymity",
    "normalise",
    "scores_of",
]
