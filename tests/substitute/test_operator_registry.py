"""The operator registry: every name resolves to its class, defaults cover every label, errors name values."""

from __future__ import annotations

import pytest

from anonymed.errors import ConfigError
from anonymed.labels import Label
from anonymed.substitute.base import Operator
from anonymed.substitute.registry import DEFAULT_OPERATORS, OPERATORS, build_operator, operator_class


@pytest.mark.parametrize("name", sorted(OPERATORS))
def test_every_registered_operator_builds_under_its_own_name(name: str) -> None:
    operator = build_operator(name)
    assert isinstance(operator, Operator) and operator.name == name
    assert operator_class(name) is type(operator)


def test_every_label_has_a_registered_default_operator() -> None:
    assert set(DEFAULT_OPERATORS) == set(Label)
    assert set(DEFAULT_OPERATORS.values()) <= set(OPERATORS)


def test_unknown_operator_is_a_configuration_error_listing_the_known_ones() -> None:
    with pytest.raises(ConfigError, match=r"unknown operator 'scramble'.*fake"):
        build_operator("scramble")


def test_unknown_parameter_is_a_configuration_error_naming_the_operator() -> None:
    with pytest.raises(ConfigError, match="bad parameters for operator 'tag'"):
        build_operator("tag", {"templet": "[{label}]"})
