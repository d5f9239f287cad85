"""The sample design: allocation, the draw, weights, length bands, and the folder ``review sample`` writes."""

from __future__ import annotations

import csv
import json
import stat
from collections import Counter
from pathlib import Path

import pytest
from review_support import NOTES, PATTERNS, make_folder, write_input

from anonymed.errors import ConfigError
from anonymed.io.registry import open_reader
from anonymed.randomness import check_random_state
from anonymed.review.folder import ReviewFolder, fingerprint
from anonymed.review.sample import FlaggingDetection, SampleOptions, build_review
from anonymed.review.sampling import Frame, allocate, band_of, draw_sample, length_bands


def test_allocation_gives_two_per_stratum_then_shares_oversampling_flagged_strata() -> None:
    # floors 2 + 2; 16 left shared 100 : 10 x 3 -> 12.3 and 3.7 -> 12 + 3, the last by largest remainder
    assert allocate({"a": 100, "b": 10}, 20, {"b": 3.0}) == {"a": 15, "b": 5}
    assert allocate({"a": 100, "b": 10}, 20, {}) == {"a": 17, "b": 3}
    assert allocate({"a": 3, "b": 1}, 10, {}) == {"a": 3, "b": 1}  # the whole population
    assert allocate({"a": 5, "b": 1}, 4, {"b": 9.0}) == {"a": 3, "b": 1}  # capped at a stratum's size
    with pytest.raises(ConfigError, match="strata"):
        allocate({"a": 10, "b": 10, "c": 10}, 5, {})


def test_draw_is_stratified_shuffled_and_reproducible_only_with_a_seed() -> None:
    frame = [Frame(i, "flag" if i % 10 == 0 else "rest", 50, i % 10 == 0) for i in range(200)]
    draw = draw_sample(frame, 30, 3.0, check_random_state(5))
    assert Counter(f.stratum for f in draw.order) == draw.allocation
    assert draw.population == {"flag": 20, "rest": 180}
    assert draw.weight("flag") == 20 / draw.allocation["flag"] < draw.weight("rest")
    assert len({f.index for f in draw.order}) == 30
    again = draw_sample(frame, 30, 3.0, check_random_state(5))
    assert [f.index for f in again.order] == [f.index for f in draw.order]
    secure = {
        tuple(f.index for f in draw_sample(frame, 30, 3.0, check_random_state(None)).order) for _ in range(3)
    }
    assert len(secure) == 3


def test_inclusion_frequencies_match_the_recorded_probabilities() -> None:
    frame = [Frame(i, "flag" if i < 10 else "rest", 50, i < 10) for i in range(60)]
    hits: Counter[int] = Counter()
    draws = 3000
    for seed in range(draws):
        draw = draw_sample(frame, 12, 3.0, check_random_state(seed))
        hits.update(f.index for f in draw.order)
    expected = {"flag": draw.allocation["flag"] / 10, "rest": draw.allocation["rest"] / 50}
    flag_rate = sum(hits[i] for i in range(10)) / (10 * draws)
    rest_rate = sum(hits[i] for i in range(10, 60)) / (50 * draws)
    assert flag_rate == pytest.approx(expected["flag"], abs=0.02)
    assert rest_rate == pytest.approx(expected["rest"], abs=0.01)


def test_length_bands_cut_at_quantiles() -> None:
    bounds = length_bands(list(range(1, 101)), 4)
    assert bounds == [26, 51, 76]
    assert [band_of(t, bounds) for t in (1, 25, 26, 75, 100)] == ["len0", "len0", "len1", "len2", "len3"]
    assert length_bands([5] * 10, 3) == []  # one band when every note has the same length


def test_flagging_sees_low_scores_and_detectors_that_disagree() -> None:
    detection = FlaggingDetection(PATTERNS, low_confidence=0.92)
    from anonymed.document import Document, Span

    doc, flagged = detection(Document("x", "Patient 45 yo."))
    assert [s.label.value for s in doc.spans] == ["AGE"] and flagged  # age scored 0.9 < 0.92
    text = "Call Paris 01/02/2020"
    one = Span.of(text, 5, 10, "LOCATION", source="a")
    other = Span.of(text, 5, 10, "NAME", source="b")
    assert detection.flagged([one], [one, other])
    assert not detection.flagged([one], [one, Span.of(text, 5, 10, "LOCATION", source="b")])


def test_flagging_sees_notes_with_many_detected_spans() -> None:
    from anonymed.document import Span

    text = "Paris Lyon Nice"
    spans = [Span.of(text, a, b, "LOCATION", source="a") for a, b in ((0, 5), (6, 10), (11, 15))]
    assert FlaggingDetection(PATTERNS, low_confidence=0.5, many_spans=3).flagged(spans, spans)
    assert not FlaggingDetection(PATTERNS, low_confidence=0.5, many_spans=4).flagged(spans, spans)
    assert not FlaggingDetection(PATTERNS, low_confidence=0.5, many_spans=0).flagged(spans, spans)  # off
    assert not FlaggingDetection(PATTERNS, low_confidence=0.5, many_spans=1).flagged([], [])
    with pytest.raises(ConfigError, match="many-spans"):
        SampleOptions(many_spans=-1)


def test_flagging_detection_finds_what_the_pipeline_finds_with_several_detectors() -> None:
    """Every detector runs (the note view caches spans per detector: wrappers must not share a key)."""
    from anonymed.config import PipelineConfig
    from anonymed.document import Document
    from anonymed.pipeline import Pipeline

    config = PipelineConfig(detectors=("patterns", "lexicons"))
    doc = Document("x", "Seen by Dr. John Smith at Boston General Hospital on 3/4/2020")
    done, _ = FlaggingDetection(config, low_confidence=0.75)(doc)
    expected = Pipeline(config).detect(doc).spans
    assert [(s.start, s.end, s.label) for s in done.spans] == [(s.start, s.end, s.label) for s in expected]
    assert {s.label.value for s in done.spans} >= {"DATE", "NAME"}


def test_review_sample_writes_notes_weights_and_a_manifest(tmp_path: Path) -> None:
    folder = make_folder(tmp_path, n=4, length_bands=2)
    manifest = folder.manifest
    assert manifest["input"]["fingerprint"] == fingerprint(tmp_path / "notes.jsonl")
    assert manifest["input"]["notes"] == len(NOTES) and manifest["detection"]["detectors"] == ["patterns"]
    assert (
        manifest["design"]["seeded"] is True
        and "seed" not in manifest["design"]
        and sum(s["sample"] for s in manifest["design"]["strata"].values()) == 4
    )
    assert len(folder.notes) == 4
    rows = list(csv.DictReader((tmp_path / "review" / "sample.csv").open()))
    for row, note in zip(rows, folder.notes, strict=True):
        strata = manifest["design"]["strata"][row["stratum"]]
        assert float(row["weight"]) == pytest.approx(strata["population"] / strata["sample"]) == note.weight
        assert float(row["inclusion_probability"]) == pytest.approx(1 / note.weight)
    first = json.loads((tmp_path / "review" / "notes.jsonl").read_text().splitlines()[0])
    assert {"key", "id", "lang", "text", "spans"} <= first.keys()
    assert stat.S_IMODE((tmp_path / "review").stat().st_mode) == 0o700
    assert stat.S_IMODE((tmp_path / "review" / "notes.jsonl").stat().st_mode) == 0o600


def test_review_sample_stratifies_by_a_field_and_refuses_to_overwrite(tmp_path: Path) -> None:
    folder = make_folder(tmp_path, n=4, strata_field="kind")
    assert set(folder.population) == {"kind=visit", "kind=admission"}
    with pytest.raises(ConfigError, match="not an empty folder"):
        build_review(
            open_reader(write_input(tmp_path / "again.jsonl")),
            PATTERNS,
            SampleOptions(n=2),
            tmp_path / "review",
            check_random_state(1),
        )


def test_a_bad_option_is_refused() -> None:
    with pytest.raises(ConfigError, match="oversample"):
        SampleOptions(oversample=0.5)
    with pytest.raises(ConfigError, match="not a review folder"):
        ReviewFolder(Path("/nonexistent"))
