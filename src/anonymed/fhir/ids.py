"""Pseudonyms of resource ids and identifier values, and references rewritten to point at them.

Two schemes (``[profile] ids`` of the rules table):

* ``hmac``: ``HMAC-SHA256(k, "Type/id")`` written as a UUID, with ``k`` derived from the patient key (the
  same resource gets the same pseudonym in every file, run and export made with the key), else from the
  seed by the project's seed rule, else from a per-run secret. References stay resolvable because a
  reference ``Type/id`` is rewritten with the same function as the target's ``id``.
* ``random``: a random UUID per distinct id, assigned in order of first appearance and held in memory
  for the run only: the code is not derived from the id (HIPAA 164.514(c)); seeded runs replay it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import Final

from anonymed.errors import ConfigError
from anonymed.randomness import RandomSource, check_random_state

#: ``[base/]Type/id[/_history/version]`` (a relative or absolute literal reference)
LITERAL: Final = re.compile(
    r"(?P<base>(?:https?://\S+?/)?)(?P<type>[A-Z][A-Za-z]+)/(?P<id>[A-Za-z0-9\-.]{1,64})(?:/_history/\S+)?"
)
#: ``Type?search`` (a conditional reference)
CONDITIONAL: Final = re.compile(r"(?P<type>[A-Z][A-Za-z]+)\?(?P<query>.+)")
URN_UUID: Final = re.compile(r"urn:uuid:(?P<uuid>[0-9a-fA-F\-]{36})")
RESOURCE_TYPE: Final = re.compile(r"[A-Z][A-Za-z]+")


def _uuid(raw: bytes) -> str:
    """16 bytes as a version-8 (custom) UUID string: a valid FHIR id and a valid ``urn:uuid``."""
    data = bytearray(raw[:16])
    data[6] = (data[6] & 0x0F) | 0x80
    data[8] = (data[8] & 0x3F) | 0x80
    h = data.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


class Pseudonyms:
    """Maps resource ids, identifier values and ``urn:uuid`` values to pseudonyms, consistently."""

    def __init__(self, scheme: str = "hmac", *, key: bytes | None = None, seed: int | None = None) -> None:
        if scheme not in ("hmac", "random"):
            raise ConfigError(f"unknown id scheme {scheme!r}; known: ['hmac', 'random']")
        self.scheme = scheme
        self._key: bytes | None = None
        self._source: RandomSource | None = None
        self._table: dict[str, str] = {}
        if scheme == "hmac":
            if key is not None:
                self._key = hmac.new(key, b"anonymed-fhir-ids", hashlib.sha256).digest()
            elif seed is not None:
                self._key = (
                    check_random_state(seed).spawn("fhir-ids").python.getrandbits(256).to_bytes(32, "big")
                )
            else:
                self._key = secrets.token_bytes(32)
        elif seed is not None:
            self._source = check_random_state(seed).spawn("fhir-ids")

    def _code(self, name: str) -> str:
        if self._key is not None:
            return _uuid(hmac.new(self._key, name.encode("utf-8", "surrogatepass"), hashlib.sha256).digest())
        found = self._table.get(name)
        if found is None:
            raw = (
                self._source.python.getrandbits(128).to_bytes(16, "big")
                if self._source
                else secrets.token_bytes(16)
            )
            found = self._table[name] = _uuid(raw)
        return found

    def resource_id(self, resource_type: str, rid: str) -> str:
        """The pseudonym of the resource ``resource_type/rid``."""
        return self._code(f"id\x00{resource_type}/{rid}")

    def value(self, system: str, value: str) -> str:
        """The pseudonym of an identifier value within its ``system`` (empty when absent)."""
        return self._code(f"identifier\x00{system}|{value}")

    def urn(self, uuid: str) -> str:
        """The pseudonym of a ``urn:uuid`` (Bundle-internal references and full URLs)."""
        return self._code(f"urn\x00{uuid.lower()}")


def split_literal(reference: str) -> tuple[str, str, str] | None:
    """``(base, type, id)`` of a literal reference, or None."""
    found = LITERAL.fullmatch(reference)
    return None if found is None else (found["base"], found["type"], found["id"])


def conditional_identifier(reference: str) -> tuple[str, str, str] | None:
    """``(type, system, value)`` of a conditional reference by ``identifier=system|value``, or None."""
    found = CONDITIONAL.fullmatch(reference)
    if found is None:
        return None
    for part in found["query"].split("&"):
        name, _, token = part.partition("=")
        if name == "identifier" and token:
            system, sep, value = token.partition("|")
            return (found["type"], system if sep else "", value if sep else system)
    return None


def rewrite_reference(reference: str, ids: Pseudonyms, resolved: tuple[str, str] | None = None) -> str | None:
    """``reference`` pointing at the pseudonymised target; None when it cannot be kept.

    ``resolved`` is the ``(type, id)`` a conditional reference was resolved to (from the export's
    identifiers); an unresolved conditional reference keeps its query with the identifier pseudonymised
    (it still matches the pseudonymised target) under the ``hmac`` scheme and is dropped otherwise.
    Local (``#id``) references and bare resource types (a Bundle request URL) are kept.
    """
    if reference.startswith("#") or RESOURCE_TYPE.fullmatch(reference):
        return reference
    urn = URN_UUID.fullmatch(reference)
    if urn is not None:
        return f"urn:uuid:{ids.urn(urn['uuid'])}"
    literal = split_literal(reference)
    if literal is not None:
        base, rtype, rid = literal
        return f"{base}{rtype}/{ids.resource_id(rtype, rid)}"
    if resolved is not None:
        return f"{resolved[0]}/{ids.resource_id(*resolved)}"
    conditional = conditional_identifier(reference)
    if conditional is not None and ids.scheme == "hmac":
        rtype, system, value = conditional
        return f"{rtype}?identifier={system}|{ids.value(system, value)}"
    return None
