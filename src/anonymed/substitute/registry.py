"""Operators registered by name: one explicit mapping of the built-in ones (imported only when used), plus
those of other packages (entry points of the ``anonymed.operators`` group) and ``register_operator``."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from anonymed._lazy import Registry
from anonymed.errors import ConfigError
from anonymed.labels import Label
from anonymed.params import check_types
from anonymed.substitute.base import Operator

#: name -> "module:Class"
BUILTIN_OPERATORS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "tag": "anonymed.substitute.tag:TagOperator",
        "redact": "anonymed.substitute.redact:RedactOperator",
        "keep": "anonymed.substitute.keep:KeepOperator",
        "fake": "anonymed.substitute.fake.operator:FakeOperator",
        "dp_date": "anonymed.substitute.dp_date:DPDateOperator",
        "dp_age": "anonymed.substitute.dp_age:DPAgeOperator",
        "dp_location": "anonymed.substitute.dp_location:DPLocationOperator",
        "date_shift": "anonymed.substitute.date_shift:DateShiftOperator",
        "age_noise": "anonymed.substitute.age_noise:AgeNoiseOperator",
        "year_only": "anonymed.substitute.year_only:YearOnlyOperator",
        "age_over89": "anonymed.substitute.age_over89:AgeOver89Operator",
        "zip3": "anonymed.substitute.zip3:Zip3Operator",
    }
)

#: the entry-point group other packages declare their operators in
ENTRY_POINT_GROUP: Final = "anonymed.operators"

#: every operator by name: the built-in ones, those registered in code, those of installed packages
OPERATORS: Final[Registry[Operator[Any]]] = Registry(
    "operator", Operator, BUILTIN_OPERATORS, ENTRY_POINT_GROUP
)

#: the built-in operator of every label, under the profiles (``anonymed.profiles``): the default profile
#: moves dates (``date_shift``) and ages (``age_noise``); the ``dp`` profile uses the DP operators
DEFAULT_OPERATORS: Final[Mapping[Label, str]] = MappingProxyType(dict.fromkeys(Label, "fake"))


def operator_class(name: str) -> type[Operator[Any]]:
    """The operator class registered under ``name``."""
    return OPERATORS.resolve(name)


def register_operator(name: str, cls: type[Operator[Any]], *, replace: bool = False) -> None:
    """Make ``cls`` available under ``name`` in this process (configurations can then name it)."""
    OPERATORS.register(name, cls, replace=replace)


def build_operator(name: str, params: Mapping[str, Any] | None = None) -> Operator[Any]:
    """Instantiate and validate the operator ``name`` with parameters from configuration."""
    cls = operator_class(name)
    try:
        typed = cls.params_type(**dict(params or {}))
    except TypeError as exc:
        raise ConfigError(f"bad parameters for operator {name!r}: {exc}") from None
    check_types(typed, f"operator {name!r}")
    operator = cls(typed)
    operator.validate()
    return operator
