"""One seed rule for every face: the same seed gives byte-identical outputs from the CLI, the Python API,
the report's method runner and the service, for every method that runs offline.

Operators without differential-privacy noise (OpenDP's noise cannot be seeded): every label ``fake``;
the default detectors (tagger and patterns); the shipped word space; a tiny sentence bank.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from anonymed.cli import app
from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.evaluate.methods import build_method as report_method
from anonymed.io.registry import open_reader
from anonymed.labels import Label
from anonymed.methods import (
    HybridConfig,
    MethodConfig,
    ReplaceConfig,
    SentencesConfig,
    WordsConfig,
    build_method,
)
from anonymed.service import ServiceSettings, create_app

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx.*", category=UserWarning)
    from fastapi.testclient import TestClient

SEED = 20
NOTES = [
    ("n1", "Mr. Zebulon Quackenbush, 58 years old, was admitted on 02/12/2020 after a fall. He is stable."),
    ("n2", "Seen by Dr. Helen Park in Boston. Wife can be reached at (617) 555-0142. MRN: 4482913."),
    ("n3", "The knee was examined. No fracture was seen. Follow up with Dr. Park on 03/01/2020."),
]
FAKE = {Label.DATE: "fake", Label.AGE: "fake"}  # the other labels are fake by default
OPERATORS_TOML = '[operators]\nDATE = "fake"\nAGE = "fake"\n'


@dataclass(frozen=True)
class Case:
    """One method as each face spells it."""

    name: str
    cli: tuple[str, ...]
    service: dict[str, Any]
    report: str

    def config(self, bank: Path) -> MethodConfig:
        """The Python API's configuration."""
        pipeline = PipelineConfig(operators=FAKE, seed=SEED)
        return {
            "replace": ReplaceConfig(pipeline),
            "words": WordsConfig(n="5", seed=SEED),
            "hybrid-words": HybridConfig(pipeline, "words", n="5"),
            "sentences": SentencesConfig(bank, 3, SEED),
            "hybrid-sentences": HybridConfig(pipeline, "sentences", k=3, bank=bank),
        }[self.name]


CASES = [
    Case("replace", ("deid", "--operator", "DATE=fake", "--operator", "AGE=fake"), {}, "replace"),
    Case("words", ("obfuscate", "words", "--n", "5"), {"method": "words", "n": 5}, "words:5"),
    Case(
        "hybrid-words",
        ("obfuscate", "hybrid", "--then", "words", "--n", "5", "--config={config}"),
        {"method": "hybrid", "then": "words", "n": 5},
        "hybrid:5",
    ),
    Case(
        "sentences",
        ("obfuscate", "sentences", "--bank", "{bank}", "--k", "3"),
        {"method": "sentences", "k": 3},
        "sentences:3",
    ),
    Case(
        "hybrid-sentences",
        ("obfuscate", "hybrid", "--then", "sentences", "--bank", "{bank}", "--k", "3", "--config={config}"),
        {"method": "hybrid", "then": "sentences", "k": 3},
        "hybrid:sentences",
    ),
]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("faces")
    path = folder / "notes.jsonl"
    path.write_text("".join(json.dumps({"id": i, "text": t}) + "\n" for i, t in NOTES), encoding="utf-8")
    (folder / "operators.toml").write_text(OPERATORS_TOML, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def service(bank: Path) -> Iterator[TestClient]:
    settings = ServiceSettings(languages=("en",), isolation="thread", workers=1, sentence_bank=bank)
    with TestClient(create_app(settings)) as client:
        yield client


def documents(path: Path) -> list[Document]:
    return [r for r in open_reader(path) if isinstance(r, Document)]


def from_cli(case: Case, corpus: Path, bank: Path, tmp_path: Path) -> dict[str, str]:
    output = tmp_path / f"{case.name}.jsonl"
    fill = {"config": str(corpus.parent / "operators.toml"), "bank": str(bank)}
    command = [part.format(**fill) for part in case.cli]
    args = [*command, str(corpus), "-o", str(output), "--seed", str(SEED), "--no-progress"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]
    return {line["id"]: line["text"] for line in lines}


def from_service(case: Case, client: TestClient) -> dict[str, str]:
    outputs = {}
    for doc_id, text in NOTES:
        body = {"text": text, "id": doc_id, "seed": SEED, "operators": {"DATE": "fake", "AGE": "fake"}}
        response = client.post("/deid", json={**body, **case.service})
        assert response.status_code == 200, response.text
        outputs[doc_id] = response.json()["output"]
    return outputs


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_the_same_seed_gives_the_same_bytes_from_every_face(
    case: Case, corpus: Path, bank: Path, service: TestClient, tmp_path: Path
) -> None:
    docs = documents(corpus)
    python = {doc.id: build_method(case.config(bank))(doc).result for doc in docs}
    pipeline = PipelineConfig(operators=FAKE)
    evaluated = report_method(case.report, pipeline=pipeline, sentences={"bank": str(bank), "k": 3})
    report = {doc.id: doc.result for doc in evaluated.anonymize(docs, SEED)}
    cli = from_cli(case, corpus, bank, tmp_path)
    served = from_service(case, service)
    assert python == cli == report == served
    assert all(python[doc_id] != text for doc_id, text in NOTES)  # something was replaced


def test_another_seed_gives_other_bytes(bank: Path, corpus: Path) -> None:
    docs = documents(corpus)
    config = HybridConfig(PipelineConfig(operators=FAKE, seed=SEED), "words", n="5")
    method = build_method(config)
    other = method.reseeded(SEED + 1)
    assert [method(d).result for d in docs] != [other(d).result for d in docs]
    assert [method(d).result for d in docs] == [build_method(config)(d).result for d in docs]
