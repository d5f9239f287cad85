"""Notes and helpers shared by the review tests: a small input with PHI the pattern detector misses."""

from __future__ import annotations

import json
from pathlib import Path

from anonymed.config import PipelineConfig
from anonymed.io.registry import open_reader
from anonymed.randomness import check_random_state
from anonymed.review.folder import ReviewFolder
from anonymed.review.sample import SampleOptions, build_review

#: a name the pattern detector misses; a reviewer marks it, and it must never reach a log or a report
PLANTED = "Zebulon Quackenbush"
NOTES = [
    ("n1", f"Seen by Dr. {PLANTED} on 02/12/2020. Call 617-555-0123 for results."),
    ("n2", "Patient Mary Quince, 45 yo, admitted 3/14/2019 to ward 5."),
    ("n3", "No complaints today. Vitals stable overnight."),
    ("n4", "MRN 12345678. Follow up with Lucas Pretorius next week."),
    ("n5", "Discharged home on 04/01/2021 with her daughter."),
    ("n6", "Afebrile. Tolerating diet. Plan unchanged."),
]
PATTERNS = PipelineConfig(detectors=("patterns",))


def write_input(path: Path, notes: list[tuple[str, str]] = NOTES) -> Path:
    """The notes as JSONL (``id``, ``text``, ``kind``)."""
    kinds = ["visit", "admission"]
    lines = [json.dumps({"id": i, "text": t, "kind": kinds[k % 2]}) for k, (i, t) in enumerate(notes)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def make_folder(
    tmp: Path, n: int = len(NOTES), notes: list[tuple[str, str]] = NOTES, **options: object
) -> ReviewFolder:
    """A review folder over the notes (every one unless told; one stratum unless told), drawn with a seed."""
    source = write_input(tmp / "notes.jsonl", notes)
    chosen = {"oversample": 1.0, "length_bands": 1, **options}
    build_review(
        open_reader(source),
        PATTERNS,
        SampleOptions(n=n, **chosen),
        tmp / "review",
        check_random_state(7),  # type: ignore[arg-type]
    )
    return ReviewFolder(tmp / "review")


def note_by_id(folder: ReviewFolder, note_id: str):  # type: ignore[no-untyped-def]
    """The sampled note with this id."""
    return next(note for note in folder.notes if note.id == note_id)
