"""One note through several detectors as the pipeline runs them: one shared view, their spans merged.

Used by ``tagger_cv.py``, ``tagger_speed.py``, ``token_classifier_fold.py`` and ``review_learning.py``.
It is the loop of ``Pipeline.detect`` (``anonymed/pipeline.py``) on a view the caller makes, without the
pipeline's other work (language document, known identifiers), so a benchmark can time the detectors alone
and score several sets of detectors on one view: each detector runs once per note however many sets hold it.
"""

from __future__ import annotations

from collections.abc import Sequence

from anonymed.detect.base import Detector
from anonymed.detect.merge import merge_spans
from anonymed.detect.view import NoteView
from anonymed.document import Span


def merged_spans(view: NoteView, detectors: Sequence[Detector]) -> list[Span]:
    """The spans ``detectors`` find on the view's note (each found once per view), merged as the pipeline
    merges them. The caller keeps the detectors of the note's language (``Detector.supports``)."""
    found = [span for detector in detectors for span in view.spans_of(detector)]
    return merge_spans(view.text, found)
