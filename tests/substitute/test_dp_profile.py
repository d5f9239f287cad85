"""The dp profile: the probability of an unchanged value it reports matches the share seen over many draws."""

from __future__ import annotations

import math
from collections import defaultdict

from anonymed.config import PipelineConfig
from anonymed.document import Document, Span
from anonymed.labels import Label
from anonymed.pipeline import Pipeline
from anonymed.profiles import load_profile
from anonymed.randomness import RandomSource

DRAWS = 3000
TEXT = "Admitted 01/05/2019 in Boston, aged 45 years old; seen 06/20/2019, discharged 11/30/2019."
TARGETS = [
    ("01/05/2019", Label.DATE),
    ("Boston", Label.LOCATION),
    ("45 years old", Label.AGE),
    ("06/20/2019", Label.DATE),
    ("11/30/2019", Label.DATE),
]


def _doc() -> Document:
    spans = [Span.of(TEXT, TEXT.index(t), TEXT.index(t) + len(t), label) for t, label in TARGETS]
    return Document("n", TEXT, {"lang": "en", "reference_date": "2020-01-01"}, spans=tuple(spans))


def test_reported_probability_of_an_unchanged_value_matches_the_observed_share() -> None:
    """Four standard errors of a binomial share over 3,000 draws: a false alarm about once in 16,000 runs."""
    substituter = Pipeline(PipelineConfig(profile="dp", stages=("substitute",))).substituter_
    doc = _doc()
    reported: dict[tuple[int, int], float] = {}
    same: dict[tuple[int, int], int] = defaultdict(int)
    expected_total = observed_total = 0.0
    for _ in range(DRAWS):
        done = substituter(doc, RandomSource())
        for expense in done.privacy["expenses"]:
            reported[(expense["start"], expense["end"])] = expense["parameters"]["p_unchanged"]
        for rep in done.replacements:
            same[(rep.start, rep.end)] += rep.surrogate == rep.original
        counts = done.privacy["substitution"]["counts"]
        expected_total += sum(v for k, v in counts.items() if k.endswith("expected_unchanged_ppm")) / 1e6
        observed_total += sum(v for k, v in counts.items() if k.endswith("|unchanged"))
    assert len(reported) == len(TARGETS)  # every value was drawn (none fell back)
    assert done.privacy["budget"] == "document"
    assert done.privacy["epsilon_total"] == load_profile("dp").epsilon
    for where, p in reported.items():
        share = same[where] / DRAWS
        assert abs(share - p) <= 4 * math.sqrt(p * (1 - p) / DRAWS), (where, p, share)
    assert min(reported.values()) > 0.0 and max(reported.values()) < 0.5
    sd = math.sqrt(sum(p * (1 - p) for p in reported.values()) * DRAWS)
    assert abs(observed_total - expected_total) <= 4 * sd
