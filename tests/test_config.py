"""Configuration: defaults, TOML files and overrides, validated once with messages naming the bad value."""

from __future__ import annotations

from pathlib import Path

import pytest

from anonymed.config import PipelineConfig
from anonymed.errors import ConfigError
from anonymed.labels import Label
from anonymed.profiles import DEFAULT_PROFILE, load_profile, profile_from_mapping, profile_names


def test_defaults_cover_every_label_through_the_default_profile() -> None:
    config = PipelineConfig()
    assert config.profile == DEFAULT_PROFILE and not config.operators  # no choice of the user's
    assert set(config.substitution.operators) == set(Label)
    assert config.substitution.operators[Label.DATE] == "date_shift"
    assert config.substitution.operators[Label.AGE] == "age_noise"
    assert config.lang == "en" and config.seed is None


def test_toml_file_merges_over_defaults_and_overrides_win(tmp_path: Path) -> None:
    path = tmp_path / "deid.toml"
    path.write_text(
        '[pipeline]\nlang = "fr"\nseed = 7\n[operators]\nNAME = "tag"\n'
        '[operator_params.tag]\ntemplate = "<{label}>"\n'
    )
    config = PipelineConfig.from_toml(path, seed=9)
    assert config.lang == "fr" and config.seed == 9
    plan = config.substitution
    assert plan.operators[Label.NAME] == "tag" and plan.operators[Label.DATE] == "date_shift"
    assert plan.operator_params["tag"]["template"] == "<{label}>"


def test_precedence_defaults_profile_file_then_options(tmp_path: Path) -> None:
    """Built-in defaults < profile < configuration file < explicit options (``configure``)."""
    from anonymed.methods.configure import configure

    path = tmp_path / "deid.toml"
    path.write_text(
        '[pipeline]\nprofile = "dp"\n[operators]\nNAME = "tag"\n'
        '[operator_params.dp_date]\nchronology = "gaps"\n'
    )
    from_file = configure(path).pipeline()
    plan = from_file.substitution
    assert plan.profile.name == "dp" and plan.operators[Label.DATE] == "dp_date"  # the profile's
    assert plan.operators[Label.NAME] == "tag"  # the file's over the profile's fake
    assert plan.operator_params["dp_date"]["chronology"] == "gaps"  # file over profile, key by key
    assert (
        plan.operator_params["dp_date"]["metric"] == load_profile("dp").operator_params["dp_date"]["metric"]
    )
    assert plan.operators[Label.CONTACT] == "fake"  # the built-in default under every profile
    options = {"pipeline": {"profile": "hipaa-safe-harbor", "epsilon": 3.0}, "operators": {"NAME": "redact"}}
    cli = configure(path, options).pipeline()
    plan = cli.substitution
    assert plan.profile.name == "hipaa-safe-harbor" and plan.operators[Label.DATE] == "year_only"
    assert plan.operators[Label.NAME] == "redact" and plan.epsilon == 3.0


def test_every_shipped_profile_builds_a_pipeline() -> None:
    from anonymed.pipeline import Pipeline

    assert {"pseudonymise", "hipaa-safe-harbor", "dp"} <= set(profile_names())
    for name in profile_names():
        profile = load_profile(name)
        assert profile.description and set(profile.operators) == set(Label), name
        assert Pipeline(PipelineConfig(profile=name)).substituter_.operators  # each operator validated


def test_an_unknown_profile_is_rejected_naming_the_known_ones() -> None:
    with pytest.raises(ConfigError) as info:
        PipelineConfig(profile="paranoid")
    assert "'paranoid'" in str(info.value) and "hipaa-safe-harbor" in str(info.value)


def test_a_profile_holds_substitution_choices_only() -> None:
    with pytest.raises(ConfigError):
        profile_from_mapping("x", {"pipeline": {"lang": "fr"}})
    with pytest.raises(ConfigError):
        profile_from_mapping("x", {"operators": {"PERSON": "fake"}})


@pytest.mark.parametrize(
    ("toml", "named"),
    [
        ('[pipeline]\nlang = "de"\n', "'de'"),  # unsupported language
        ('[pipeline]\ndetectors = ["magic"]\n', "'magic'"),  # unknown detector
        ('[operators]\nNAME = "shred"\n', "'shred'"),  # unknown operator
        ('[operators]\nPERSON = "tag"\n', "'PERSON'"),  # unknown label
        ("[epsilon_weights]\nPET = 1.0\n", "'PET'"),  # unknown label
        ('[pipeline]\ncolour = "blue"\n', "colour"),  # unknown key
        ("[extras]\nx = 1\n", "extras"),  # unknown table
        ("[pipeline]\nepsilon = -1.0\n", "-1.0"),  # non-positive budget
        ('[pipeline]\nprofile = "loose"\n', "'loose'"),  # unknown profile
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
