"""benchmarks/shared_detect.py: the detect loop the tagger benchmarks share finds the pipeline's spans."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from anonymed.cli.deid import SAMPLE
from anonymed.config import PipelineConfig
from anonymed.detect.registry import DEFAULT_DETECTORS, build_detector
from anonymed.detect.view import NoteView
from anonymed.document import Document, Span
from anonymed.pipeline import Pipeline

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from shared_detect import merged_spans  # lives in benchmarks/, no package


def _notes() -> list[Document]:
    records = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [Document(r["id"], r["text"], {"lang": "en"}) for r in records]


def _plain(spans: list[Span]) -> list[tuple[int, int, str, str | None, str]]:
    return [(s.start, s.end, s.label.value, s.subtype, s.source) for s in spans]


def test_the_default_detectors_give_the_pipelines_spans() -> None:
    pipeline = Pipeline(PipelineConfig(detectors=DEFAULT_DETECTORS, stages=("detect",)))
    detectors = [build_detector(name) for name in DEFAULT_DETECTORS]
    for doc in _notes():
        expected = pipeline.detect(doc).spans
        assert expected, doc.id
        assert _plain(merged_spans(NoteView(doc), detectors)) == _plain(list(expected)), doc.id


def test_detectors_shared_by_two_sets_run_once_per_view() -> None:
    calls: list[str] = []
    patterns, lexicons = build_detector("patterns"), build_detector("lexicons")
    for detector in (patterns, lexicons):

        def counted(view: NoteView, original: Any = detector.detect_view, name: str = detector.name) -> Any:
            calls.append(name)
            return original(view)

        detector.detect_view = counted  # type: ignore[method-assign]
    doc = _notes()[0]
    view = NoteView(doc)
    merged_spans(view, [patterns, lexicons])
    alone = merged_spans(view, [patterns])
    assert sorted(calls) == ["lexicons", "patterns"]  # patterns ran once for both sets
    assert _plain(alone) == _plain(merged_spans(NoteView(doc), [patterns]))
