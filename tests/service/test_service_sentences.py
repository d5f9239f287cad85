"""The service's sentence substitution: offered when started with a bank, alone or in hybrid mode."""

from __future__ import annotations

from pathlib import Path

import pytest
from service_support import NOTE, PLANTED, ClientFactory

from anonymed.sentences.bank_build import BankParams, build_bank
from anonymed.sentences.banks import normalise
from anonymed.sentences.encoders import Doc2VecParams
from anonymed.sentences.splitter import split_sentences

CORPUS = [
    "The patient was admitted after a fall. She was seen in the emergency room. Vital signs were stable.",
    "He was discharged home. The wound was clean and dry. Follow up in two weeks. Pain was controlled.",
    "The knee was examined. No fracture was seen. The family was updated. Plan to continue therapy.",
]


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> Path:
    params = BankParams(doc2vec=Doc2VecParams(vector_size=16, epochs=5, infer_epochs=5), scrub=False)
    return build_bank(CORPUS, params).save(tmp_path_factory.mktemp("service") / "bank")


def test_sentences_are_replaced_by_bank_sentences(make_client: ClientFactory, bank: Path) -> None:
    with make_client(sentence_bank=bank) as client:
        assert client.get("/version").json()["methods"]["sentences"] == {"available": True, "reason": None}
        response = client.post("/deid", json={"text": NOTE, "method": "sentences", "k": 3, "seed": 1})
    assert response.status_code == 200, response.text
    body = response.json()
    output = body["output"]
    written = [output[s.start : s.end] for s in split_sentences(output)]
    assert len(written) == len(split_sentences(NOTE)) == body["privacy"]["sentences"]["sentences"]
    known = {normalise(s) for text in CORPUS for s in (text[x.start : x.end] for x in split_sentences(text))}
    assert {normalise(s) for s in written} <= known and PLANTED not in output


def test_hybrid_then_sentences_runs_both_stages(make_client: ClientFactory, bank: Path) -> None:
    with make_client(sentence_bank=bank) as client:
        body = {"text": NOTE, "method": "hybrid", "then": "sentences", "k": 2}
        response = client.post("/deid", json=body)
    assert response.status_code == 200, response.text
    result = response.json()
    assert (
        result["replacements"]
        and result["privacy"]["sentences"]["k"] == 2
        and PLANTED not in result["output"]
    )


def test_k_beyond_the_bank_is_refused(make_client: ClientFactory, bank: Path) -> None:
    with make_client(sentence_bank=bank) as client:
        response = client.post("/deid", json={"text": NOTE, "method": "sentences", "k": 99})
    assert response.status_code == 422 and "needs a bank" in response.json()["detail"]


def test_an_unloadable_bank_leaves_the_method_unavailable(make_client: ClientFactory, tmp_path: Path) -> None:
    with make_client(sentence_bank=tmp_path) as client:
        assert client.get("/version").json()["methods"]["sentences"]["available"] is False
        assert client.post("/deid", json={"text": NOTE, "method": "sentences"}).status_code == 501
