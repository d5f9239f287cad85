"""Building banks: split a de-identified corpus, scrub, de-duplicate, encode, index; pack; the default bank.

Scrubbing: every note goes through the detect stage of a de-identification pipeline (the default detectors
plus the lexicons, at high recall) and every sentence that overlaps anything it finds is dropped, so fake
names and dates left in a "de-identified" corpus do not come back out of the bank (the paper traces part of
its sensitivity loss to them). A normalised text that was flagged anywhere is dropped everywhere.

Packing makes a bank small enough to ship: product-quantised index (``IndexParams(kind="ivfpq")``), Doc2Vec
kept for inference with int8 weights, sentences xz-compressed. The default bank (Doc2Vec on the shipped
MTSamples, packed) ships in ``resources/banks/mtsamples-doc2vec``; ``anonymed bank build --default -o DIR``
rebuilds it (see PROVENANCE.md there).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from anonymed.config import PipelineConfig
from anonymed.detect.registry import DEFAULT_DETECTORS
from anonymed.document import Document
from anonymed.errors import ConfigError, ResourceError
from anonymed.pipeline import Pipeline
from anonymed.sentences.banks import Bank, IndexParams, Progress, build_index, key_of, load_bank
from anonymed.sentences.encoders import Doc2VecEncoder, Doc2VecParams, SentenceEncoder, TransformerEncoder
from anonymed.sentences.splitter import split_sentences

ENCODE_CHUNK = 1024
#: the scrubbing detectors: the pipeline's defaults and the name and place lexicons (recall matters most)
SCRUB_DETECTORS = tuple(dict.fromkeys((*DEFAULT_DETECTORS, "patterns", "lexicons")))
DEFAULT_BANK = Path(__file__).resolve().parents[1] / "resources" / "banks" / "mtsamples-doc2vec"
#: the index of a packed bank: IVF lists over product-quantised residuals, 128 bytes per 256-d sentence
PACKED_INDEX = IndexParams(kind="ivfpq", pq_m=128)


@dataclass(frozen=True)
class BankParams:
    """What goes into a bank: encoder ("doc2vec", "minilm" or a model folder), hygiene, index."""

    encoder: str = "doc2vec"
    doc2vec: Doc2VecParams = field(default_factory=Doc2VecParams)
    index: IndexParams = field(default_factory=IndexParams)
    scrub: bool = True
    high_recall: bool = True
    lang: str = "en"
    max_chars: int = 400
    min_chars: int = 2
    seed: int = 0

    def __post_init__(self) -> None:
        if self.max_chars < self.min_chars or self.min_chars < 1:
            raise ConfigError(f"need 1 <= min_chars <= max_chars, got {self.min_chars}, {self.max_chars}")


@dataclass
class Collected:
    """Scrubbed, de-duplicated sentences and what was left out (counts only)."""

    sentences: list[str] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    dropped_labels: Counter[str] = field(default_factory=Counter)


def collect_sentences(
    corpus: Iterable[str | Document],
    params: BankParams,
    pipeline: Pipeline | None = None,
    progress: Progress | None = None,
) -> Collected:
    """Split, scrub and de-duplicate (by normalised text) the sentences of ``corpus``."""
    found = Collected()
    flagged: set[int] = set()
    kept: dict[int, str] = {}
    seen_notes: set[int] = set()
    for number, doc in enumerate(_documents(corpus), start=1):
        note_key = key_of(doc.text) if doc.text.strip() else 0
        if note_key in seen_notes:
            found.counts["duplicate_notes"] += 1
            continue
        seen_notes.add(note_key)
        found.counts["notes"] += 1
        spans = pipeline.detect(doc).spans if pipeline is not None else ()
        for sentence in split_sentences(doc.text):
            text = doc.text[sentence.start : sentence.end]
            found.counts["sentences"] += 1
            labels = {s.label.value for s in spans if s.start < sentence.end and sentence.start < s.end}
            key = key_of(text)
            if labels:
                found.counts["dropped_phi"] += 1
                found.dropped_labels.update(labels)
                flagged.add(key)
            elif not params.min_chars <= len(text) <= params.max_chars:
                found.counts["dropped_length"] += 1
            elif key in kept:
                found.counts["duplicates"] += 1
            else:
                kept[key] = text
        if progress is not None:
            progress("scrub", number, None)
    found.sentences = [text for key, text in kept.items() if key not in flagged]
    found.counts["dropped_flagged_elsewhere"] = len(kept) - len(found.sentences)
    found.counts["kept"] = len(found.sentences)
    return found


def _documents(corpus: Iterable[str | Document]) -> Iterator[Document]:
    for i, item in enumerate(corpus):
        yield item if isinstance(item, Document) else Document(f"bank-{i}", item)


def build_bank(
    corpus: Iterable[str | Document],
    params: BankParams | None = None,
    *,
    config: PipelineConfig | None = None,
    progress: Progress | None = None,
) -> Bank:
    """A bank from a de-identified corpus (texts or documents); ``config`` sets the scrubbing detectors."""
    params = params or BankParams()
    pipeline = None
    if params.scrub:
        default = PipelineConfig(lang=params.lang, detectors=SCRUB_DETECTORS, high_recall=params.high_recall)
        pipeline = Pipeline(config or default)
    collected = collect_sentences(corpus, params, pipeline, progress)
    sentences = collected.sentences
    if len(sentences) < 2:
        raise ConfigError(f"the corpus gave {len(sentences)} usable sentences; a bank needs at least 2")
    encoder, vectors = _encode(sentences, params, progress)
    if progress is not None:
        progress("index", 0, 1)
    index = build_index(vectors, params.index, params.seed)
    if progress is not None:
        progress("index", 1, 1)
    keys = np.fromiter((key_of(s) for s in sentences), dtype=np.uint64, count=len(sentences))
    meta: dict[str, Any] = {
        "counts": dict(collected.counts),
        "dropped_labels": dict(collected.dropped_labels),
        "scrub": {
            "enabled": params.scrub,
            "detectors": list(pipeline.config.detectors) if pipeline is not None else [],
            "high_recall": pipeline.config.high_recall if pipeline is not None else None,
            "lang": params.lang,
        },
        "lengths": {"min_chars": params.min_chars, "max_chars": params.max_chars},
        "index": {"kind": params.index.chosen(len(sentences))},
    }
    return Bank(tuple(sentences), keys, index, encoder, params.index, meta)


def make_encoder(name: str | Path) -> SentenceEncoder:
    """A pre-trained encoder by name or folder ("minilm", a sentence-transformers folder)."""
    return TransformerEncoder(name)


def _encode(
    sentences: list[str], params: BankParams, progress: Progress | None
) -> tuple[SentenceEncoder, npt.NDArray[np.float32]]:
    if params.encoder == "doc2vec":
        doc2vec = Doc2VecEncoder.train(sentences, params.doc2vec, progress)
        return doc2vec, doc2vec.trained_vectors()
    encoder = make_encoder(params.encoder)
    vectors = np.empty((len(sentences), encoder.dim), dtype=np.float32)
    for start in range(0, len(sentences), ENCODE_CHUNK):
        stop = min(start + ENCODE_CHUNK, len(sentences))
        vectors[start:stop] = encoder.encode(sentences[start:stop])
        if progress is not None:
            progress("encode", stop, len(sentences))
    return encoder, vectors


def pack_bank(bank: Bank, index: IndexParams = PACKED_INDEX, seed: int = 0) -> Bank:
    """``bank`` made small enough to ship: ``index`` rebuilt from its vectors, Doc2Vec compacted, xz text."""
    from anonymed.sentences.encoders import Doc2VecEncoder

    if not isinstance(bank.encoder, Doc2VecEncoder):
        raise ConfigError("only Doc2Vec banks can be packed (other encoders are not stored in the bank)")
    vectors = bank.index.reconstruct_n(0, len(bank))
    packed = build_index(vectors, index, seed)
    meta = {**bank.meta, "index": {"kind": index.chosen(len(bank))}, "packed": {"from_index": bank.kind}}
    return Bank(bank.sentences, bank.keys, packed, bank.encoder.compact(), index, meta, packed=True)


def build_default_bank(path: Path, progress: Progress | None = None) -> Path:
    """Build the default bank (Doc2Vec on the shipped MTSamples, packed) into ``path`` (takes minutes)."""
    from anonymed.io.corpus import MTSAMPLES, MTSAMPLES_OPTIONS, documents, open_corpus

    failures: list[Any] = []
    with open_corpus(MTSAMPLES, "csv", **MTSAMPLES_OPTIONS) as reader:
        bank = build_bank(documents(reader, failures), BankParams(), progress=progress)
    bank.meta["corpus"] = {"name": "mtsamples", "file": MTSAMPLES.name, "failed_records": len(failures)}
    if progress is not None:
        progress("pack", 0, 1)
    packed = pack_bank(bank, seed=BankParams().seed)
    if progress is not None:
        progress("pack", 1, 1)
    return packed.save(path)


def default_bank() -> Bank:
    """The default bank shipped with anonymed (Doc2Vec on MTSamples, packed)."""
    if not (DEFAULT_BANK / "meta.json").exists():
        raise ResourceError(f"the default bank is missing from {str(DEFAULT_BANK)!r}; reinstall anonymed")
    return load_bank(DEFAULT_BANK)
