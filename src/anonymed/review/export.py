"""Learning from a review: allow/deny list entries and training annotations from the finished notes.

* ``allow.csv``: detected spans every finishing reviewer rejected (not PHI), as ``exact`` entries for the
  label they were flagged with, case-insensitive; a term also confirmed as PHI somewhere is left out.
* ``deny.csv``: missed PHI marks, as ``word`` entries with their label, case-sensitive (a missed "Will"
  must not flag every "will"); dates and ages are left out (their detectors work by format, and a literal
  date would flag doses and scores), as is a term also rejected somewhere.
* ``annotations.jsonl``: every finished note with its PHI (confirmed spans with their final labels, and
  the missed marks), for ``anonymed train recognizer --extra``; with ``holdout``, a random share of them
  is left out, so that ``anonymed review report --before-model --after-model`` can score the retrained
  model on reviewed notes it never saw (``learning.py``).

Formats: see the shared contracts (``term,label,match,case`` CSV; JSONL ``{id, text, lang, spans}``).
The deny list and the annotations hold PHI: they are written owner-only.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from anonymed.errors import ConfigError
from anonymed.labels import Label, parse_label
from anonymed.randomness import RandomSource
from anonymed.review.decisions import DecisionLog
from anonymed.review.folder import ReviewFolder, ReviewNote, write_text
from anonymed.review.outcome import Item, NoteOutcome, outcomes

LIST_HEADER = ("term", "label", "match", "case")
#: labels whose missed values do not become deny entries (found by format, not by a list of values)
NOT_DENIED = frozenset({Label.DATE.value, Label.AGE.value})


@dataclass(frozen=True)
class Exported:
    """What an export wrote: entry counts and what was left out (conflicts, multi-line terms)."""

    allow: int
    deny: int
    notes: int
    conflicts: int
    skipped: int
    held_out: int = 0

    def to_json(self) -> dict[str, int]:
        """Plain JSON."""
        return dict(self.__dict__)


def _term(note: ReviewNote, item: Item) -> str:
    return note.text[item.start : item.end]


def _list_csv(entries: Sequence[tuple[str, str, str, str]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(LIST_HEADER)
    writer.writerows(entries)
    return buffer.getvalue()


def _entries(
    folder: ReviewFolder, found: Sequence[NoteOutcome]
) -> tuple[list[tuple[str, str, str, str]], list[tuple[str, str, str, str]], int, int]:
    confirmed: set[tuple[str, str]] = set()
    rejected: dict[tuple[str, str], str] = {}
    missed: dict[tuple[str, str], str] = {}
    skipped = 0
    for outcome in found:
        note = folder.by_key[outcome.key]
        for item in outcome.confirmed:
            confirmed.add((_term(note, item).casefold(), item.top))
        for group, target in ((outcome.rejected, rejected), (outcome.missed, missed)):
            for item in group:
                term = _term(note, item)
                if "\n" in term or "\r" in term or term != term.strip():
                    skipped += 1
                    continue
                target.setdefault((term, item.label), item.top)
    rejected_terms = {(term.casefold(), top) for (term, _), top in rejected.items()}
    allow, deny, conflicts = [], [], 0
    for (term, label), top in sorted(rejected.items()):
        if (term.casefold(), top) in confirmed or any(term.casefold() == t.casefold() for t, _ in missed):
            conflicts += 1
        else:
            allow.append((term, label, "exact", "insensitive"))
    for (term, label), top in sorted(missed.items()):
        if top in NOT_DENIED:
            continue
        if (term.casefold(), top) in rejected_terms:
            conflicts += 1
        else:
            deny.append((term, label, "word", "sensitive"))
    return allow, deny, conflicts, skipped


def _annotation(note: ReviewNote, outcome: NoteOutcome) -> dict[str, Any]:
    spans = []
    for item in sorted((*outcome.confirmed, *outcome.missed), key=lambda i: (i.start, i.end)):
        label, subtype = parse_label(item.label)
        spans.append({"start": item.start, "end": item.end, "label": label.value, "subtype": subtype})
    return {"id": note.id, "text": note.text, "lang": note.lang, "spans": spans}


def export(
    folder: ReviewFolder, output: Path, *, holdout: float = 0.0, rng: RandomSource | None = None
) -> Exported:
    """Write ``allow.csv``, ``deny.csv`` and ``annotations.jsonl`` into ``output`` from the finished notes.

    ``holdout`` (a share in [0, 1), drawn with ``rng``) of the finished notes is left out of the
    annotations (the lists still use every note).
    """
    if not 0 <= holdout < 1:
        raise ConfigError(f"--holdout must be in [0, 1), got {holdout}")
    found = outcomes(folder.notes, DecisionLog(folder.decisions_path, writable=False))
    allow, deny, conflicts, skipped = _entries(folder, found)
    kept = list(found)
    if holdout > 0:
        if rng is None:
            raise ConfigError("a hold-out needs a random source")
        keep = len(found) - round(holdout * len(found))
        chosen = set(rng.python.sample(range(len(found)), keep))
        kept = [outcome for i, outcome in enumerate(found) if i in chosen]
    output.mkdir(parents=True, exist_ok=True, mode=0o700)
    write_text(output / "allow.csv", _list_csv(allow))
    write_text(output / "deny.csv", _list_csv(deny))
    lines = [json.dumps(_annotation(folder.by_key[o.key], o), ensure_ascii=False) + "\n" for o in kept]
    write_text(output / "annotations.jsonl", "".join(lines))
    return Exported(len(allow), len(deny), len(kept), conflicts, skipped, len(found) - len(kept))
