"""The first pass over an export: what the second pass needs to know before it changes anything.

It records, without keeping any resource: the business identifiers of the resources that references
usually point to by identifier (``Practitioner?identifier=...``, logical references), the full URLs of
Bundle entries, the start date of each Encounter (a note's reference date), each patient's known
identifiers (from Patient and RelatedPerson resources) and the practitioners each patient's resources
refer to (whose names, telecom and identifiers join the patient's known identifiers).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from anonymed.fhir.ids import URN_UUID, conditional_identifier, split_literal
from anonymed.fhir.known import Known, person_known, unique

#: resource types whose identifiers are indexed (the usual targets of references by identifier)
INDEXED_TYPES: Final = frozenset({
    "Patient", "Practitioner", "PractitionerRole", "Organization", "Location", "RelatedPerson", "Device",
    "Medication", "Encounter", "HealthcareService", "Endpoint", "Group", "Substance",
})  # fmt: skip
_PEOPLE: Final = frozenset({"Practitioner", "PractitionerRole"})
Target = tuple[str, str]


class ExportIndex:
    """Identifiers, full URLs, encounter dates and known identifiers of one export (see module doc)."""

    def __init__(self, patient_elements: Sequence[str] = ("subject", "patient")) -> None:
        self.patient_elements = tuple(patient_elements)
        self._by_identifier: dict[tuple[str, str], set[Target]] = defaultdict(set)
        self._full_urls: dict[str, Target] = {}
        self._encounter_start: dict[str, str] = {}
        self._patients: dict[str, list[Known]] = {}
        self._relatives: dict[str, list[Known]] = defaultdict(list)
        self._practitioners: dict[str, list[Known]] = {}
        self._role_practitioner: dict[str, str] = {}
        self._patient_staff: dict[str, set[str]] = defaultdict(set)
        self._cache: dict[str, list[Known]] = {}
        #: known identifiers beyond the contract's bounds, left out of the notes' Documents (per patient)
        self.known_dropped = 0

    # --- building (pass one) ---------------------------------------------------------------------
    def add(self, resource: Mapping[str, Any], full_url: str | None = None) -> None:
        """Record one resource (Bundle entries are added one by one with their full URL)."""
        rtype, rid = resource.get("resourceType"), resource.get("id")
        if not isinstance(rtype, str):
            return
        if rtype == "Bundle":
            for entry in _dicts(resource.get("entry")):
                if isinstance(entry.get("resource"), dict):
                    url = entry.get("fullUrl")
                    self.add(entry["resource"], url if isinstance(url, str) else None)
            return
        if not isinstance(rid, str):
            return
        if full_url is not None:
            self._full_urls[full_url] = (rtype, rid)
        if rtype in INDEXED_TYPES:
            for identifier in _dicts(resource.get("identifier")):
                system, value = identifier.get("system", ""), identifier.get("value")
                if isinstance(value, str) and isinstance(system, str):
                    self._by_identifier[(system, value)].add((rtype, rid))
        self._people(resource, rtype, rid)
        patient = self.patient_of(resource)
        if patient is not None:
            self._patient_staff[patient].update(_staff_references(resource))

    def _people(self, resource: Mapping[str, Any], rtype: str, rid: str) -> None:
        if rtype == "Patient":
            self._patients[rid] = person_known(resource, "NAME/patient")
        elif rtype == "RelatedPerson":
            patient = self.patient_of(resource)
            if patient is not None:
                self._relatives[patient] += person_known(resource, "NAME/relative")
        elif rtype == "Practitioner":
            self._practitioners[rid] = person_known(resource, "NAME/clinician")
        elif rtype == "PractitionerRole":
            practitioner = resource.get("practitioner")
            if isinstance(practitioner, dict):
                self._role_practitioner[rid] = _reference_text(practitioner)
        elif rtype == "Encounter":
            period = resource.get("period")
            start = period.get("start") if isinstance(period, dict) else None
            if isinstance(start, str):
                self._encounter_start[rid] = start

    # --- queries (pass two) ----------------------------------------------------------------------
    def resolve(self, reference: str) -> Target | None:
        """The ``(type, id)`` a reference points to, when the export tells (literal, URN or identifier)."""
        literal = split_literal(reference)
        if literal is not None:
            return (literal[1], literal[2])
        if URN_UUID.fullmatch(reference):
            return self._full_urls.get(reference)
        if reference.startswith("?identifier="):  # a logical reference without a type
            system, _, value = reference[len("?identifier=") :].partition("|")
            return self.by_identifier(None, system, value)
        conditional = conditional_identifier(reference)
        if conditional is not None:
            return self.by_identifier(*conditional)
        return None

    def by_identifier(self, rtype: str | None, system: str, value: str) -> Target | None:
        """The one indexed resource (of ``rtype`` if given) with that identifier, else None."""
        found = {t for t in self._by_identifier.get((system, value), ()) if rtype is None or t[0] == rtype}
        return next(iter(found)) if len(found) == 1 else None

    def reference_target(self, reference: Mapping[str, Any]) -> Target | None:
        """The target of a Reference object: its ``reference``, else its logical ``identifier``."""
        text = reference.get("reference")
        if isinstance(text, str):
            return self.resolve(text)
        identifier = reference.get("identifier")
        if isinstance(identifier, dict) and isinstance(identifier.get("value"), str):
            rtype = reference.get("type")
            return self.by_identifier(
                rtype if isinstance(rtype, str) else None,
                str(identifier.get("system", "")),
                identifier["value"],
            )
        return None

    def patient_of(self, resource: Mapping[str, Any]) -> str | None:
        """The id of the patient a resource belongs to (itself for a Patient), if any."""
        if resource.get("resourceType") == "Patient":
            rid = resource.get("id")
            return rid if isinstance(rid, str) else None
        for element in self.patient_elements:
            for reference in _dicts(resource.get(element)):
                target = self.reference_target(reference)
                if target is not None and target[0] == "Patient":
                    return target[1]
        return None

    def encounter_start(self, encounter_id: str) -> str | None:
        """The period start of an Encounter of the export."""
        return self._encounter_start.get(encounter_id)

    def known_for(self, patient_id: str | None) -> list[Known]:
        """The patient's, relatives' and referred practitioners' known identifiers, in that order and
        within the contract's bounds (memoised)."""
        if patient_id is None:
            return []
        found = self._cache.get(patient_id)
        if found is None:
            staff: list[Known] = []
            for reference in sorted(self._patient_staff.get(patient_id, ())):
                target = self.resolve(reference)
                if target is not None and target[0] == "PractitionerRole":
                    role = self._role_practitioner.get(target[1])
                    target = self.resolve(role) if role else None
                if target is not None and target[0] == "Practitioner":
                    staff += self._practitioners.get(target[1], [])
            found, dropped = unique(
                [*self._patients.get(patient_id, []), *self._relatives.get(patient_id, []), *staff]
            )
            self._cache[patient_id] = found
            self.known_dropped += dropped
        return found


def _dicts(value: Any) -> Iterable[Mapping[str, Any]]:
    items = value if isinstance(value, list) else [value]
    return [item for item in items if isinstance(item, dict)]


def _reference_text(reference: Mapping[str, Any]) -> str:
    """A Reference as one string: its ``reference``, else ``Type?identifier=system|value``."""
    text = reference.get("reference")
    if isinstance(text, str):
        return text
    identifier = reference.get("identifier")
    if isinstance(identifier, dict):
        rtype = reference.get("type") if isinstance(reference.get("type"), str) else ""
        return f"{rtype}?identifier={identifier.get('system', '')}|{identifier.get('value', '')}"
    return ""


def _staff_references(resource: Any) -> set[str]:
    """Every reference to a Practitioner or PractitionerRole anywhere in a resource (iteratively)."""
    found: set[str] = set()
    stack = [resource]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            text = _reference_text(node) if ("reference" in node or "identifier" in node) else ""
            if text and text.split("/", 1)[0].split("?", 1)[0] in _PEOPLE | {""}:
                found.add(text)
            stack.extend(v for v in node.values() if isinstance(v, dict | list))
        elif isinstance(node, list):
            stack.extend(node)
    return found
