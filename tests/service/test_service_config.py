"""The service's precedence: built-in defaults < profile < ``serve --config`` file < the request's fields.

A field the request does not send never overrides the file (pydantic's ``model_fields_set``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from service_support import ClientFactory

from anonymed.methods import HybridConfig, ReplaceConfig
from anonymed.methods.configure import configure
from anonymed.service.methods import request_layer, second_stage
from anonymed.service.models import DeidRequest

NOTE = "Mr. John Durand was seen by Dr. Helen Park on 02/12/2020."


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "service.toml"
    path.write_text(
        '[pipeline]\nseed = 3\ndetectors = ["patterns", "lexicons"]\n[operators]\nNAME = "tag"\n'
        '[hybrid]\nthen = "sentences"\nk = 3\n'
    )
    return path


def test_a_request_s_fields_override_the_file_and_unsent_fields_do_not(config_file: Path) -> None:
    base = configure(config_file)
    sent = DeidRequest(text=NOTE, operators={"NAME": "redact"}, seed=9)
    chosen = base.with_request(request_layer(sent))
    assert chosen.effective.get("operators", "NAME") == "redact"
    assert chosen.effective.source("operators", "NAME") == "request"
    assert (chosen.seed, chosen.effective.source("pipeline", "seed")) == (9, "request")
    silent = base.with_request(request_layer(DeidRequest(text=NOTE)))  # lang, seed, then left at defaults
    assert silent.effective.get("operators", "NAME") == "tag" and silent.seed == 3
    assert silent.effective.get("pipeline", "detectors") == ["patterns", "lexicons"]
    assert second_stage(silent) == "sentences"  # the file's, though the request model defaults to None
    assert second_stage(configure().with_request({})) == "words"  # the service's default second stage


def test_the_service_applies_its_file_under_each_request(
    make_client: ClientFactory, config_file: Path
) -> None:
    with make_client(isolation="thread", workers=1, config_file=config_file) as client:
        plain: dict[str, Any] = client.post("/deid", json={"text": NOTE}).json()
        chosen: dict[str, Any] = client.post(
            "/deid", json={"text": NOTE, "operators": {"NAME": "redact"}}
        ).json()
        again: dict[str, Any] = client.post("/deid", json={"text": NOTE}).json()
    assert plain["seeded"] is True and plain["output"] == again["output"]  # the file's seed
    assert "[NAME]" in plain["output"] or "<NAME>" in plain["output"]  # the file's NAME = "tag"
    assert {r["operator"] for r in plain["replacements"] if r["label"] == "NAME"} == {"tag"}
    assert {r["operator"] for r in chosen["replacements"] if r["label"] == "NAME"} == {"redact"}


def test_request_config_builds_the_hybrid_of_the_layers(config_file: Path) -> None:
    chosen = configure(config_file).with_request(request_layer(DeidRequest(text=NOTE, method="hybrid", k=4)))
    assert chosen.effective.get("hybrid", "k") == 4 and chosen.effective.get("hybrid", "then") == "sentences"
    assert isinstance(chosen.hybrid(), HybridConfig) and chosen.hybrid().k == 4
    assert isinstance(ReplaceConfig(chosen.pipeline()), ReplaceConfig)
