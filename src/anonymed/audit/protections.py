"""Protected copies of the benchmark corpus, each made with anonymed's own operators.

* ``removal``: the names a detector found become ``[NAME]`` (tag operator); the missed ones stay.
* ``replacement``: the names found become Faker surrogates (fake operator); the missed ones stay.
* ``words``: every word replaced by a random near neighbour (WordObfuscator, shipped space, N = 5).
* ``sentences``: every sentence replaced by a near neighbour from a bank (``anonymed.obfuscate.sentences``).
* ``hybrid``: replacement, then word substitution; ``hybrid-sentences``: replacement, then sentences.
* ``none``: the corpus as written (a reference: what the attacks reach with nothing done).

The detector is simulated with the gold spans: the same patients are missed by every detecting protection.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.labels import Label
from anonymed.obfuscate.tokenize import words
from anonymed.pipeline import Pipeline

PROTECTIONS = ("none", "removal", "replacement", "words", "sentences", "hybrid", "hybrid-sentences")
#: protections whose first step is detect-and-remove/replace, so names it misses pass through
DETECTING = frozenset({"removal", "replacement", "hybrid", "hybrid-sentences"})
_SENTENCES = "anonymed.obfuscate.sentences"

Transform = Callable[[list[Document]], list[Document]]
BATCH = 64  # documents per sentence-substitution call (the encoder and faiss work in batches)


@dataclass(frozen=True)
class ProtectedCopy:
    """One protected copy: its texts (in note order) and the surrogate name tokens it wrote."""

    name: str
    texts: tuple[str, ...]
    decoys: frozenset[str]


def detected_spans(doc: Document, missed: frozenset[str]) -> Document:
    """The document with its gold spans as detections, less the names of missed patients."""
    keep = [s for s in doc.gold if not (s.subtype == "patient" and doc.patient_id in missed)]
    return doc.with_spans(keep)


def _substituter(operator: str, seed: int) -> Transform:
    config = PipelineConfig(seed=seed, operators={Label.NAME: operator}, stages=("substitute",))
    pipeline = Pipeline(config)
    return lambda docs: [pipeline.run(doc) for doc in docs]


def _words(seed: int, n: int) -> Transform:
    from anonymed.obfuscate.words import WordObfuscator

    obfuscator = WordObfuscator(n=n, random_state=seed)
    return lambda docs: [obfuscator.obfuscate_document(doc) for doc in docs]


def sentence_obfuscator(seed: int) -> Transform | None:
    """Sentence substitution with its default bank; None when ``anonymed.obfuscate.sentences`` is absent."""
    try:
        module = importlib.import_module(_SENTENCES)
    except ImportError:
        return None
    factory = getattr(module, "SentenceObfuscator", None)
    if factory is None:
        return None
    obfuscator = factory(random_state=seed)
    return lambda docs: list(obfuscator.obfuscate_many(docs))


def protect(
    name: str, docs: Sequence[Document], missed: frozenset[str], *, seed: int, word_n: int = 5
) -> ProtectedCopy | None:
    """The copy of ``docs`` (with gold spans) protected by ``name``; None if that method is not available."""
    steps: list[Transform] = []
    if name in DETECTING:
        steps.append(_substituter("tag" if name == "removal" else "fake", seed))
    if name in ("words", "hybrid"):
        steps.append(_words(seed, word_n))
    if name in ("sentences", "hybrid-sentences"):
        sentences = sentence_obfuscator(seed)
        if sentences is None:
            return None
        steps.append(sentences)
    texts: list[str] = []
    decoys: set[str] = set()
    for start in range(0, len(docs), BATCH):
        batch = [detected_spans(d, missed) if name in DETECTING else d for d in docs[start : start + BATCH]]
        for step in steps:
            batch = step(batch)
        for doc in batch:
            decoys.update(t for r in doc.replacements if r.operator == "fake" for t in words(r.surrogate))
            texts.append(doc.result)
    return ProtectedCopy(name, tuple(texts), frozenset(decoys))
