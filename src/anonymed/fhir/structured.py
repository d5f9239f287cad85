"""The structured pass: one resource (a plain dict) in, its de-identified copy out, rule by rule.

Every value is reached through the rules table (``rules`` module): its own rule, else the nearest
enclosing element's; a value no rule reaches is removed and counted under its path. Extensions are
judged by URL; an unknown ``modifierExtension`` quarantines the whole resource (it may change the meaning
of what is kept). Free texts, narratives and attachments go to the text pass. Changed resources get
``meta.security`` labels (v3 ObservationValue: REDACTED, ABSTRED, PSEUDED, MASKED).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from anonymed.dates.model import UNITS_PER_YEAR, Unit
from anonymed.dates.over89 import AGE_CATEGORY, HIPAA_MAX_AGE
from anonymed.fhir import attachments
from anonymed.fhir.dates import Timeline, as_date, year_of
from anonymed.fhir.ids import Pseudonyms, rewrite_reference
from anonymed.fhir.index import ExportIndex
from anonymed.fhir.markup import scrub_markup
from anonymed.fhir.report import PassStats
from anonymed.fhir.rules import CONTAINER_ACTIONS, RuleTable
from anonymed.fhir.text import TextContext, TextPass
from anonymed.substitute.zip3 import generalise_zip, restricted_prefixes

SECURITY_SYSTEM: Final = "http://terminology.hl7.org/CodeSystem/v3-ObservationValue"
SECURITY_DISPLAY: Final = {"REDACTED": "redacted", "ABSTRED": "abstracted", "PSEUDED": "pseudonymized",
                           "MASKED": "masked"}  # fmt: skip
#: the label each action adds when it changes a value
LABELS: Final = {"remove": "REDACTED", "id": "PSEUDED", "pseudonym": "PSEUDED", "reference": "PSEUDED",
                 "shift": "PSEUDED", "year": "ABSTRED", "age": "ABSTRED", "zip3": "ABSTRED",
                 "text": "MASKED", "narrative": "MASKED", "attachment": "MASKED"}  # fmt: skip
_REMOVED: Final = object()
#: a US ZIP code (ZIP+4 too): what the ``zip3`` action generalises; anything else is removed
_US_ZIP: Final = re.compile(r"\d{5}(?:-?\d{4})?")
UCUM: Final = "http://unitsofmeasure.org"
#: UCUM codes of an Age's units
_AGE_UNITS: Final = {"a": Unit.YEAR, "mo": Unit.MONTH, "wk": Unit.WEEK, "d": Unit.DAY, "h": Unit.HOUR}
Path = tuple[str, ...]


class Quarantine(Exception):
    """A resource carries a modifier extension the table does not know; it is not written."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.url = url


@dataclass
class _Resource:
    """The resource being processed: type, ids, patient, labels, text-pass context."""

    rtype: str
    rid: str | None
    pid: str
    patient: str | None
    subject: str
    reference_date: str | None
    contained: bool = False
    labels: set[str] = field(default_factory=set)
    texts: int = 0


class StructuredPass:
    """Applies a rules table to resources, sharing pseudonyms, shifts and the text pass across them."""

    def __init__(
        self,
        table: RuleTable,
        ids: Pseudonyms,
        timeline: Timeline,
        index: ExportIndex,
        text: TextPass | None,
        *,
        restricted_zip3: frozenset[str] | None = None,
    ) -> None:
        self.table, self.ids, self.timeline, self.index, self.text = table, ids, timeline, index, text
        self.restricted = restricted_prefixes() if restricted_zip3 is None else restricted_zip3
        self.stats = PassStats()
        self._dispatch: dict[str, Callable[[str, Path, _Resource, Mapping[str, Any]], Any]] = {
            "id": self._id,
            "pseudonym": lambda v, p, r, parent: self.ids.value(str(parent.get("system", "")), v),
            "reference": lambda v, p, r, _: self._reference(v),
            "shift": lambda v, p, r, _: self._shift(v, r.subject),
            "year": lambda v, p, r, _: None if self._over89(v) else year_of(v),
            "zip3": lambda v, p, r, _: self._zip3(v),
            "text": lambda v, p, r, _: self._text(v, p, r),
            "narrative": lambda v, p, r, _: self._narrative(v, p, r),
        }

    # --- resources ------------------------------------------------------------------------------
    def resource(self, resource: Mapping[str, Any], *, contained: bool = False) -> dict[str, Any] | None:
        """The de-identified copy, or None when the resource is quarantined (counted)."""
        rtype = str(resource.get("resourceType", ""))
        rid = resource.get("id") if isinstance(resource.get("id"), str) else None
        patient = self.index.patient_of(resource)
        res = _Resource(
            rtype=rtype,
            rid=rid,
            pid=self.ids.resource_id(rtype, rid) if rid and not contained else (rid or ""),
            patient=patient,
            subject=patient if patient is not None else f"\x00{rtype}/{rid}",
            reference_date=self._reference_date(resource),
            contained=contained,
        )
        self.stats.resources_in[rtype] += 1
        try:
            out = self._object(resource, (rtype,), None, res, root=True)
        except Quarantine as exc:
            self.stats.quarantine(rtype, res.pid, exc.url)
            return None
        out = out if isinstance(out, dict) else {}
        if isinstance(out.get("text"), dict) and "div" not in out["text"]:
            del out["text"]  # a Narrative without its div is invalid: the status alone goes too
        out = {"resourceType": rtype, **{k: v for k, v in out.items() if k != "resourceType"}}
        if res.labels:
            _label(out, res.labels)
        self.stats.resources_out[rtype] += 1
        return out

    def _reference_date(self, resource: Mapping[str, Any]) -> str | None:
        for path in self.table.reference_dates:
            value: Any = resource
            for key in path.split("."):
                value = value.get(key) if isinstance(value, dict) else None
            if isinstance(value, str) and as_date(value) is not None:
                return value
        for element in ("encounter", "context"):
            holder = resource.get(element)
            refs = holder.get("encounter") if element == "context" and isinstance(holder, dict) else holder
            for ref in refs if isinstance(refs, list) else [refs]:
                target = self.index.reference_target(ref) if isinstance(ref, dict) else None
                if target is not None and target[0] == "Encounter":
                    return self.index.encounter_start(target[1])
        return None

    # --- walking --------------------------------------------------------------------------------
    def _walk(
        self, node: Any, path: Path, inherited: str | None, res: _Resource, parent: Mapping[str, Any]
    ) -> Any:
        if isinstance(node, list):
            items = [self._walk(item, path, inherited, res, parent) for item in node]
            kept = [item for item in items if item is not _REMOVED]
            return kept if kept else _REMOVED
        rule = self.table.action(path)
        if isinstance(node, dict):
            if rule in CONTAINER_ACTIONS:
                return self._container(rule, node, path, res)
            return self._object(node, path, rule if rule is not None else inherited, res)
        action = rule if rule is not None else inherited
        if action is None:
            self.stats.unknown[".".join(path)] += 1
            return _REMOVED
        out = self._value(action, node, path, res, parent)
        if out is _REMOVED:
            res.labels.add("REDACTED")
        elif out != node:
            res.labels.add(LABELS.get(action, "REDACTED"))
        self.stats.actions[action] += 1
        return out

    def _object(self, node: Mapping[str, Any], path: Path, inherited: str | None, res: _Resource,
                *, root: bool = False) -> Any:  # fmt: skip
        node = self._logical_reference(node, path)
        out: dict[str, Any] = {}
        for key, value in node.items():
            if (root and key == "resourceType") or (key == "contentType" and key in out):
                continue  # (a Binary's contentType may already be set by its data)
            if key in ("extension", "modifierExtension"):
                kept = self._extensions(value, path, res, modifier=key == "modifierExtension")
            elif key.startswith("_"):
                kept = self._primitive_extension(value, (*path, key[1:]), res, node.get(key[1:]))
            elif root and key == "contained":
                kept = [
                    c for c in (self.resource(r, contained=True) for r in value if isinstance(r, dict)) if c
                ]
            elif path == ("Bundle", "entry") and key == "resource" and isinstance(value, dict):
                kept = self.resource(value)
                if kept is None:
                    return _REMOVED  # a quarantined entry goes whole, full URL included
            elif root and key == "id" and res.contained:
                kept = value  # a contained resource's id is local to its container
            elif root and key == "data" and self.table.action((*path, key)) == "attachment":
                kept = self._binary(node, path, res, out)  # a Binary's data, read with its contentType
            else:
                kept = self._walk(value, (*path, key), inherited, res, node)
            if kept is not _REMOVED and kept != [] and kept is not None:
                out[key] = kept
        if any(k.startswith("_") for k in out):  # a primitive extension whose primitive was removed goes too
            out = {k: v for k, v in out.items() if not k.startswith("_") or k[1:] in out}
        return out if out else _REMOVED

    def _logical_reference(self, node: Mapping[str, Any], path: Path) -> Mapping[str, Any]:
        """A Reference by identifier, given the literal reference it resolves to in this export."""
        if "reference" in node or not isinstance(node.get("identifier"), dict):
            return node
        if self.table.action((*path, "reference")) != "reference":
            return node
        target = self.index.reference_target(node)
        return node if target is None else {**node, "reference": f"{target[0]}/{target[1]}"}

    def _value(self, action: str, value: Any, path: Path, res: _Resource, parent: Mapping[str, Any]) -> Any:
        if action == "keep":
            return value
        if action == "remove" or not isinstance(value, str):
            return _REMOVED
        handler = self._dispatch.get(action)
        if handler is None:  # a container action on a value
            self.stats.unknown[".".join(path)] += 1
            return _REMOVED
        out = handler(value, path, res, parent)
        return _REMOVED if out is None else out

    def _id(self, value: str, path: Path, res: _Resource, parent: Mapping[str, Any]) -> str:
        """A resource's own id (its precomputed pseudonym) or another id-like value of it."""
        if len(path) == 2 and not res.contained:
            return res.pid
        return self.ids.resource_id(res.rtype, value)

    def _reference(self, value: str) -> str | None:
        out = rewrite_reference(value, self.ids, self.index.resolve(value))
        self.stats.references["rewritten" if out is not None else "removed (unresolvable)"] += 1
        return out

    def _over89(self, value: str) -> bool:
        """A date 90 years or more before ``as_of`` (Safe Harbor's ages over 89): counted, not written."""
        if self.timeline.over89(value):
            self.stats.actions["date:90+ removed"] += 1
            return True
        return False

    def _shift(self, value: str, subject: str) -> str | None:
        moved = None if self._over89(value) else self.timeline.shift(value, subject)
        return None if moved is None or self._over89(moved) else moved

    def _zip3(self, value: str) -> str | None:
        """``"668**"`` for ``"66801"`` (``000**`` for a restricted area), as the ``zip3`` operator writes."""
        if _US_ZIP.fullmatch(value.strip()) is None:
            return None
        return generalise_zip(value.strip(), 3, self.restricted)

    def _age(self, node: Mapping[str, Any], res: _Resource) -> Any:
        """An Age up to 89 years as it is; above, 90 years with ``>=`` (``age_over89``); else removed."""
        unit, value = _AGE_UNITS.get(str(node.get("code"))), node.get("value")
        if node.get("system") != UCUM or unit is None or not isinstance(value, int | float) or value is True:
            res.labels.add("REDACTED")
            return _REMOVED
        fields = ("value", "comparator", "unit", "system", "code")
        if value / UNITS_PER_YEAR[unit] <= HIPAA_MAX_AGE:
            return {k: node[k] for k in fields if k in node}
        self.stats.actions["age:90+ grouped"] += 1
        res.labels.add("ABSTRED")
        return {"value": AGE_CATEGORY, "comparator": ">=", "unit": "years", "system": UCUM, "code": "a"}

    def _context(self, path: Path, res: _Resource) -> TextContext:
        res.texts += 1
        return TextContext(
            doc_id=f"{res.rtype}/{res.pid}#{res.texts}:{'.'.join(path[1:])}",
            subject=res.subject,
            reference_date=res.reference_date,
            known=self.index.known_for(res.patient),
        )

    def _text(self, value: str, path: Path, res: _Resource) -> str | None:
        if self.text is None:
            return None
        return self.text.scrub(value, self._context(path, res))[0]

    def _narrative(self, value: str, path: Path, res: _Resource) -> str | None:
        if self.text is None:
            return None
        text, context = self.text, self._context(path, res)
        scrubbed = scrub_markup(value, lambda joined: text.scrub(joined, context))
        self.stats.markup_removed += scrubbed.removed
        return scrubbed.markup

    def _container(self, action: str, node: Mapping[str, Any], path: Path, res: _Resource) -> Any:
        self.stats.actions[action] += 1
        if action == "remove":
            res.labels.add("REDACTED")
            return _REMOVED
        if action == "age":
            return self._age(node, res)
        return self._attachment(node, path, res)

    def _attachment(self, node: Mapping[str, Any], path: Path, res: _Resource) -> Any:
        handled = ("data", "url", "size", "hash", "contentType")
        rest = self._object({k: v for k, v in node.items() if k not in handled}, path, None, res)
        out = {} if rest is _REMOVED else dict(rest)
        if self.text is None:
            core: dict[str, Any] = {}
            outcome = attachments.Outcome("unprocessed", "text pass disabled")
        else:
            text, context = self.text, self._context(path, res)
            core, outcome = attachments.process(
                dict(node), lambda t: text.scrub(t, context), lambda url: self._attachment_url(url)
            )
        self.stats.attachment(outcome, res.rtype, res.pid, ".".join(path))
        res.labels.add("MASKED" if outcome.status == "processed" else "REDACTED")
        merged = {**core, **out}
        return merged if merged else _REMOVED

    def _binary(self, node: Mapping[str, Any], path: Path, res: _Resource, out: dict[str, Any]) -> Any:
        """A Binary resource's ``data`` through the attachment processing (its contentType may change)."""
        core = self._attachment({"contentType": node.get("contentType"), "data": node.get("data")}, path, res)
        if core is _REMOVED or "data" not in core:
            return _REMOVED
        if "contentType" in core:
            out["contentType"] = core["contentType"]
        return core["data"]

    def _attachment_url(self, url: str) -> str | None:
        return self._reference(url) if self.index.resolve(url) is not None else None

    # --- extensions -----------------------------------------------------------------------------
    def _extensions(self, value: Any, path: Path, res: _Resource, *, modifier: bool) -> Any:
        kept = []
        for ext in value if isinstance(value, list) else []:
            url = ext.get("url") if isinstance(ext, dict) else None
            action = self.table.extension_action(url, modifier=modifier) if isinstance(url, str) else None
            if action is None:
                if modifier:
                    raise Quarantine(url if isinstance(url, str) else "(no url)")
                self.stats.extensions[str(url)] += 1
                res.labels.add("REDACTED")
                continue
            if action == "keep":
                kept.append(ext)
                continue
            res.labels.add(LABELS.get(action, "REDACTED"))
            if action == "remove":
                continue
            values = {k: v for k, v in ext.items() if k.startswith("value")}
            out = {k: self._value(action, v, (*path, k), res, ext) for k, v in values.items()}
            out = {k: v for k, v in out.items() if v is not _REMOVED}
            if out:
                kept.append({"url": url, **out})
        return kept if kept else _REMOVED

    def _primitive_extension(self, value: Any, path: Path, res: _Resource, primitive: Any) -> Any:
        if isinstance(value, dict) and "extension" in value:
            kept = self._extensions(value["extension"], path, res, modifier=False)
            return _REMOVED if kept is _REMOVED else {"extension": kept}
        self.stats.unknown["_" + ".".join(path)] += 1
        return _REMOVED


def _label(resource: dict[str, Any], labels: set[str]) -> None:
    meta = resource.setdefault("meta", {})
    security = meta.setdefault("security", [])
    present = {(c.get("system"), c.get("code")) for c in security if isinstance(c, dict)}
    for code in sorted(labels):
        if (SECURITY_SYSTEM, code) not in present:
            security.append({"system": SECURITY_SYSTEM, "code": code, "display": SECURITY_DISPLAY[code]})
