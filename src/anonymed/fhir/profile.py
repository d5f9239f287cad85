"""What the FHIR and SQL paths take from the run's privacy profile besides its operators for the notes.

* ``date_shift_params``: the parameters of the profile's ``date_shift`` operator (shift sizes), whose
  per-patient shift also moves the structured dates (``dates.Timeline``), whatever the DATE operator.
* ``dp_statement``: what the manifest says of differential privacy (the notes' DP operators only; the
  structured elements never carry a DP guarantee, whatever the table).
* ``check_text_operators``: a rules table that claims Safe Harbor claims it for the notes too, so the
  run's operators (the profile's, with the user's choices) must keep at most the year of a date, ages up
  to 89, three digits of a ZIP code, and replace everything else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from anonymed.config import PipelineConfig
from anonymed.errors import ConfigError
from anonymed.labels import Label
from anonymed.substitute.date_shift import DateShiftOperator, DateShiftParams
from anonymed.substitute.registry import build_operator, operator_class

#: operators that replace a value without keeping any of it (the other labels under Safe Harbor)
_REPLACING: Final = frozenset({"fake", "redact", "tag"})
#: label -> what Safe Harbor lets its operator keep (year_only, age_over89, zip3), besides replacing it
SAFE_HARBOR_OPERATORS: Final[Mapping[Label, frozenset[str]]] = {
    Label.DATE: _REPLACING - {"fake"} | {"year_only"},
    Label.AGE: _REPLACING | {"age_over89"},
    Label.LOCATION: _REPLACING | {"zip3"},
}


def date_shift_params(config: PipelineConfig) -> DateShiftParams:
    """The run's ``date_shift`` parameters (the profile's, under the user's), validated."""
    operator = build_operator("date_shift", config.substitution.operator_params.get("date_shift"))
    assert isinstance(operator, DateShiftOperator)
    return operator.params


def dp_statement(config: PipelineConfig) -> dict[str, Any] | None:
    """The DP operators of the notes and their budget per text, or None when no operator is DP."""
    operators = config.substitution.operators
    private = {
        label.value: name for label, name in operators.items() if operator_class(name).differentially_private
    }
    if not private:
        return None
    return {
        "notes": private,
        "epsilon_per_text": config.substitution.epsilon,
        "scope": "each text (note, narrative, free-text element) has its own budget, shared by its distinct "
        "DP values; no budget is accounted per patient or per export",
        "structured_elements": "no differential-privacy guarantee (generalised, pseudonymised or removed "
        "by the rules table)",
    }


def check_text_operators(config: PipelineConfig) -> None:
    """Refuse a Safe Harbor run whose operators keep more of a note than Safe Harbor allows."""
    for label, name in config.substitution.operators.items():
        allowed = SAFE_HARBOR_OPERATORS.get(label, _REPLACING)
        if name not in allowed:
            raise ConfigError(
                f"the rules table claims Safe Harbor, but the notes' operator for {label.value} is {name!r}; "
                f"Safe Harbor allows {sorted(allowed)} (profile hipaa-safe-harbor)"
            )
