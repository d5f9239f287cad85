"""Agreement between two reviewers of the same notes: Cohen's kappa over the stretches either judged.

The units are, in every note both finished, each detected span (category: its final top-level label, or
``not PHI`` if rejected) and each group of overlapping missed-PHI marks of the two (category: the label a
reviewer gave it, or ``not PHI`` for the reviewer who did not mark it).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

from anonymed.review.decisions import DecisionLog, NoteState
from anonymed.review.folder import ReviewNote
from anonymed.review.outcome import Item, merge_marks, span_verdict

NOT_PHI = "not PHI"


def _categories(note: ReviewNote, first: NoteState, second: NoteState) -> tuple[list[str], list[str]]:
    a = [NOT_PHI if v is None else v.top for v in span_verdict(note, first)]
    b = [NOT_PHI if v is None else v.top for v in span_verdict(note, second)]
    marks = [
        [Item(s, e, label) for (s, e), label in sorted(state.marks.items())] for state in (first, second)
    ]
    for group in merge_marks(marks):
        for state, out in ((first, a), (second, b)):
            inside = [lab for (s, e), lab in state.marks.items() if s < group.end and group.start < e]
            out.append(inside[0].partition("/")[0] if inside else NOT_PHI)
    return a, b


def kappa(a: Sequence[str], b: Sequence[str]) -> float | None:
    """Cohen's kappa of two raters' categories (scikit-learn); None when it is undefined (one category)."""
    from sklearn.metrics import cohen_kappa_score

    if not a or len(set(a) | set(b)) < 2:
        return None
    value = float(cohen_kappa_score(list(a), list(b)))
    return None if math.isnan(value) else value


def agreement(notes: Sequence[ReviewNote], log: DecisionLog) -> list[dict[str, Any]]:
    """Kappa and raw agreement for every pair of reviewers who both finished at least one note."""
    pairs = []
    for first, second in itertools.combinations(log.reviewers(), 2):
        a: list[str] = []
        b: list[str] = []
        shared = 0
        for note in notes:
            one, two = log.state(first, note.key), log.state(second, note.key)
            if one.done and two.done:
                shared += 1
                x, y = _categories(note, one, two)
                a.extend(x)
                b.extend(y)
        if shared:
            agreed = sum(x == y for x, y in zip(a, b, strict=True))
            pairs.append(
                {
                    "reviewers": [first, second],
                    "notes": shared,
                    "units": len(a),
                    "observed_agreement": agreed / len(a) if a else None,
                    "kappa": kappa(a, b),
                }
            )
    return pairs
