"""The stoplist switch of benchmarks/lexicons_dev.py and the build functions it reuses (scripts/)."""

from __future__ import annotations

import csv
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from anonymed.detect.lexicons import resources
from anonymed.detect.lexicons.detector import LexiconDetector, LexiconParams
from anonymed.document import Document

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import lexicons_dev  # lives in benchmarks/, no package

NOTE = "The Foley catheter was removed by Mark today."


@pytest.fixture
def shipped_lists_after() -> Iterator[None]:
    """Whatever a test swaps, the next one reads the shipped lists again."""
    yield
    resources.name_lists.cache_clear()


def names_in(text: str) -> list[str]:
    spans = LexiconDetector(LexiconParams()).detect(Document("d", text, {"lang": "en"}))
    return [span.text for span in spans if span.label.value == "NAME"]


def test_swapped_common_words_reach_the_detector(shipped_lists_after: None) -> None:
    assert names_in(NOTE) == []  # shipped: "Foley" and "Mark" are common words, no context here
    lists = lexicons_dev.use_common_words({"en": {"catheter"}, "fr": set()})
    assert lists is resources.name_lists()
    assert lists.is_common("catheter", "en") and not lists.is_common("foley", "en")
    assert lists.first == resources.name_lists().first and "mark" in lists.first  # names stay shipped
    assert names_in(NOTE) == ["Foley", "Mark"]
    resources.name_lists.cache_clear()
    assert names_in(NOTE) == []


def _mtsamples(tmp_path: Path) -> tuple[Path, Path]:
    english = tmp_path / "mtsamples.csv"
    with english.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=["note_id", "transcription"])
        writer.writeheader()
        writer.writerow(
            {"note_id": "1", "transcription": "thrice thrice thrice twice twice " + "Eponym " * 20}
        )
        writer.writerow({"note_id": "2", "transcription": "Rare " * 19 + "CABG CABG CABG"})
    french = tmp_path / "fr" / "codeine"
    french.mkdir(parents=True)
    (french / "1.txt").write_text("deux deux une", encoding="utf-8")
    return english, tmp_path / "fr"


def test_the_build_makes_each_stoplist(tmp_path: Path) -> None:
    build = lexicons_dev.build_script()
    english, french = _mtsamples(tmp_path)
    jargon = set(build.CLINICAL_JARGON)
    common = build.common_words("mtsamples", english, french, {})
    assert common["en"] - jargon == {"thrice", "eponym", "cabg"}  # 3 lower-case or 20 capitalised uses
    assert common["fr"] == {"deux"}  # 2 uses are enough in the smaller French set
    assert build.common_words("none", None, None, {}) == {"en": jargon, "fr": set()}
    with pytest.raises(ValueError, match="needs the English and French MTSamples"):
        build.common_words("both", None, None, {})
    with pytest.raises(ValueError, match="unknown stoplist"):
        build.common_words("shipped", None, None, {})
    assert set(lexicons_dev.STOPLISTS) == {"shipped", *build.STOPLISTS}
