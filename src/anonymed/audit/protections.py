"""Protected copies of the benchmark corpus, each made with anonymed's own operators.

* ``removal``: the names a detector found become ``[NAME]`` (tag operator); the missed ones stay.
* ``replacement``: the names found become Faker surrogates (fake operator); the missed ones stay.
* ``words``: every word replaced by a random near neighbour (shipped space, N = 5).
* ``sentences``: every sentence replaced by a near neighbour from the default bank (when installed).
* ``hybrid``: replacement, then word substitution; ``hybrid-sentences``: replacement, then sentences.
* ``none``: the corpus as written (a reference: what the attacks reach with nothing done).

Every protection is a method of ``anonymed.methods`` built with the benchmark's seed (the same outputs as
the CLI with that seed). The detector is simulated with the gold spans: the same patients are missed by
every detecting protection, whose methods only substitute (``stages=("substitute",)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.embeddings.tokenize import words
from anonymed.labels import Label
from anonymed.methods import HybridConfig, Method, MethodConfig, ReplaceConfig, SentencesConfig, WordsConfig

PROTECTIONS = ("none", "removal", "replacement", "words", "sentences", "hybrid", "hybrid-sentences")
#: protections whose first step is detect-and-remove/replace, so names it misses pass through
DETECTING = frozenset({"removal", "replacement", "hybrid", "hybrid-sentences"})
BATCH = 64  # documents per call (sentence substitution batches its encoder and index calls)


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


def protection(name: str, seed: int, word_n: int = 5) -> MethodConfig:
    """The method configuration of protection ``name`` (not ``none``) with ``seed``."""
    operator = "tag" if name == "removal" else "fake"
    pipeline = PipelineConfig(seed=seed, operators={Label.NAME: operator}, stages=("substitute",))
    configs: dict[str, MethodConfig] = {
        "removal": ReplaceConfig(pipeline),
        "replacement": ReplaceConfig(pipeline),
        "words": WordsConfig(n=str(word_n), seed=seed),
        "sentences": SentencesConfig(seed=seed),
        "hybrid": HybridConfig(pipeline, "words", n=str(word_n)),
        "hybrid-sentences": HybridConfig(pipeline, "sentences"),
    }
    return configs[name]


def protect(
    name: str, docs: Sequence[Document], missed: frozenset[str], *, seed: int, word_n: int = 5
) -> ProtectedCopy | None:
    """The copy of ``docs`` (with gold spans) protected by ``name``; None if that method is not available."""
    config = protection(name, seed, word_n)
    if config.unavailable() is not None:
        return None
    method: Method[Any] = config.build().load()
    texts: list[str] = []
    decoys: set[str] = set()
    for start in range(0, len(docs), BATCH):
        batch = [detected_spans(d, missed) if name in DETECTING else d for d in docs[start : start + BATCH]]
        for doc in method.run_many(batch):
            decoys.update(t for r in doc.replacements if r.operator == "fake" for t in words(r.surrogate))
            texts.append(doc.result)
    return ProtectedCopy(name, tuple(texts), frozenset(decoys))
