"""The pipeline runs its configured stages in order and builds resources once."""

from __future__ import annotations

from anonymed import Document, Pipeline, PipelineConfig, Span, deidentify
from anonymed.labels import Label

TEXT = "Seen by Dr. Helen Park on 02/12/2020, phone (617) 555-0142."


def gold_doc() -> Document:
    spans = (Span.of(TEXT, 12, 22, "NAME", subtype="clinician"), Span.of(TEXT, 26, 36, "DATE"))
    return Document("d1", TEXT, {"lang": "en"}, spans=spans)


def test_substitute_only_replaces_given_spans_and_keeps_the_rest() -> None:
    pipeline = Pipeline(
        PipelineConfig(
            detectors=(), seed=1, operators={Label.NAME: "tag", Label.DATE: "tag"}, stages=("substitute",)
        )
    )
    result = pipeline.run(gold_doc())
    assert result.result == "Seen by Dr. [NAME] on [DATE], phone (617) 555-0142."
    assert [r.surrogate for r in result.replacements] == ["[NAME]", "[DATE]"]


def test_detect_only_leaves_the_text_untouched() -> None:
    pipeline = Pipeline(PipelineConfig(seed=1, stages=("detect",)))
    result = pipeline.run(Document("d1", TEXT))
    assert result.output is None and result.result == TEXT
    assert result.spans, "the default detectors find something in this note"


def test_default_pipeline_removes_every_detected_value() -> None:
    doc = deidentify(TEXT, seed=4)
    assert doc.spans
    for span in doc.spans:
        assert doc.result[span.start : span.start + len(span.text)] != span.text


def test_resources_are_built_once_per_pipeline() -> None:
    pipeline = Pipeline(PipelineConfig(seed=1))
    assert pipeline.detectors_ is pipeline.detectors_
    assert pipeline.substituter_ is pipeline.substituter_


def test_seeded_pipelines_reproduce_their_output_except_dp_noise() -> None:
    seedable = {Label.DATE: "fake", Label.AGE: "fake"}  # OpenDP noise cannot be seeded
    first = Pipeline(PipelineConfig(seed=11, operators=seedable)).run(Document("d1", TEXT))
    second = Pipeline(PipelineConfig(seed=11, operators=seedable)).run(Document("d1", TEXT))
    assert first.result == second.result


def test_dp_profile_reports_the_epsilon_spent_on_dates() -> None:
    doc = Pipeline(PipelineConfig(profile="dp", epsilon=2.0)).run(Document("d1", TEXT))
    assert doc.privacy["epsilon_total"] == 2.0
    assert 0 < doc.privacy["epsilon_spent"] <= 2.0
    assert [e["label"] for e in doc.privacy["expenses"]] == ["DATE"]
