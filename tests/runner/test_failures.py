"""``--max-failures``: a count or a share of the records read; a run whose every record failed fails."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from anonymed.config import PipelineConfig
from anonymed.errors import ConfigError
from anonymed.io.registry import open_writer
from anonymed.methods import ReplaceConfig
from anonymed.runner.batch import BatchOptions, run_batch
from anonymed.runner.failures import DEFAULT_MAX_FAILURES, FailureLimit
from anonymed.runner.shards import ReaderSpec


@pytest.mark.parametrize(
    ("text", "read", "failed", "exceeded"),
    [
        ("5", 100, 5, False),
        ("5", 100, 6, True),
        ("0", 100, 1, True),
        ("0", 100, 0, False),
        ("1%", 1000, 10, False),
        ("1%", 1000, 11, True),
        ("1%", 50, 1, True),  # 1% of 50 records allows none
        ("0.5%", 1000, 5, False),
        ("100%", 10, 9, False),
        ("100%", 10, 10, True),  # every record failed: over any limit
        ("1000", 27, 27, True),
        ("1%", 0, 0, False),  # no record: nothing failed
    ],
)
def test_a_limit_is_a_count_or_a_share(text: str, read: int, failed: int, exceeded: bool) -> None:
    assert FailureLimit.parse(text).exceeded(read, failed) is exceeded


@pytest.mark.parametrize("text", ["", "many", "-1", "1.5", "150%", "-2%", "nan%", "inf%"])
def test_a_bad_limit_names_the_value(text: str) -> None:
    with pytest.raises(ConfigError, match="--max-failures"):
        FailureLimit.parse(text)


def test_the_limit_prints_as_it_is_given() -> None:
    assert [str(FailureLimit.parse(t)) for t in ("5", "1%", "0.5%")] == ["5", "1%", "0.5%"]
    assert str(FailureLimit.parse(DEFAULT_MAX_FAILURES)) == DEFAULT_MAX_FAILURES


def _corpus(path: Path, good: int, bad: int) -> Path:
    lines = [json.dumps({"id": f"n{i}", "text": f"Call 617-555-{1000 + i}."}) for i in range(good)]
    lines += [json.dumps({"id": f"b{i}", "body": "no text field"}) for i in range(bad)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("good", "bad", "limit", "ok"),
    [(0, 3, "100%", False), (97, 3, "1%", False), (97, 3, "3", True), (100, 0, "0", True)],
)
def test_the_summary_says_whether_the_run_succeeded(
    tmp_path: Path, good: int, bad: int, limit: str, ok: bool
) -> None:
    spec = ReaderSpec.of(_corpus(tmp_path / "in.jsonl", good, bad))
    options = BatchOptions(shard_size=40, max_failures=FailureLimit.parse(limit))
    method = ReplaceConfig(PipelineConfig(seed=1, detectors=("patterns",)))
    summary = run_batch(spec, open_writer(tmp_path / "out.jsonl", like=spec.open()), method, options)
    assert (summary.read, summary.failed) == (good + bad, bad)
    assert summary.too_many_failures is not ok
    assert summary.to_json()["ok"] is ok and summary.to_json()["max_failures"] == limit
    assert len((tmp_path / "out.jsonl").read_text().splitlines()) == good + bad  # written either way
