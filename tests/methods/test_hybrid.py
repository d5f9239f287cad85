"""Hybrid mode: detect-and-replace, then sentence (or word) substitution, from one configuration."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.labels import Label
from anonymed.methods import HybridConfig, build_method
from anonymed.sentences.banks import load_bank, normalise
from anonymed.sentences.splitter import split_sentences

NOTE = "Mr. John Smith was seen on 03/14/2019. The knee was examined with mild pain.\nPLAN:\nHome."
SEEDABLE = {Label.DATE: "fake", Label.AGE: "fake"}


def test_configuration_reads_pipeline_tables_and_a_hybrid_table(tmp_path: Path, bank: Path) -> None:
    path = tmp_path / "hybrid.toml"
    path.write_text(
        '[pipeline]\nseed = 7\n[operators]\nNAME = "tag"\n'
        f'[hybrid]\nthen = "sentences"\nk = 3\nbank = "{bank}"\n',
        encoding="utf-8",
    )
    config = HybridConfig.from_toml(path, k=4)
    assert config.pipeline.seed == 7 and config.pipeline.operators[Label.NAME] == "tag"
    assert (config.then, config.k, config.bank) == ("sentences", 4, bank)


@pytest.mark.parametrize(
    "table",
    [
        {"then": "paragraphs"},  # unknown second stage
        {"k": 1},  # too few neighbours
        {"colour": "blue"},  # unknown key
    ],
)
def test_bad_hybrid_tables_are_refused(table: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        HybridConfig.from_mapping({"hybrid": table})


def test_phi_is_replaced_first_then_every_sentence(bank: Path) -> None:
    config = HybridConfig(PipelineConfig(seed=3, operators=SEEDABLE), "sentences", 4, bank=bank)
    doc = build_method(config)(Document("n1", NOTE))
    assert doc.replacements and {r.label for r in doc.replacements} >= {Label.NAME, Label.DATE}
    assert "Smith" not in doc.result and "03/14/2019" not in doc.result
    after = [doc.result[s.start : s.end] for s in split_sentences(doc.result)]
    assert set(after) <= set(load_bank(bank).sentences)
    assert normalise(after[1]) != normalise("The knee was examined with mild pain.")
    assert doc.privacy["sentences"]["sentences"] == len(after)


def test_hybrid_is_reproducible_with_a_seed(bank: Path) -> None:
    config = HybridConfig(PipelineConfig(seed=3, operators=SEEDABLE), "sentences", 4, bank=bank)
    outputs = {config.build()(Document("n1", NOTE)).result for _ in range(2)}
    assert len(outputs) == 1


def test_hybrid_then_words_uses_the_word_obfuscator() -> None:
    config = HybridConfig(PipelineConfig(seed=2, operators=SEEDABLE), then="words", n="3")
    doc = build_method(config)(Document("n2", NOTE))
    assert doc.privacy["words"]["n"] == "3" and "Smith" not in doc.result


def test_hybrid_configuration_survives_pickling(bank: Path) -> None:
    config = HybridConfig(PipelineConfig(seed=1), "sentences", 3, bank=bank)
    again = pickle.loads(pickle.dumps(config))
    assert again.fingerprint() == config.fingerprint() and again.bank == bank
