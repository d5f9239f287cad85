"""The four attacks find a structure planted in small synthetic embeddings, and nothing in random vectors."""

from __future__ import annotations

import numpy as np
import pytest

from anonymed.audit.attacks import AttackConfig, run_attacks
from anonymed.audit.data import AuditData, Patient
from anonymed.audit.embedding import Embedding

DIM, PATIENTS, DIAGNOSES, OWN = 32, 40, 40, 6
CONFIG = AttackConfig(permutations=200, target_sets=200, targets=10, min_patients=3)


def _truth(seed: int) -> AuditData:
    rng = np.random.default_rng(seed)
    patients = tuple(
        Patient(
            (f"first{p}", f"last{p}"), frozenset(f"dx{d}" for d in rng.choice(DIAGNOSES, OWN, replace=False))
        )
        for p in range(PATIENTS)
    )
    return AuditData(patients)


def _embedding(data: AuditData, planted: bool, seed: int) -> Embedding:
    rng = np.random.default_rng(seed)
    words = [f"dx{d}" for d in range(DIAGNOSES)] + [f"filler{i}" for i in range(100)]
    vectors = list(rng.normal(size=(len(words), DIM)))
    diagnosis = {w: vectors[i] for i, w in enumerate(words[:DIAGNOSES])}
    for patient in data.patients:
        own = np.mean([diagnosis[d] for d in patient.diagnoses], axis=0)
        centre = 3 * own + 0.5 * rng.normal(size=DIM)
        for token in patient.name:
            words.append(token)
            vectors.append(centre + 0.3 * rng.normal(size=DIM) if planted else rng.normal(size=DIM))
    return Embedding(tuple(words), np.vstack(vectors))


@pytest.fixture(scope="module")
def truth() -> AuditData:
    return _truth(seed=3)


@pytest.mark.parametrize("metric", ["cosine", "cityblock"])
def test_planted_names_and_diagnoses_are_found_by_every_attack(truth: AuditData, metric: str) -> None:
    result = run_attacks(_embedding(truth, planted=True, seed=5), truth, metric, CONFIG, random_state=1)
    # 1: the 40 closest pairs are nearly all true names, far above the 40 * 40 / 3160 expected by chance
    assert result.names.expected == PATIENTS
    assert result.names.found >= 0.9 * PATIENTS
    assert result.names.p_value < 1e-30
    # 2a: own diagnoses are nearer (planted that way), for the whole population
    assert result.population.subjects == PATIENTS
    assert result.population.difference < 0
    assert result.population.p_value < 1e-6
    # 2b: most patients are significant one by one, after Holm
    assert result.patients.significant >= 0.5 * PATIENTS
    # 3: guessing the nearest targets beats the majority baseline in most target sets
    assert result.scenario.nearest.top1 > result.scenario.majority.top1 + 0.2
    assert result.scenario.nearest_beats.top1 > 0.9
    assert result.scenario.nearest_beats.top5 > 0.9


@pytest.mark.parametrize("metric", ["cosine", "cityblock"])
def test_random_vectors_give_no_significant_leak(truth: AuditData, metric: str) -> None:
    result = run_attacks(_embedding(truth, planted=False, seed=5), truth, metric, CONFIG, random_state=1)
    assert result.names.found <= 3 * max(result.names.chance, 1.0)
    assert result.names.p_value > 0.01
    assert result.population.p_value > 0.01
    assert result.patients.significant == 0
    # 3: accuracy stays near chance, and no better than the majority baseline on average
    for guess in (result.scenario.nearest, result.scenario.farthest):
        assert abs(guess.top1 - result.scenario.chance.top1) < 0.1
        assert guess.top5 <= result.scenario.majority.top5 + 0.05


def test_attacks_are_reproducible_with_a_seed(truth: AuditData) -> None:
    embedding = _embedding(truth, planted=True, seed=5)
    first = run_attacks(embedding, truth, "cosine", CONFIG, random_state=7).to_json()
    again = run_attacks(embedding, truth, "cosine", CONFIG, random_state=7).to_json()
    assert first == again


def test_names_missing_from_the_vocabulary_are_not_attacked(truth: AuditData) -> None:
    embedding = _embedding(truth, planted=True, seed=5)
    keep = [i for i, w in enumerate(embedding.words) if not w.startswith("last")]
    partial = Embedding(tuple(embedding.words[i] for i in keep), embedding.vectors[keep])
    result = run_attacks(partial, truth, "cosine", CONFIG, random_state=1)
    assert result.names.tokens == PATIENTS  # the first names only
    assert result.names.true_pairs == 0 and result.names.found == 0 and result.names.p_value == 1.0
    assert result.population.subjects == 0 and result.patients.subjects == 0
    assert result.scenario.sets == 0


def test_decoy_tokens_dilute_the_reconstruction(truth: AuditData) -> None:
    embedding = _embedding(truth, planted=True, seed=5)
    rng = np.random.default_rng(0)
    decoys = [f"decoy{i}" for i in range(400)]
    crowded = Embedding(
        embedding.words + tuple(decoys), np.vstack([embedding.vectors, rng.normal(size=(400, DIM))])
    )
    result = run_attacks(
        crowded, AuditData(truth.patients, frozenset(decoys)), "cosine", CONFIG, random_state=1
    )
    assert result.names.tokens == 2 * PATIENTS + 400
    assert result.names.expected == PATIENTS + 200
    assert result.names.found >= 0.9 * PATIENTS  # the true pairs are still the closest ones
    assert result.names.share < 0.2  # but most claimed pairs are decoys
