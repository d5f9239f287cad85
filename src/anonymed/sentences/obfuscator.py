"""Sentence substitution (Alves et al., sections 4.4-4.5): every sentence becomes a random near bank sentence.

Guarantees: each sentence of the input (as cut by ``splitter.py``) is replaced by one of its ``k`` nearest
bank sentences chosen uniformly at random, never by one whose normalised text (case-folded letters and
digits) equals its own; every sentence written comes from the bank, which was scrubbed when built; the
layout between sentences (spaces, line breaks, list markers, commas) is kept as it was. Queries go to the
encoder and to faiss in batches (up to 512 sentences a call, across documents with ``obfuscate_many``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.randomness import RandomSource, check_random_state
from anonymed.sentences.banks import SEARCH_BATCH, Bank, keys_of, load_bank
from anonymed.sentences.splitter import Sentence, layout, split_sentences


@dataclass(frozen=True)
class Result:
    """One obfuscated text and how many sentences it had."""

    text: str
    sentences: int


class SentenceObfuscator:
    """Replace every sentence with a random one of its ``k`` nearest sentences in a replacement bank.

    ``bank``: a ``Bank``, a bank folder, or None for the default MTSamples bank (shipped with anonymed);
    ``k``: how many neighbours to draw from (>= 2, the paper's 5); ``random_state``: None (secure) or a seed.
    """

    def __init__(
        self,
        bank: Bank | str | Path | None = None,
        k: int = 5,
        random_state: int | RandomSource | None = None,
    ) -> None:
        if isinstance(k, bool) or not isinstance(k, int) or k < 2:
            raise ConfigError(f"k (the number of neighbours to draw from) must be an integer >= 2, got {k!r}")
        self.bank = bank
        self.k = k
        self.random_state = random_state
        self.rng_ = check_random_state(random_state)
        self.bank_: Bank | None = bank if isinstance(bank, Bank) else None

    def loaded_bank(self) -> Bank:
        """The bank in use, loaded on first use."""
        if self.bank_ is None:
            if isinstance(self.bank, str | Path):
                self.bank_ = load_bank(self.bank)
            else:
                from anonymed.sentences.bank_build import default_bank

                self.bank_ = default_bank()
        if len(self.bank_) <= self.k:
            raise ConfigError(
                f"k={self.k} needs a bank of more than {self.k} sentences, this one has {len(self.bank_)}"
            )
        return self.bank_

    def transform(self, texts: Iterable[str]) -> list[str]:
        """Obfuscate each text; with a seed, text ``i`` always gets the same stream."""
        items = list(texts)
        streams = [self.rng_.spawn(f"text:{i}") for i in range(len(items))]
        return [result.text for result in self.obfuscate_texts(items, streams)]

    def obfuscate_document(self, doc: Document) -> Document:
        """The document with ``output`` obfuscated (from ``doc.result``) and counts under ``privacy``."""
        return self.obfuscate_many([doc])[0]

    __call__ = obfuscate_document

    def obfuscate_many(self, docs: Sequence[Document]) -> list[Document]:
        """Obfuscate several documents with one batch of encoder and index calls."""
        streams = [self.rng_.spawn(f"doc:{doc.id}") for doc in docs]
        results = self.obfuscate_texts([doc.result for doc in docs], streams)
        return [self._with_result(doc, result) for doc, result in zip(docs, results, strict=True)]

    def _with_result(self, doc: Document, result: Result) -> Document:
        bank = self.loaded_bank()
        report = {
            "method": "sentence_substitution",
            "k": self.k,
            "sentences": result.sentences,
            "bank": str(bank.meta.get("files", {}).get(bank.sentences_file, ""))[:16],
            "encoder": str(bank.encoder.spec().get("kind", "")),
        }
        return doc.evolve(output=result.text, privacy={**doc.privacy, "sentences": report})

    def obfuscate(self, text: str, rng: RandomSource) -> Result:
        """Replace every sentence of ``text`` (see the module docstring for the guarantees)."""
        return self.obfuscate_texts([text], [rng])[0]

    def obfuscate_texts(self, texts: Sequence[str], streams: Sequence[RandomSource]) -> list[Result]:
        """Obfuscate ``texts[i]`` with ``streams[i]``; sentences of all texts are searched together."""
        bank = self.loaded_bank()
        cuts = [split_sentences(text) for text in texts]
        pieces = [text[s.start : s.end] for text, found in zip(texts, cuts, strict=True) for s in found]
        rows = np.empty((len(pieces), self.k), dtype=np.int64)
        for start in range(0, len(pieces), SEARCH_BATCH):
            batch = pieces[start : start + SEARCH_BATCH]
            rows[start : start + len(batch)] = bank.neighbours(
                bank.encoder.encode(batch), keys_of(batch), self.k
            )
        results, position = [], 0
        for text, found, rng in zip(texts, cuts, streams, strict=True):
            mine = rows[position : position + len(found)]
            picks = mine[np.arange(len(found)), rng.integers(self.k, size=len(found))]
            results.append(Result(_assemble(text, found, bank.texts[picks].tolist()), len(found)))
            position += len(found)
        return results


def _assemble(text: str, found: list[Sentence], replacements: list[str]) -> str:
    """The layout of ``text`` with each sentence replaced."""
    gaps = layout(text, found)
    parts = [gaps[0]]
    for replacement, gap in zip(replacements, gaps[1:], strict=True):
        parts.extend((replacement, gap))
    return "".join(parts)
