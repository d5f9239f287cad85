"""What a review found in each note, merged over the reviewers who finished it.

A note counts once at least one reviewer marked it done. Its detected spans are *confirmed* (PHI) unless
every finishing reviewer rejected them: a span left undecided in a finished note was seen and not
rejected. Missed PHI is the union of every finishing reviewer's marks, overlapping marks counted once.
A confirmed span's label, and a merged mark's, is the one given by the first reviewer in id order.
The merge is conservative for privacy: one reviewer's "this is PHI" is enough.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from anonymed.review.decisions import DecisionLog, NoteState
from anonymed.review.folder import ReviewNote


@dataclass(frozen=True, slots=True)
class Item:
    """A labelled stretch of a note (``label`` is ``LABEL`` or ``LABEL/subtype``)."""

    start: int
    end: int
    label: str

    @property
    def top(self) -> str:
        """The top-level label (``NAME`` of ``NAME/patient``)."""
        return self.label.partition("/")[0]


@dataclass(frozen=True, slots=True)
class NoteOutcome:
    """One finished note: its design row, who finished it, and its confirmed, rejected and missed PHI."""

    key: str
    stratum: str
    tokens: int
    reviewers: tuple[str, ...]
    confirmed: tuple[Item, ...]
    rejected: tuple[Item, ...]
    missed: tuple[Item, ...]


def span_verdict(note: ReviewNote, state: NoteState) -> list[Item | None]:
    """Per detected span of ``note``: its final label in ``state``, or None if rejected."""
    verdicts: list[Item | None] = []
    for span in note.spans:
        decision, label = state.decisions.get((span.start, span.end), ("accept", None))
        if decision == "reject":
            verdicts.append(None)
        else:
            verdicts.append(
                Item(span.start, span.end, label if decision == "relabel" and label else span.full_label)
            )
    return verdicts


def merge_marks(groups: Iterable[Sequence[Item]]) -> list[Item]:
    """Union of several reviewers' marks: overlapping marks become one, labelled by the earliest group."""
    tagged = sorted(
        ((item, rank) for rank, group in enumerate(groups) for item in group), key=lambda p: p[0].start
    )
    merged: list[tuple[Item, int]] = []
    for item, rank in tagged:
        if merged and item.start < merged[-1][0].end:
            last, last_rank = merged[-1]
            label = last.label if last_rank <= rank else item.label
            merged[-1] = (Item(last.start, max(last.end, item.end), label), min(rank, last_rank))
        else:
            merged.append((item, rank))
    return [item for item, _ in merged]


def note_outcome(note: ReviewNote, states: Sequence[tuple[str, NoteState]]) -> NoteOutcome:
    """The merged outcome of one note from the states of the reviewers who finished it (id order)."""
    confirmed: list[Item] = []
    rejected: list[Item] = []
    verdicts = [span_verdict(note, state) for _, state in states]
    for index, span in enumerate(note.spans):
        kept = [v[index] for v in verdicts if v[index] is not None]
        if kept and kept[0] is not None:
            confirmed.append(kept[0])
        else:
            rejected.append(Item(span.start, span.end, span.full_label))
    marks = [[Item(s, e, label) for (s, e), label in sorted(state.marks.items())] for _, state in states]
    reviewers = tuple(reviewer for reviewer, _ in states)
    return NoteOutcome(
        note.key,
        note.stratum,
        note.tokens,
        reviewers,
        tuple(confirmed),
        tuple(rejected),
        tuple(merge_marks(marks)),
    )


def outcomes(notes: Sequence[ReviewNote], log: DecisionLog) -> list[NoteOutcome]:
    """The outcome of every note that at least one reviewer finished, in review order."""
    reviewers = log.reviewers()
    found = []
    for note in notes:
        states = [(r, log.state(r, note.key)) for r in reviewers if log.state(r, note.key).done]
        if states:
            found.append(note_outcome(note, states))
    return found
