"""One constructor shape for every detector: ``cls(params)``, params typed by the class's ``params_type``."""

from __future__ import annotations

import dataclasses

import pytest

from anonymed.detect.base import DetectorParams
from anonymed.detect.plugins import HuggingFaceDetector, SpacyDetector
from anonymed.detect.registry import BUILTIN_DETECTORS, build_detector, detector_class
from anonymed.errors import ConfigError

#: options a detector needs that have no default
REQUIRED = {"huggingface": {"model": "some/folder"}, "spacy": {"model": "some_package"}}


@pytest.mark.parametrize("name", sorted(BUILTIN_DETECTORS))
def test_every_builtin_detector_is_built_from_its_typed_params(name: str) -> None:
    cls = detector_class(name)
    assert issubclass(cls.params_type, DetectorParams)
    assert dataclasses.is_dataclass(cls.params_type)
    detector = build_detector(name, REQUIRED.get(name))
    assert isinstance(detector, cls)
    assert type(detector.params) is cls.params_type
    assert type(cls(detector.params).params) is cls.params_type  # the same shape, called directly


def test_no_params_means_the_default_params() -> None:
    assert build_detector("patterns").params == detector_class("patterns").params_type()
    assert detector_class("tagger")().params == detector_class("tagger").params_type()


@pytest.mark.parametrize("cls", [HuggingFaceDetector, SpacyDetector])
def test_a_detector_whose_option_has_no_default_says_which(cls: type[HuggingFaceDetector]) -> None:
    with pytest.raises(ConfigError, match="needs option model"):
        cls()
    with pytest.raises(ConfigError, match="needs option model"):
        build_detector(cls.name)


def test_a_loaded_pipeline_is_given_through_a_named_constructor() -> None:
    pipe = object()
    detector = HuggingFaceDetector.with_pipeline(pipe)
    assert detector._pipe is pipe and detector.params.model == "<given pipeline>"
    assert SpacyDetector.with_pipeline(pipe)._nlp is pipe
