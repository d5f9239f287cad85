"""Holm across configurations, verdicts per protection, and a report that carries no name or diagnosis."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from anonymed.audit.attacks import AttackConfig, run_attacks
from anonymed.audit.data import AuditData, Patient
from anonymed.audit.embedding import Embedding
from anonymed.audit.grid import GridRow
from anonymed.audit.report import build_report, holm
from anonymed.audit.report_tables import markdown

FAST = AttackConfig(permutations=50, target_sets=20, targets=3, min_patients=1)


def test_holm_rejects_in_order_until_the_first_failure() -> None:
    # sorted p-values 0.01 < 0.05/4, 0.015 < 0.05/3, 0.03 > 0.05/2: the first two only
    assert holm([0.03, 0.01, 0.5, 0.015], 0.05) == [False, True, False, True]
    assert holm([], 0.05) == []


def _row(protection: str, window: int, embedding: Embedding, data: AuditData) -> GridRow:
    result = run_attacks(embedding, data, "cosine", FAST, random_state=window)
    return GridRow(
        protection, "cbow", window, result, len(embedding.words), 0.0, trained=len(embedding.words) > 0
    )


def _planted(data: AuditData, seed: int, tight: bool) -> Embedding:
    rng = np.random.default_rng(seed)
    words, vectors = [], []
    for patient in data.patients:
        centre = rng.normal(size=16)
        for token in patient.name:
            words.append(token)
            vectors.append(centre + (0.05 if tight else 5.0) * rng.normal(size=16))
    for diagnosis in data.diagnoses:
        words.append(diagnosis)
        vectors.append(rng.normal(size=16))
    return Embedding(tuple(words), np.vstack(vectors))


def _data(names: list[tuple[str, str]]) -> AuditData:
    return AuditData(tuple(Patient(n, frozenset({f"dx{i % 3}", "dxall"})) for i, n in enumerate(names)))


def test_a_protection_leaks_when_names_pair_up_and_holds_when_nothing_is_there() -> None:
    data = _data([(f"a{i}", f"b{i}") for i in range(30)])
    rows = [_row("removal", w, _planted(data, w, tight=True), data) for w in (1, 3)]
    rows += [_row("words", w, Embedding((), np.zeros((0, 16))), data) for w in (1, 3)]
    report = build_report(rows, 0.05)
    verdicts = {v.protection: v for v in report.verdicts}
    assert verdicts["removal"].verdict == "LEAKS"
    assert verdicts["removal"].names_significant == 2
    assert verdicts["words"].verdict == "holds: no name token in any model"
    text = markdown(report)
    assert "| removal |" in text and "No name token of the attacker's list" in text


@settings(max_examples=6, deadline=None)
@given(st.lists(st.from_regex(r"[a-z]{3,8}", fullmatch=True), min_size=8, max_size=16, unique=True))
def test_reports_never_contain_a_name_or_a_diagnosis(tokens: list[str]) -> None:
    tokens = [f"q{t}" for t in tokens]  # never a word of the report's own vocabulary
    names = list(zip(tokens[0::2], tokens[1::2], strict=False))
    data = _data(names)
    rows = [_row("removal", 5, _planted(data, 0, tight=True), data)]
    report = build_report(rows, 0.05)
    text = json.dumps(report.to_json()) + markdown(report)
    for secret in [*tokens, *data.diagnoses]:
        assert secret not in text
