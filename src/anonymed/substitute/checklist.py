"""The HIPAA Safe Harbor checklist of a run: each of the 18 kinds of 45 CFR 164.514(b)(2)(i), what was done.

Each kind lists the labels (``LABEL`` or ``LABEL/subtype``) anonymed detects for it; the checklist sums
the run's counts over them: how many values were found and, per operator, how many were replaced, kept
(a year, an age under 90, a State: what the rule allows) or replaced by the stage's fallback. Kinds with
no detector say so; photographs and biometrics are not text. Counts only, never values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from anonymed.substitute.summary import parse_counts


@dataclass(frozen=True)
class Kind:
    """One kind of identifier of the rule: its letter, its words, the labels that hold it, a note."""

    letter: str
    identifier: str
    labels: tuple[str, ...]
    note: str = ""


#: kinds found by their own formats or by the word that names them ("member ID", "DL#", "license plate",
#: "S/N", a Medicare MBI, a GS1 UDI); an unnamed number of these kinds is found, if at all, as ID (kind R)
_NAMED_ONLY = "found when named or in a known format; other such numbers, if found, count as kind R"
#: 45 CFR 164.514(b)(2)(i)(A)-(R) and the labels anonymed gives them
SAFE_HARBOR: Final = (
    Kind("A", "Names", ("NAME",)),
    Kind(
        "B",
        "Geographic subdivisions smaller than a State (street, city, county, precinct, ZIP code)",
        (
            "LOCATION",
            "LOCATION/city",
            "LOCATION/street",
            "LOCATION/zip",
            "LOCATION/hospital",
            "LOCATION/state",
            "LOCATION/country",
        ),
        "States and countries may stay; ZIP codes keep three digits (000 for areas of 20,000 or fewer)",
    ),
    Kind(
        "C",
        "Elements of dates (except year) related to an individual; ages over 89",
        ("DATE", "DATE/birth", "DATE/year", "DATE/time", "AGE", "AGE/over89"),
        "Years and ages under 90 may stay; ages over 89 and dates implying them become one 90+ category",
    ),
    Kind("D", "Telephone numbers", ("CONTACT", "CONTACT/phone")),
    Kind("E", "Fax numbers", ("CONTACT/fax",)),
    Kind("F", "Electronic mail addresses", ("CONTACT/email",)),
    Kind("G", "Social security numbers", ("ID/ssn", "ID/nir")),
    Kind("H", "Medical record numbers", ("ID/mrn",)),
    Kind("I", "Health plan beneficiary numbers", ("ID/plan",), _NAMED_ONLY),
    Kind("J", "Account numbers", ("ID/account",)),
    Kind("K", "Certificate/license numbers", ("ID/license",), _NAMED_ONLY),
    Kind(
        "L", "Vehicle identifiers and serial numbers, including license plates", ("ID/vehicle",), _NAMED_ONLY
    ),
    Kind("M", "Device identifiers and serial numbers", ("ID/device",), _NAMED_ONLY),
    Kind("N", "Web Universal Resource Locators (URLs)", ("CONTACT/url",)),
    Kind("O", "Internet Protocol (IP) address numbers", ("LOCATION/ip",)),
    Kind("P", "Biometric identifiers, including finger and voice prints", (), "not held in text"),
    Kind("Q", "Full face photographic images and comparable images", (), "not held in text"),
    Kind(
        "R",
        "Any other unique identifying number, characteristic, or code",
        ("ID", "ID/other", "OTHER", "ORGANIZATION", "PROFESSION", "CONTACT/handle"),
    ),
)


def kind_of(label: str) -> str | None:
    """The letter of the kind a label (``LABEL`` or ``LABEL/subtype``) belongs to; its own subtype first."""
    for key in (label, label.split("/")[0]):
        for kind in SAFE_HARBOR:
            if key in kind.labels:
                return kind.letter
    return None


def safe_harbor_checklist(counters: Mapping[str, int]) -> list[dict[str, Any]]:
    """One entry per kind: its letter and words, values found, and per operator the outcome counts."""
    counts = [c for c in parse_counts(counters) if not c.outcome.startswith("expected")]
    rows = []
    for kind in SAFE_HARBOR:
        done: dict[str, dict[str, int]] = {}
        for count in counts:
            if kind_of(count.label) == kind.letter:
                outcomes = done.setdefault(count.operator, {})
                outcomes[count.outcome] = outcomes.get(count.outcome, 0) + count.count
        rows.append(
            {
                "kind": kind.letter,
                "identifier": kind.identifier,
                "found": sum(n for outcomes in done.values() for n in outcomes.values()),
                "done": done,
                "note": kind.note,
            }
        )
    return rows
