"""Test support for DP operators; Monte Carlo check of metric privacy against exp(epsilon·d).

For two neighbouring inputs, each output ``y`` seen at least ``min_count`` times under both is tested:
``|log(p1(y) / p2(y))| <= bound + z·se`` where ``se`` is the delta-method standard error of the log
ratio of two binomial proportions and ``z`` is Bonferroni-corrected over the bins tested for a family
false-alarm rate ``alpha``. OpenDP's samplers cannot be seeded, so the check is written to fail by
chance with probability below ``alpha`` (1e-4), and ``test_checker_flags_a_mechanism_twice_as_loose``
shows it has the power to catch a mechanism that leaks twice the budget.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

from anonymed.document import Document, Span
from anonymed.labels import Label
from anonymed.randomness import RandomSource
from anonymed.substitute.base import Operator
from anonymed.substitute.registry import build_operator
from anonymed.substitute.stage import Substituter


@dataclass(frozen=True)
class RatioCheck:
    """Bins tested, and those whose log ratio exceeded the bound beyond sampling error."""

    tested: int
    violations: tuple[tuple[Hashable, float, float], ...]


def check_ratio(
    first: Sequence[Hashable],
    second: Sequence[Hashable],
    bound: float,
    *,
    min_count: int = 30,
    alpha: float = 1e-4,
) -> RatioCheck:
    """Compare output frequencies of two samples against ``exp(bound)`` (see module docstring)."""
    a, b = Counter(first), Counter(second)
    n_a, n_b = len(first), len(second)
    bins = [y for y in set(a) | set(b) if a[y] >= min_count and b[y] >= min_count]
    if not bins:
        return RatioCheck(0, ())
    z = NormalDist().inv_cdf(1 - alpha / (2 * len(bins)))
    violations = []
    for y in bins:
        pa, pb = a[y] / n_a, b[y] / n_b
        log_ratio = abs(math.log(pa / pb))
        se = math.sqrt((1 - pa) / (n_a * pa) + (1 - pb) / (n_b * pb))
        if log_ratio > bound + z * se:
            violations.append((y, log_ratio, bound + z * se))
    return RatioCheck(len(bins), tuple(violations))


def make_doc(
    text: str, items: Sequence[tuple[str, str]], *, lang: str = "en", **metadata: object
) -> Document:
    """A document with hand-made spans: each (substring, label) pair, found left to right."""
    spans, cursor = [], {}
    for sub, label in items:
        start = text.index(sub, cursor.get(sub, 0))
        cursor[sub] = start + 1
        spans.append(Span.of(text, start, start + len(sub), label))
    return Document("doc-1", text, {"lang": lang, **metadata}).with_spans(spans)


def substituter(epsilon: float | None = 1.0, **params: dict[str, object]) -> Substituter:
    """A Substituter with the DP operators (fallback ``tag``) and ``tag`` for every other label."""
    operators: dict[Label, Operator] = {label: build_operator("tag") for label in Label}
    for label, name in ((Label.DATE, "dp_date"), (Label.AGE, "dp_age"), (Label.LOCATION, "dp_location")):
        operators[label] = build_operator(name, {"fallback": "tag", **params.get(name, {})})
    return Substituter(operators, epsilon=epsilon)


def outputs(sub: Substituter, doc: Document, n: int) -> list[str]:
    """``n`` independent surrogate texts of ``doc``."""
    rng = RandomSource()
    return [sub(doc, rng).result for _ in range(n)]
