"""Configuration: defaults, TOML files and overrides, validated once with messages naming the bad value."""

from __future__ import annotations

from pathlib import Path

import pytest

from anonymed.config import PipelineConfig
from anonymed.errors import ConfigError
from anonymed.labels import Label


def test_defaults_cover_every_label() -> None:
    config = PipelineConfig()
    assert set(config.operators) == set(Label)
    assert config.lang == "en" and config.seed is None


def test_toml_file_merges_over_defaults_and_overrides_win(tmp_path: Path) -> None:
    path = tmp_path / "deid.toml"
    path.write_text(
        '[pipeline]\nlang = "fr"\nseed = 7\n[operators]\nNAME = "tag"\n'
        '[operator_params.tag]\ntemplate = "<{label}>"\n'
    )
    config = PipelineConfig.from_toml(path, seed=9)
    assert config.lang == "fr" and config.seed == 9
    assert config.operators[Label.NAME] == "tag" and config.operators[Label.DATE] == "dp_date"
    assert config.operator_params["tag"]["template"] == "<{label}>"


@pytest.mark.parametrize(
    ("toml", "named"),
    [
        ('[pipeline]\nlang = "de"\n', "'de'"),  # unsupported language
        ('[pipeline]\ndetectors = ["magic"]\n', "'magic'"),  # unknown detector
        ('[operators]\nNAME = "shred"\n', "'shred'"),  # unknown operator
        ('[operators]\nPERSON = "tag"\n', "labels"),  # unknown label
        ('[pipeline]\ncolour = "blue"\n', "colour"),  # unknown key
        ("[extras]\nx = 1\n", "extras"),  # unknown table
        ("[pipeline]\nepsilon = -1.0\n", "-1.0"),  # non-positive budget
        ("[pipeline\n", "cannot read"),  # broken TOML
    ],
)
def test_bad_configuration_is_rejected_naming_the_value(tmp_path: Path, toml: str, named: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(toml)
    with pytest.raises(ConfigError) as info:
        PipelineConfig.from_toml(path)
    assert named in str(info.value)


def test_replace_ignores_none_overrides() -> None:
    config = PipelineConfig(lang="fr").replace(lang=None, seed=3)
    assert config.lang == "fr" and config.seed == 3
