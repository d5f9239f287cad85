"""Privacy audit of released embeddings and corpora: the attacks of Abdalla et al. and a benchmark."""

from __future__ import annotations

from anonymed.audit.attacks import METRICS, AttackConfig, AttackResult, run_attacks
from anonymed.audit.data import AuditData, Patient
from anonymed.audit.embedding import Embedding, load_embedding

__all__ = [
    "METRICS",
    "AttackConfig",
    "AttackResult",
    "AuditData",
    "Embedding",
    "Patient",
    "load_embedding",
    "run_attacks",
]
