"""The ``zip3`` operator (HIPAA Safe Harbor places): ZIP codes cut to three digits, small places replaced.

45 CFR 164.514(b)(2)(i)(B) removes every geographic subdivision smaller than a State, "except for the
initial three digits of a zip code" when the area of those three digits holds more than 20,000 people;
the others become 000. A ZIP code (subtype ``zip``, or a span of digits and separators) keeps its first
``digits`` digits (3 in English notes; 2 in French ones, the department, as no French list of small areas
exists) and every other digit becomes ``*``: "02139" -> "021**", "02139-4307" -> "021**-****", and a
prefix of ``restricted_zip3.txt`` (the 17 areas of the HHS guidance, Census 2000) becomes "000**". States
and countries (subtypes ``state``, ``country``) may stay (counted as kept). Every other place (city,
street, hospital, IP address, an address holding a ZIP code) goes to the ``places`` operator (``fake`` by
default), and any five-digit code in its surrogate is cut the same way, so no output shows a full ZIP.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Final

from anonymed.document import Span
from anonymed.errors import ConfigError
from anonymed.substitute.base import Context, Operator, OperatorParams, check_other_operator, fallback_for

_ZIP_LIKE: Final = re.compile(r"[\d\s\-]+")
#: a five-digit code (ZIP, ZIP+4, French postal code) inside a place surrogate: cut like a ZIP code too
_FULL_ZIP: Final = re.compile(r"(?<!\d)\d{5}(?:-\d{4})?(?!\d)")
_KEPT: Final = frozenset({"state", "country"})


@cache
def restricted_prefixes() -> frozenset[str]:
    """The shipped three-digit prefixes written 000 (``resources/hipaa/restricted_zip3.txt``)."""
    path = resources.files("anonymed").joinpath("resources", "hipaa", "restricted_zip3.txt")
    lines = (line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return frozenset(line for line in lines if line and not line.startswith("#"))


@dataclass(frozen=True)
class Zip3Params(OperatorParams):
    """Digits kept per language, the restricted prefixes (empty: the shipped list), the places operator."""

    digits: Mapping[str, int] = field(default_factory=lambda: {"en": 3, "fr": 2})
    restricted: tuple[str, ...] = ()
    places: str = "fake"


def generalise_zip(text: str, keep: int, restricted: frozenset[str]) -> str:
    """The first ``keep`` digits of ``text`` (000 if restricted) and ``*`` for every later digit."""
    digits = "".join(ch for ch in text if ch.isdigit())
    head = digits[:keep]
    if keep == 3 and head in restricted:
        head = "000"
    out, seen = [], 0
    for ch in text:
        if ch.isdigit():
            out.append(head[seen] if seen < len(head) else "*")
            seen += 1
        else:
            out.append(ch)
    return "".join(out)


class Zip3Operator(Operator[Zip3Params]):
    """ZIP codes to their first digits, states and countries kept, other places replaced."""

    name = "zip3"
    params_type = Zip3Params

    def validate(self) -> None:
        """Digits between 0 and 3; three-digit restricted prefixes; another operator for places."""
        super().validate()
        p = self.params
        if any(not 0 <= n <= 3 for n in p.digits.values()) or any(len(r) != 3 for r in p.restricted):
            raise ConfigError("zip3 keeps 0 to 3 digits and restricts three-digit prefixes")
        check_other_operator(self, p.places, "places")

    def prepare(self, spans: Sequence[Span], context: Context) -> None:
        """Prepare the places operator for the places it will replace."""
        places = [s for s in spans if not self._is_zip(s) and s.subtype not in _KEPT]
        if places:
            fallback_for(self, self.params.places).prepare(places, context)

    @staticmethod
    def _is_zip(span: Span) -> bool:
        """A span of subtype ``zip`` or without subtype, made of digits and separators only."""
        zip_like = _ZIP_LIKE.fullmatch(span.text) is not None and any(ch.isdigit() for ch in span.text)
        return zip_like and span.subtype in (None, "zip")

    def promises_change(self, span: Span, context: Context) -> bool:
        """Not for states and countries, which Safe Harbor lets stay."""
        return span.subtype not in _KEPT

    def operate(self, span: Span, context: Context) -> str:
        """The generalised ZIP code, the state or country itself, or the places operator's surrogate."""
        p = self.params
        if span.subtype in _KEPT:
            return span.text
        if self._is_zip(span):
            restricted = frozenset(p.restricted) or restricted_prefixes()
            return generalise_zip(span.text, p.digits.get(context.lang, 3), restricted)
        surrogate = fallback_for(self, p.places).operate(span, context)
        keep = p.digits.get(context.lang, 3)
        return _FULL_ZIP.sub(lambda m: generalise_zip(m.group(0), keep, frozenset()), surrogate)
