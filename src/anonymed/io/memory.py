"""Patient memory: the names the detectors found with confidence in any note of a patient, written as a
known side file (``[known] side_file``) so that a second run looks for them in every note of that patient.

A name missed in one note (a surname split by a typo, a bare surname without a title) is often found whole
in another note of the same patient; ``anonymed detect --patient-field F --memory FILE`` writes the file
and ``anonymed deid --patient-field F --known-side-file FILE`` uses it. One JSON line per patient:
``{"patient_id": "...", "known": [{"kind": "NAME/patient", "value": "..."}, ...]}``, patients sorted. The
file holds names: it is as secret as the notes (written with the outputs' permissions).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Final

from anonymed.detect.known.people import name_keys, weak
from anonymed.document import Document
from anonymed.io.atomic import output_mode, write_atomically
from anonymed.io.base import ReadFailure, Writer
from anonymed.io.common import dumps
from anonymed.io.known import SIDE_KNOWN
from anonymed.known import MAX_ITEMS, Known, harvest_names

#: the score a found name needs to be remembered (the tagger's marginal probability, a rule's score)
DEFAULT_MIN_SCORE: Final = 0.9


class PatientMemoryWriter(Writer):
    """Collects each patient's confidently found names; writes them as a known side file on commit.

    A name of one word that is a common word of the note's language or has three letters or less is not
    remembered ("small" read as a name once would be looked for in every note). At most ``MAX_ITEMS`` names
    per patient are kept, the most often found first; documents without a patient id and failed records add
    nothing.
    """

    format = "patient-memory"

    def __init__(self, path: Path, *, min_score: float = DEFAULT_MIN_SCORE) -> None:
        super().__init__(Path(path))
        self.min_score = min_score
        self.names: dict[str, Counter[Known]] = {}

    def write(self, doc: Document) -> None:
        """Remember the document's names under its patient."""
        patient = doc.patient_id
        if patient is not None:
            found = harvest_names(doc.spans, min_score=self.min_score)
            kept = (known for known in found if _specific(known, doc.lang))
            self.names.setdefault(patient, Counter()).update(kept)

    def write_failure(self, failure: ReadFailure) -> None:
        """A failed record adds nothing."""

    def known_of(self, patient: str) -> list[dict[str, str]]:
        """The names remembered for ``patient`` in the contract's form, the most often found first."""
        counts = self.names.get(patient, Counter())
        return [known.to_json() for known, _ in counts.most_common(MAX_ITEMS)]

    def commit(self) -> None:
        """Write the side file atomically: one line per patient who has a remembered name."""
        lines = []
        for patient in sorted(self.names):
            kept = self.known_of(patient)
            if kept:
                lines.append(dumps({"patient_id": patient, SIDE_KNOWN: kept}) + "\n")
        write_atomically(self.path, "".join(lines), mode=output_mode())

    def abort(self) -> None:
        """Forget everything; nothing was written."""
        self.names.clear()


def _specific(known: Known, lang: str) -> bool:
    """Whether a found name says enough to be looked for everywhere: two words or more, or one strong word."""
    words = name_keys(known.value)
    return len(words) > 1 or (len(words) == 1 and not weak(words[0], lang))
