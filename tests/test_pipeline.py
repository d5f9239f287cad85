"""The pipeline runs its configured stages in order and builds resources once."""

from __future__ import annotations

import datetime as dt
import re

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


def test_a_holiday_is_moved_like_the_date_it_names() -> None:
    """The default profile shifts "Christmas Day 2023" and "12/25/2023" to one day, written as a date."""
    text = "Admitted 12/25/2023 (Christmas Day 2023) after a fall."
    result = Pipeline(PipelineConfig(seed=5)).run(Document("d", text, {"lang": "en"})).result
    found = re.fullmatch(
        r"Admitted (\d\d)/(\d\d)/(\d{4}) \(([A-Z][a-z]+) (\d{1,2}) (\d{4})\) after a fall\.", result
    )
    assert found is not None and "Christmas" not in result
    month, day, year, name, day2, year2 = found.groups()
    assert (
        dt.date(int(year), int(month), int(day))
        == dt.datetime.strptime(f"{name} {day2} {year2}", "%B %d %Y").date()
    )


def test_a_weekday_before_a_numeric_date_moves_with_it() -> None:
    # "Tues 12/3" came out "Tues 3/23": the true weekday kept next to the moved date (and with it the shift,
    # modulo 7); the weekday now belongs to the date's span and agrees with the new date
    names = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    for seed in range(12):
        out = deidentify("Cardioversion Friday 9/17/2021, seen Tues, 12/3/2024.", seed=seed).output
        (full, month, day, year), (short, *numbers) = re.findall(r"(\w+),? (\d+)/(\d+)/(\d{4})", out)
        assert names[dt.date(int(year), int(month), int(day)).weekday()] == full
        weekday = dt.date(int(numbers[2]), int(numbers[0]), int(numbers[1])).weekday()
        assert names[weekday].startswith(short[:3])
