"""The run summary's substitution part: counts per label and operator, outcomes, DP unchanged values."""

from __future__ import annotations

from anonymed.substitute.summary import parse_counts, substitution_summary


def test_counts_are_grouped_by_label_and_operator_with_totals() -> None:
    counters = {
        "NAME/patient|fake|replaced": 3,
        "NAME/patient|fake|fallback": 1,
        "DATE|dp_date|replaced": 5,
        "DATE|dp_date|unchanged": 2,
        "DATE|dp_date|expected_unchanged_ppm": 1_750_000,
        "CONTACT|keep|kept": 4,
        "tokens": 99,  # another factory's counter: ignored
    }
    summary = substitution_summary(counters)
    assert summary["by_label"]["NAME/patient"] == {"fake": {"replaced": 3, "fallback": 1}}
    assert summary["totals"] == {"replaced": 8, "fallback": 1, "kept": 4, "unchanged": 2}
    assert summary["dp"] == {"spans": 7, "unchanged": 2, "expected_unchanged": 1.75}
    assert len(parse_counts(counters)) == 6


def test_dp_values_are_the_drawn_ones_not_those_the_fallback_operator_wrote() -> None:
    counters = {
        "LOCATION|dp_location|replaced": 2,
        "LOCATION|dp_location|fallback": 4,
        "LOCATION|dp_location|unchanged": 1,
    }
    summary = substitution_summary(counters)
    assert summary["totals"]["fallback"] == 4
    assert summary["dp"] == {"spans": 3, "unchanged": 1, "expected_unchanged": 0.0}
