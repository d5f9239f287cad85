"""A small synthetic clinical corpus and a tiny Doc2Vec bank trained on it (seconds, once per session)."""

from __future__ import annotations

import random
from functools import lru_cache

from anonymed.sentences.bank_build import BankParams, build_bank
from anonymed.sentences.banks import Bank, IndexParams
from anonymed.sentences.encoders import Doc2VecParams

SUBJECTS = ["The patient", "She", "He", "The child", "The resident", "The wound", "The abdomen", "The knee"]
VERBS = ["was examined", "was treated", "tolerated the procedure", "was prepped", "was draped", "improved"]
TAILS = [
    "without complication.",
    "in the usual sterile fashion.",
    "with mild pain.",
    "and was discharged home.",
    "after two days of antibiotics.",
    "under general anesthesia.",
    "with good range of motion.",
    "and the incision was closed.",
]
HEADERS = ["HISTORY OF PRESENT ILLNESS:", "PLAN:", "ASSESSMENT:", "MEDICATIONS:", "PHYSICAL EXAMINATION:"]
#: sentences with PHI the scrubbing detectors find; none may ever come out of a bank
PLANTED = [
    "Mr. John Smith was seen in clinic on 03/14/2019.",
    "Call Dr. Maria Gonzalez at (617) 555-0199 for results.",
    "The patient lives at 42 Elm Street, Springfield.",
]
PLANTED_WORDS = ("Smith", "Gonzalez", "555-0199", "Elm Street", "03/14/2019")
TINY_D2V = Doc2VecParams(vector_size=24, epochs=8, infer_epochs=8, seed=3)


def sentence(rnd: random.Random) -> str:
    """One synthetic clinical sentence."""
    return f"{rnd.choice(SUBJECTS)} {rnd.choice(VERBS)} {rnd.choice(TAILS)}"


def notes(count: int = 60, seed: int = 0) -> list[str]:
    """Notes of a header and a few sentences each; some carry a planted PHI sentence."""
    rnd = random.Random(seed)
    out = []
    for i in range(count):
        body = " ".join(sentence(rnd) for _ in range(rnd.randint(3, 7)))
        planted = f" {PLANTED[i % len(PLANTED)]}" if i % 4 == 0 else ""
        out.append(f"{rnd.choice(HEADERS)}\n{body}{planted}\n- {sentence(rnd)}\n")
    return out


@lru_cache(maxsize=4)
def tiny_bank(kind: str = "auto", exact_max: int = 20_000) -> Bank:
    """A Doc2Vec bank over ``notes()`` (scrubbed with the default detectors at high recall)."""
    params = BankParams(doc2vec=TINY_D2V, index=IndexParams(kind=kind, exact_max=exact_max, nprobe=2))  # type: ignore[arg-type]
    return build_bank(notes(), params)
