"""The per-document privacy ledger: split, memoized draws, limits, report."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anonymed.errors import ConfigError
from anonymed.substitute.privacy import PrivacyLedger


def _ledger(total: float, keys: list[tuple[str, str]], **weights: float) -> PrivacyLedger:
    ledger = PrivacyLedger(total, weights=weights)
    for i, (key, label) in enumerate(keys):
        ledger.register(key, label, 10 * i, 10 * i + 5)
    return ledger


def test_budget_is_split_uniformly_over_distinct_values() -> None:
    ledger = _ledger(1.0, [("a", "DATE"), ("b", "DATE"), ("a", "DATE"), ("c", "AGE"), ("d", "LOCATION")])
    assert [ledger.epsilon_for(k) for k in "abcd"] == pytest.approx([0.25] * 4)


def test_budget_is_split_by_label_weights() -> None:
    ledger = _ledger(1.0, [("a", "DATE"), ("b", "LOCATION")], LOCATION=3.0)
    assert (ledger.epsilon_for("a"), ledger.epsilon_for("b")) == pytest.approx((0.25, 0.75))


def test_a_repeated_value_reuses_its_draw_and_spends_once() -> None:
    ledger = _ledger(1.0, [("a", "DATE"), ("a", "DATE")])
    calls: list[float] = []

    def sample(eps: float) -> int:
        calls.append(eps)
        return 7

    assert ledger.draw("a", "laplace", {}, sample) == ledger.draw("a", "laplace", {}, sample) == 7
    assert calls == [1.0] and ledger.spent == 1.0
    assert ledger.report()["expenses"][0]["repeats"] == [[10, 15]]


def test_late_registration_after_the_split_is_refused() -> None:
    ledger = _ledger(1.0, [("a", "DATE")])
    ledger.epsilon_for("a")
    with pytest.raises(ConfigError, match="frozen"):
        ledger.register("b", "DATE", 3, 4)


def test_unbounded_ledger_gives_each_value_its_default_epsilon() -> None:
    ledger = PrivacyLedger.unbounded()
    ledger.register("a", "DATE", 0, 1, default_epsilon=0.3)
    ledger.register("b", "AGE", 2, 3, default_epsilon=2.0)
    assert (ledger.epsilon_for("a"), ledger.epsilon_for("b")) == (0.3, 2.0)
    report = ledger.report()
    assert report["budget"] == "per_value" and report["epsilon_total"] is None


@pytest.mark.parametrize("bad", [{"DATE": 0.0}, {"DATE": -1.0}, {"DATE": float("inf")}])
def test_non_positive_weights_are_refused(bad: dict[str, float]) -> None:
    with pytest.raises(ConfigError):
        PrivacyLedger(1.0, weights=bad)


@given(
    total=st.floats(0.01, 100.0),
    labels=st.lists(st.sampled_from(["DATE", "AGE", "LOCATION"]), min_size=1, max_size=12),
    weight=st.floats(0.1, 10.0),
)
def test_drawing_every_value_spends_exactly_the_budget(
    total: float, labels: list[str], weight: float
) -> None:
    ledger = _ledger(total, [(f"k{i}", label) for i, label in enumerate(labels)], LOCATION=weight)
    for i in range(len(labels)):
        ledger.draw(f"k{i}", "laplace", {}, lambda eps: eps)
        ledger.draw(f"k{i}", "laplace", {}, lambda eps: eps)  # memoized: no second charge
    assert ledger.spent == pytest.approx(total)
    json.dumps(ledger.report())  # the report is JSON-ready
