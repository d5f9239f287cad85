"""Known identifiers of a person resource, in the shared contract's format (``doc.metadata["known"]``).

Each is ``{"kind": "LABEL/subtype", "value": "..."}`` (see the project's data contracts): names as written
(each given name, the family name, and the full name as one value), birth date, identifier values by
type, telecom values by system, and address lines, cities, districts and postal codes. These values
are secrets: they travel only inside ``Document.metadata`` to the detectors and are never written out.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Final

from anonymed.known import MAX_ITEMS, MAX_VALUE_CHARS

Known = dict[str, str]

#: Identifier.type codes (HL7 v2 table 0203) and systems -> known kind
_ID_TYPES: Final = {
    "MR": "ID/mrn", "SS": "ID/ssn", "SB": "ID/ssn", "AN": "ID/account", "AMA": "ID/account",
    "DL": "ID/license", "MB": "ID/plan", "MC": "ID/plan", "MA": "ID/plan", "SN": "ID/plan",
}  # fmt: skip
_ID_SYSTEMS: Final = {
    "http://hl7.org/fhir/sid/us-ssn": "ID/ssn",
    "urn:oid:2.16.840.1.113883.4.1": "ID/ssn",
    "urn:oid:1.2.250.1.213.1.4.8": "ID/nir",  # French INS-NIR
    "urn:oid:1.2.250.1.213.1.4.10": "ID/nir",  # French INS-NIA
}
_TELECOM: Final = {"phone": "CONTACT/phone", "fax": "CONTACT/fax", "email": "CONTACT/email",
                   "url": "CONTACT/url", "sms": "CONTACT/phone", "pager": "CONTACT/phone"}  # fmt: skip
_ADDRESS: Final = (("line", "LOCATION/street"), ("city", "LOCATION/city"), ("district", "LOCATION"),
                   ("postalCode", "LOCATION/zip"))  # fmt: skip
_MAIDEN_NAME: Final = "http://hl7.org/fhir/StructureDefinition/patient-mothersMaidenName"


def _strings(value: Any) -> Iterator[str]:
    items = value if isinstance(value, list) else [value]
    yield from (item.strip() for item in items if isinstance(item, str) and item.strip())


def _dicts(value: Any) -> Iterator[Mapping[str, Any]]:
    items = value if isinstance(value, list) else [value]
    yield from (item for item in items if isinstance(item, dict))


def names(value: Any, kind: str) -> Iterator[Known]:
    """Every given name, family name, text and full name of a HumanName list."""
    for name in _dicts(value):
        given, family = list(_strings(name.get("given"))), list(_strings(name.get("family")))
        for part in (*given, *family, *_strings(name.get("text"))):
            yield {"kind": kind, "value": part}
        if given and family:
            yield {"kind": kind, "value": " ".join((*given, *family))}


def identifier_kind(identifier: Mapping[str, Any]) -> str:
    """The known kind of an Identifier: by its type code, then its system; ``ID/other`` otherwise."""
    system = identifier.get("system")
    if isinstance(system, str) and system in _ID_SYSTEMS:
        return _ID_SYSTEMS[system]
    for coding in _dicts(
        (identifier.get("type") or {}).get("coding") if isinstance(identifier.get("type"), dict) else None
    ):
        code = coding.get("code")
        if isinstance(code, str) and code in _ID_TYPES:
            return _ID_TYPES[code]
    return "ID/other"


def contact_details(resource: Mapping[str, Any]) -> Iterator[Known]:
    """Telecom values and address parts of a person (or of a Patient.contact entry)."""
    for telecom in _dicts(resource.get("telecom")):
        system = telecom.get("system")
        for value in _strings(telecom.get("value")):
            yield {
                "kind": _TELECOM.get(system if isinstance(system, str) else "", "CONTACT/phone"),
                "value": value,
            }
    for address in _dicts(resource.get("address")):
        for field, kind in _ADDRESS:
            for value in _strings(address.get(field)):
                yield {"kind": kind, "value": value}


def identifiers(resource: Mapping[str, Any]) -> Iterator[Known]:
    """The values of a resource's ``identifier`` list, with their kinds."""
    for identifier in _dicts(resource.get("identifier")):
        for value in _strings(identifier.get("value")):
            yield {"kind": identifier_kind(identifier), "value": value}


def person_known(resource: Mapping[str, Any], name_kind: str) -> list[Known]:
    """Names, birth date, identifiers, telecom and address of a Patient, RelatedPerson or Practitioner."""
    found: list[Known] = [*names(resource.get("name"), name_kind)]
    found += [{"kind": "DATE/birth", "value": v} for v in _strings(resource.get("birthDate"))]
    found += [*identifiers(resource), *contact_details(resource)]
    if resource.get("resourceType") == "Patient":
        for contact in _dicts(resource.get("contact")):
            found += [*names(contact.get("name"), "NAME/relative"), *contact_details(contact)]
        for extension in _dicts(resource.get("extension")):
            if extension.get("url") == _MAIDEN_NAME:
                found += [
                    {"kind": "NAME/relative", "value": v} for v in _strings(extension.get("valueString"))
                ]
    return found


def unique(known: Iterable[Known]) -> tuple[list[Known], int]:
    """The identifiers in first-seen order, each (kind, value) once, within the contract's bounds (at most
    ``MAX_ITEMS``, values of at most ``MAX_VALUE_CHARS``: the ``known`` detector refuses more); and how
    many distinct identifiers the bounds dropped (so list the patient's own first)."""
    seen: set[tuple[str, str]] = set()
    out: list[Known] = []
    dropped = 0
    for item in known:
        key = (item["kind"], item["value"])
        if key in seen:
            continue
        seen.add(key)
        if len(out) < MAX_ITEMS and len(item["value"]) <= MAX_VALUE_CHARS:
            out.append(item)
        else:
            dropped += 1
    return out, dropped
