"""Evaluation of detection and anonymization against gold annotations."""

from __future__ import annotations

from anonymed.evaluate.detection import (
    DetectionReport,
    EntityCounts,
    Scores,
    TokenCounts,
    evaluate_detection,
    pair_by_id,
)

__all__ = [
    "DetectionReport",
    "EntityCounts",
    "Scores",
    "TokenCounts",
    "evaluate_detection",
    "pair_by_id",
]
