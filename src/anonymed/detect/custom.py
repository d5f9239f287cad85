"""The site's own identifier formats, declared in configuration as the built-in ones are in code.

Each ``[[detector_params.patterns.custom]]`` entry becomes a ``Recognizer`` (``patterns/recognizer.py``):
a regular expression, the label (and subtype) it gives, context words that raise its score, and an
optional named validator from ``patterns/checksums.py`` and ``patterns/ids.py``::

    [[detector_params.patterns.custom]]
    name = "ipp"
    label = "ID/mrn"
    regex = '(?<![\\w-])8\\d{9}(?![\\w-])'
    context = ["ipp", "patient id"]
    validator = "luhn"

Every regex is checked for catastrophic backtracking when the entry is read (``regex_safety``); errors
name the entry (its index and name), never a note.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any, Final

from anonymed.detect.patterns.checksums import digits_of, iban_ok, luhn_ok, nhs_ok
from anonymed.detect.patterns.ids import nir_key_is_valid
from anonymed.detect.patterns.recognizer import Recognizer
from anonymed.detect.regex_safety import checked_regex
from anonymed.errors import ConfigError, SpanError
from anonymed.labels import parse_label
from anonymed.params import check_types


def _luhn(text: str) -> bool:
    return luhn_ok(digits_of(text))


def _nir(text: str) -> bool:
    return nir_key_is_valid("".join(text.split()))


#: validator name -> check (True: the check digits are right); the functions of the built-in formats
VALIDATORS: Final[Mapping[str, Callable[[str], bool]]] = MappingProxyType(
    {
        "luhn": _luhn,  # ISO/IEC 7812 (mod 10) over the digits, separators ignored
        "mod97": iban_ok,  # ISO 7064 MOD 97-10 as ISO 13616 (IBAN) applies it
        "mod11": nhs_ok,  # mod 11, weights 10 to 2 (UK NHS number)
        "nir": _nir,  # French NIR key: 97 - (13 digits mod 97), Corsica 2A/2B
    }
)


@dataclass(frozen=True)
class CustomPattern:
    """One site format: where it is (regex), what it is (label, subtype), what makes it likelier or not."""

    regex: str
    label: str
    name: str = ""
    subtype: str | None = None
    score: float = 0.85
    context: tuple[str, ...] = ()
    context_score: float | None = None
    needs_context: bool = False
    validator: str | None = None
    #: score when the validator fails (None: such matches are dropped)
    invalid_score: float | None = None
    ignore_case: bool = False
    group: int | str = 0
    languages: tuple[str, ...] = ("en", "fr")
    window: int = 40

    def recognizer(self, where: str) -> Recognizer:
        """The checked recognizer of this entry; ``ConfigError`` naming ``where``."""
        try:
            full = self.label if self.subtype is None else f"{self.label}/{self.subtype}"
            label, subtype = parse_label(full)
        except SpanError as exc:
            raise ConfigError(f"{where}: {exc}") from None
        for name in ("score", "context_score", "invalid_score"):
            value = getattr(self, name)
            if value is not None and not 0.0 <= value <= 1.0:
                raise ConfigError(f"{where}: {name} must be within [0, 1], got {value!r}")
        if self.validator is not None and self.validator not in VALIDATORS:
            raise ConfigError(f"{where}: unknown validator {self.validator!r}; known: {sorted(VALIDATORS)}")
        if self.needs_context and not self.context:
            raise ConfigError(f"{where}: needs_context without context words")
        pattern = checked_regex(self.regex, re.IGNORECASE if self.ignore_case else 0, where)
        if isinstance(self.group, int) and not 0 <= self.group <= pattern.groups:
            raise ConfigError(f"{where}: group {self.group} but the regex has {pattern.groups} groups")
        if isinstance(self.group, str) and self.group not in pattern.groupindex:
            raise ConfigError(f"{where}: no group named {self.group!r} in the regex")
        return Recognizer(
            name=f"custom:{self.name}" if self.name else where,
            pattern=pattern,
            label=label,
            subtype=subtype,
            score=self.score,
            context=tuple(word.lower() for word in self.context),
            context_score=min(1.0, self.score + 0.1) if self.context_score is None else self.context_score,
            validator=VALIDATORS[self.validator] if self.validator is not None else None,
            invalid_score=self.invalid_score,
            needs_context=self.needs_context,
            group=self.group,
            languages=frozenset(self.languages),
            window=self.window,
        )


_FIELDS: Final = frozenset(f.name for f in fields(CustomPattern))


def custom_pattern(entry: CustomPattern | Mapping[str, Any], index: int) -> CustomPattern:
    """One entry as a ``CustomPattern`` (from a TOML table or already typed)."""
    if isinstance(entry, CustomPattern):
        return entry
    where = f"custom pattern {index}"
    if not isinstance(entry, Mapping):
        raise ConfigError(f"{where}: expected a table, got a {type(entry).__name__}")
    unknown = set(entry) - _FIELDS
    if unknown or "regex" not in entry or "label" not in entry:
        raise ConfigError(
            f"{where}: needs regex and label; unknown keys {sorted(unknown)}, known {sorted(_FIELDS)}"
        )
    values = dict(entry)
    for key in ("context", "languages"):
        if key in values:
            if not isinstance(values[key], list | tuple) or not all(isinstance(v, str) for v in values[key]):
                raise ConfigError(f"{where}: {key} must be a list of strings")
            values[key] = tuple(values[key])
    try:
        return CustomPattern(**values)
    except TypeError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def custom_patterns(entries: Iterable[CustomPattern | Mapping[str, Any]]) -> tuple[CustomPattern, ...]:
    """The entries, typed and checked (each regex once per process: the check is cached)."""
    typed = tuple(custom_pattern(entry, index) for index, entry in enumerate(entries))
    compile_patterns(typed)
    return typed


def _where(pattern: CustomPattern, index: int) -> str:
    return f"custom pattern {index}" + (f" ({pattern.name!r})" if pattern.name else "")


def compile_patterns(patterns: Iterable[CustomPattern]) -> tuple[Recognizer, ...]:
    """The recognizers of the entries; ``ConfigError`` naming the first bad entry."""
    built = []
    for index, pattern in enumerate(patterns):
        where = _where(pattern, index)
        check_types(pattern, where)
        built.append(pattern.recognizer(where))
    return tuple(built)
