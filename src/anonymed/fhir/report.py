"""What a FHIR run did, for its manifest: counts, element paths, extension URLs and pseudonymised ids.

Nothing here holds a value of a resource: element paths and extension URLs name definitions, and
resources are named by their type and pseudonymised id only.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from anonymed.fhir.attachments import Outcome

#: at most this many quarantined resources and unprocessed attachments are listed one by one
LISTED: Final = 1000


@dataclass
class PassStats:
    """Counters of the structured pass (see module docstring)."""

    resources_in: Counter[str] = field(default_factory=Counter)
    resources_out: Counter[str] = field(default_factory=Counter)
    actions: Counter[str] = field(default_factory=Counter)
    unknown: Counter[str] = field(default_factory=Counter)
    extensions: Counter[str] = field(default_factory=Counter)
    references: Counter[str] = field(default_factory=Counter)
    attachments: Counter[str] = field(default_factory=Counter)
    quarantined_by_type: Counter[str] = field(default_factory=Counter)
    quarantined: list[dict[str, str]] = field(default_factory=list)
    unprocessed: list[dict[str, str]] = field(default_factory=list)
    markup_removed: int = 0

    def quarantine(self, rtype: str, pid: str, url: str) -> None:
        """Count (and list) a resource quarantined for an unknown modifier extension."""
        self.quarantined_by_type[rtype] += 1
        if len(self.quarantined) < LISTED:
            self.quarantined.append({"resourceType": rtype, "id": pid, "modifierExtension": url})

    def attachment(self, outcome: Outcome, rtype: str, pid: str, path: str) -> None:
        """Count an attachment's outcome; list the unprocessed ones with their reason."""
        key = "processed" if outcome.status == "processed" else f"unprocessed: {outcome.reason}"
        self.attachments[key] += 1
        if outcome.status != "processed" and len(self.unprocessed) < LISTED:
            self.unprocessed.append(
                {"resourceType": rtype, "id": pid, "element": path, "reason": outcome.reason}
            )

    def to_json(self) -> dict[str, Any]:
        """The counters as JSON (sorted keys: the manifest is byte-identical across identical runs)."""
        return {
            "resources": {
                rtype: {
                    "in": n,
                    "out": self.resources_out[rtype],
                    "quarantined": self.quarantined_by_type[rtype],
                }
                for rtype, n in sorted(self.resources_in.items())
            },
            "actions": dict(sorted(self.actions.items())),
            "removed_unknown_elements": dict(sorted(self.unknown.items())),
            "removed_unknown_extensions": dict(sorted(self.extensions.items())),
            "references": dict(sorted(self.references.items())),
            "attachments": dict(sorted(self.attachments.items())),
            "unprocessed_attachments": self.unprocessed,
            "quarantined": self.quarantined,
            "markup_removed": self.markup_removed,
        }
