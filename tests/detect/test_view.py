"""The per-document view: tokens computed once, and each detector's spans computed once per run."""

from __future__ import annotations

import pytest

from anonymed.config import PipelineConfig
from anonymed.detect import tokens as word_tokens
from anonymed.detect.patterns.detector import PatternDetector, PatternParams
from anonymed.detect.view import NoteView
from anonymed.document import Document
from anonymed.pipeline import Pipeline

NOTE = "Pt seen by Dr. Smith on 3/12/2019, call wife Anna at 617-555-0134. Lives in Boston."


def _count_calls(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[int]:
    calls: list[int] = []
    original = getattr(module, name)

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_tokens_and_words_are_computed_once_per_document(monkeypatch: pytest.MonkeyPatch) -> None:
    pipeline = Pipeline(PipelineConfig(lang="en", detectors=("tagger", "patterns", "lexicons")))
    pipeline.detect(Document("warm-up", NOTE))  # loading the gazetteer tokenizes its place names
    words = _count_calls(monkeypatch, word_tokens, "tokenize")
    tokens = _count_calls(monkeypatch, word_tokens, "alnum_tokens")
    pipeline.detect(Document("d1", NOTE))
    assert (len(words), len(tokens)) == (1, 1)  # the tagger's hint lexicons and the lexicons share words


def test_the_tagger_takes_the_patterns_spans_the_pipeline_found(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = _count_calls(monkeypatch, PatternDetector, "_scan")
    for order in (("tagger", "patterns"), ("patterns", "tagger")):
        runs.clear()
        doc = Pipeline(PipelineConfig(lang="en", detectors=order)).detect(Document("d1", NOTE))
        assert len(runs) == 1, order
        assert any(span.source.startswith("patterns") for span in doc.spans)


def test_spans_of_keys_on_parameters_not_only_on_the_name() -> None:
    view = NoteView(Document("d1", "Seen 12/03 by PS 10/5 and at 1234567 ."))
    plain = view.spans_of(PatternDetector())
    assert view.spans_of(PatternDetector()) is plain
    wide = view.spans_of(PatternDetector(PatternParams(high_recall=True)))
    assert wide is not plain
    assert {s.text for s in plain} < {s.text for s in wide}  # high recall adds the 7-digit number


def test_tokens_read_lone_surrogates_as_replacement_characters() -> None:
    view = NoteView(Document("d1", "Smith\ud800 Jones"))
    assert [t.text for t in view.tokens] == ["Smith", "Jones"]
    assert "\ud800" not in view.tokens[1].before
