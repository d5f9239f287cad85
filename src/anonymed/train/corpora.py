"""Read the training corpora (PhysioNet deid, EDS-pseudo, WikiANN) into Documents with gold spans."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from anonymed.document import Document, Span
from anonymed.errors import InputError, ResourceError
from anonymed.labels import Label

#: the language prefix of tokens in the original WikiANN files ("en:Paris")
_PREFIX: Final = re.compile(r"^[a-z]{2,3}:(?=.)")

#: WikiANN tags -> anonymed labels (ORG is kept as ORGANIZATION; it is not PHI in the clinical corpora)
WIKIANN_LABELS: Final = {"PER": Label.NAME, "LOC": Label.LOCATION, "ORG": Label.ORGANIZATION}


def _require(path: Path) -> Path:
    if not path.exists():
        raise ResourceError(f"training file not found: {path}")
    return path


def read_gold_documents(path: Path, fmt: str, lang: str) -> list[Document]:
    """Every document of an annotated corpus read with anonymed's reader for ``fmt``; bad records fail."""
    from anonymed.io.base import ReadFailure
    from anonymed.io.registry import open_reader

    docs = []
    for record in open_reader(_require(path), fmt, lang=lang):
        if isinstance(record, ReadFailure):
            raise InputError(record.record_id, f"unreadable training record: {record.reason}")
        docs.append(record)
    return docs


def _conll_sentences(path: Path) -> Iterator[list[tuple[str, str]]]:
    sentence: list[tuple[str, str]] = []
    with _require(path).open(encoding="utf-8") as handle:
        for line in handle:
            line = line.rstrip("\n")
            if not line.strip():
                if sentence:
                    yield sentence
                sentence = []
                continue
            token, _, tag = line.rpartition("\t")
            sentence.append((_PREFIX.sub("", token, count=1) or token, tag))
    if sentence:
        yield sentence


def _wikiann_document(doc_id: str, lang: str, sentence: list[tuple[str, str]]) -> Document:
    text_parts: list[str] = []
    spans: list[tuple[int, int, Label]] = []
    offset = 0
    for token, tag in sentence:
        start = offset
        text_parts.append(token)
        offset += len(token) + 1
        if tag == "O":
            continue
        prefix, _, kind = tag.partition("-")
        label = WIKIANN_LABELS[kind]
        if prefix == "I" and spans and spans[-1][2] == label and spans[-1][1] == start - 1:
            spans[-1] = (spans[-1][0], start + len(token), label)
        else:
            spans.append((start, start + len(token), label))
    text = " ".join(text_parts)
    gold = tuple(Span.of(text, s, e, label) for s, e, label in spans)
    return Document(doc_id, text, {"patient_id": doc_id, "lang": lang, "corpus": "wikiann"}, gold=gold)


def read_wikiann(path: Path, lang: str, *, limit: int | None = None) -> list[Document]:
    """WikiANN CoNLL sentences (``<token>\\t<tag>``, optional ``<lang>:`` prefix), tokens joined by spaces."""
    docs = []
    for index, sentence in enumerate(_conll_sentences(path)):
        if limit is not None and index >= limit:
            break
        docs.append(_wikiann_document(f"wikiann-{lang}-{index}", lang, sentence))
    return docs
