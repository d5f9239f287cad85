"""The audit benchmark: synthetic patients with known names and diagnoses, their notes, protected copies.

Every patient (a unique Faker name of two or three tokens) owns several distinct MTSamples notes; their
diagnoses are the union of those notes' diagnoses (``audit.mtsamples``). A simulated detector misses the
names of ``miss_rate`` of the patients in every note (Abdalla et al. leave 1% of names; a small corpus needs
a larger share for the tests to have any power, see the README). Protected copies: ``audit.protections``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from anonymed.audit.benchmark_notes import NameMaker, Person, write_note
from anonymed.audit.data import AuditData, Patient, name_tokens
from anonymed.audit.mtsamples import SourceNote, source_notes, source_vocabulary
from anonymed.audit.protections import DETECTING, PROTECTIONS, ProtectedCopy, protect
from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.randomness import RandomSource

DEFAULT_PROTECTIONS = ("removal", "replacement", "words", "sentences", "hybrid")
Progress = Callable[[str, int, int | None], None]


@dataclass(frozen=True)
class BenchmarkConfig:
    """How the benchmark corpus is made (defaults: the grid's default, about 1,500 notes)."""

    patients: int = 300
    min_notes: int = 4
    max_notes: int = 6
    miss_rate: float = 0.2
    middle_share: float = 0.3
    doctors: int = 25
    protections: tuple[str, ...] = DEFAULT_PROTECTIONS
    word_n: int = 5
    seed: int = 1

    def __post_init__(self) -> None:
        if self.patients < 2 or not 1 <= self.min_notes <= self.max_notes:
            raise ConfigError(
                f"need patients >= 2 and 1 <= min_notes <= max_notes, got {self.patients}, "
                f"{self.min_notes}-{self.max_notes}"
            )
        if not 0 <= self.miss_rate <= 1 or not 0 <= self.middle_share <= 1:
            raise ConfigError(f"miss_rate and middle_share must be in [0, 1], got {self.miss_rate}")
        unknown = set(self.protections) - set(PROTECTIONS)
        if unknown:
            raise ConfigError(f"unknown protections {sorted(unknown)}; known: {list(PROTECTIONS)}")


@dataclass(frozen=True)
class BenchmarkPatient:
    """A synthetic patient: id, full name, sex, diagnoses, note ids, and whether the detector misses them."""

    id: str
    name: str
    sex: str
    diagnoses: tuple[str, ...]
    notes: tuple[str, ...]
    missed: bool


@dataclass(frozen=True, eq=False)
class Benchmark:
    """The ground truth, the written notes (with gold NAME spans) and the protected copies."""

    config: BenchmarkConfig
    patients: tuple[BenchmarkPatient, ...]
    documents: tuple[Document, ...]
    copies: Mapping[str, ProtectedCopy]
    skipped: Mapping[str, str] = field(default_factory=dict)
    reused_notes: int = 0

    def corpus(self, protection: str) -> tuple[str, ...]:
        """The texts of a protected copy (``none``: the notes as written)."""
        if protection == "none":
            return tuple(doc.text for doc in self.documents)
        return self.copies[protection].texts

    def audit_data(self, protection: str) -> AuditData:
        """The attack's ground truth for a copy: subjects are the names that reach the last step."""
        subjects = [p for p in self.patients if p.missed or protection not in DETECTING]
        universe = sorted({d for p in self.patients for d in p.diagnoses})
        decoys = self.copies[protection].decoys if protection in self.copies else frozenset()
        return AuditData(
            tuple(Patient(name_tokens(p.name), frozenset(p.diagnoses)) for p in subjects),
            decoys,
            tuple(universe),
        )

    @property
    def available(self) -> tuple[str, ...]:
        """The protections with a copy (and ``none`` when asked for)."""
        return tuple(p for p in self.config.protections if p == "none" or p in self.copies)


def _allocate(
    notes: tuple[SourceNote, ...], people: list[Person], config: BenchmarkConfig, rng: RandomSource
) -> tuple[list[list[SourceNote]], int]:
    """Notes per person, matching the pronouns' sex where possible; reuse notes only when they run out."""
    pools: dict[str, list[SourceNote]] = {"F": [], "M": [], "U": []}

    def refill() -> None:
        """Put every note back, in a new random order."""
        order = [notes[i] for i in rng.integers(len(notes), size=len(notes)).argsort().tolist()]
        for note in order:
            pools[note.sex].append(note)

    refill()
    owned: list[list[SourceNote]] = []
    for person in people:
        wanted = config.min_notes + rng.randbelow(config.max_notes - config.min_notes + 1)
        mine: list[SourceNote] = []
        while len(mine) < wanted:
            order = [person.sex, "U", "M" if person.sex == "F" else "F"]
            pool = next((pools[s] for s in order if pools[s]), None)
            if pool is None:
                refill()
                continue
            mine.append(pool.pop())
        owned.append(mine)
    return owned, max(0, sum(map(len, owned)) - len(notes))


def make_benchmark(config: BenchmarkConfig | None = None, progress: Progress | None = None) -> Benchmark:
    """Generate patients and notes, then every protected copy of ``config.protections`` (seeded)."""
    config = config or BenchmarkConfig()
    rng = RandomSource(config.seed)
    notes = source_notes()
    maker = NameMaker(rng.spawn("names"), source_vocabulary(), config.middle_share)
    people = [maker.person("F" if rng.uniform() < 0.5 else "M") for _ in range(config.patients)]
    doctors = [maker.person("F").last for _ in range(config.doctors)]
    owned, reused = _allocate(notes, people, config, rng.spawn("notes"))
    missing = round(config.miss_rate * config.patients)
    missed_rows = set(rng.integers(1 << 62, size=config.patients).argsort()[:missing].tolist())
    patients: list[BenchmarkPatient] = []
    documents: list[Document] = []
    for row, (person, sources) in enumerate(zip(people, owned, strict=True)):
        pid, ids = f"p{row:05d}", []
        for source in sources:
            text, spans = write_note(source.text, person, doctors, rng.spawn(f"note:{len(documents)}"))
            doc_id = f"n{len(documents):06d}"
            documents.append(Document(doc_id, text, {"patient_id": pid, "source": source.id}, gold=spans))
            ids.append(doc_id)
        diagnoses = tuple(sorted({d for s in sources for d in s.diagnoses}))
        patients.append(
            BenchmarkPatient(pid, person.full, person.sex, diagnoses, tuple(ids), row in missed_rows)
        )
    missed = frozenset(p.id for p in patients if p.missed)
    copies, skipped = {}, {}
    for index, name in enumerate(p for p in config.protections if p != "none"):
        if progress is not None:
            progress("protecting", index, len(config.protections))
        copy = protect(name, documents, missed, seed=config.seed, word_n=config.word_n)
        if copy is None:
            skipped[name] = "anonymed.sentences.obfuscator is not available in this installation"
        else:
            copies[name] = copy
    return Benchmark(
        config, tuple(patients), tuple(documents), MappingProxyType(copies), MappingProxyType(skipped), reused
    )
