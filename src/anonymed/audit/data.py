"""What the auditor knows: the true full names, each patient's diagnoses, and the attacker's name tokens."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from anonymed.embeddings.tokenize import words
from anonymed.errors import InputError


def name_tokens(name: str) -> tuple[str, ...]:
    """The lower-cased word tokens of a name as an embedding sees them (``"O'Neil Ann"``: o, neil, ann)."""
    return tuple(words(name))


def diagnosis_key(text: str) -> str:
    """A diagnosis normalised to its lower-cased word tokens joined by single spaces."""
    return " ".join(words(text))


@dataclass(frozen=True)
class Patient:
    """One patient: the tokens of their full name and their diagnoses (normalised phrases)."""

    name: tuple[str, ...]
    diagnoses: frozenset[str] = frozenset()

    @classmethod
    def of(cls, name: str, diagnoses: Iterable[str] = ()) -> Patient:
        """Normalise a written name and written diagnoses."""
        return cls(name_tokens(name), frozenset(d for d in map(diagnosis_key, diagnoses) if d))


@dataclass(frozen=True)
class AuditData:
    """The ground truth of an audit.

    ``patients``: the subjects (true names and diagnoses). ``decoys``: other name-looking tokens an attacker
    would also collect (surrogates written by PHI replacement, say); the attacker's candidate list is the
    patients' name tokens plus the decoys. ``diagnoses``: the diagnosis universe (default: every diagnosis
    of the patients); a larger population can be given so out-groups cover it.
    """

    patients: tuple[Patient, ...]
    decoys: frozenset[str] = frozenset()
    diagnoses: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.diagnoses:
            universe = sorted({d for p in self.patients for d in p.diagnoses})
            object.__setattr__(self, "diagnoses", tuple(universe))

    @property
    def candidates(self) -> tuple[str, ...]:
        """The attacker's name tokens: every patient's name tokens and the decoys, sorted, once each."""
        return tuple(sorted({t for p in self.patients for t in p.name} | set(self.decoys)))

    def true_pairs(self) -> frozenset[tuple[str, str]]:
        """Unordered token pairs (sorted tuples) that belong to one patient's full name."""
        pairs: set[tuple[str, str]] = set()
        for patient in self.patients:
            tokens = sorted(set(patient.name))
            pairs.update((a, b) for i, a in enumerate(tokens) for b in tokens[i + 1 :])
        return frozenset(pairs)


def read_names(path: Path) -> list[str]:
    """Full names, one per line (blank lines and ``#`` comments skipped)."""
    lines = _lines(path)
    return [line for line in lines if line and not line.startswith("#")]


def read_tokens(path: Path) -> frozenset[str]:
    """Name tokens (or names: every word counts), whitespace separated."""
    return frozenset(t for line in read_names(path) for t in name_tokens(line))


def read_diagnoses(path: Path) -> list[Patient]:
    """Per-patient diagnoses: JSONL ``{"name": ..., "diagnoses": [...]}`` or TSV ``name<TAB>diag; diag``."""
    patients: list[Patient] = []
    for number, line in enumerate(_lines(path), start=1):
        if not line or line.startswith("#"):
            continue
        if line.startswith("{"):
            patients.append(_json_patient(path, number, line))
            continue
        name, tab, rest = line.partition("\t")
        if not tab:
            raise InputError(path.name, f"line {number}: expected 'name<TAB>diagnosis; diagnosis'")
        patients.append(Patient.of(name, rest.split(";")))
    return patients


def _json_patient(path: Path, number: int, line: str) -> Patient:
    try:
        record = json.loads(line)
        name, diagnoses = record["name"], record["diagnoses"]
    except (ValueError, KeyError, TypeError):
        raise InputError(
            path.name, f"line {number}: expected a JSON object with name and diagnoses"
        ) from None
    if not isinstance(name, str) or not isinstance(diagnoses, list):
        raise InputError(path.name, f"line {number}: name must be a string and diagnoses a list")
    return Patient.of(name, [str(d) for d in diagnoses])


def _lines(path: Path) -> Sequence[str]:
    try:
        return [line.strip() for line in Path(path).read_text(encoding="utf-8").splitlines()]
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(Path(path).name, f"cannot read: {type(exc).__name__}") from None


def merge_patients(names: Iterable[str], with_diagnoses: Iterable[Patient]) -> tuple[Patient, ...]:
    """Patients from ``--diagnoses`` plus the names of ``--names`` that have no diagnoses line."""
    patients = list(with_diagnoses)
    known = {p.name for p in patients}
    for name in names:
        tokens = name_tokens(name)
        if tokens and tokens not in known:
            known.add(tokens)
            patients.append(Patient(tokens))
    return tuple(patients)
