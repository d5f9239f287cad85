"""A "gold FHIR" set: annotated notes wrapped as DocumentReferences, to compare the FHIR and text paths.

``write_gold_export`` turns gold Documents (PhysioNet deid, EDS-pseudo development notes) into an
NDJSON export: one Patient per patient id (one per note when there is none) holding the gold patient
names of its notes (``NAME/patient`` spans; EDS-pseudo's unqualified names when no span says patient),
and one DocumentReference per note whose attachment is, in turn, UTF-8 plain text, HTML (paragraphs and
line breaks as tags, text escaped), and ISO-8859-1 plain text (UTF-8 when the note does not fit).
``read_notes`` decodes the de-identified notes (HTML reduced to its text) for the leak rate of
``anonymed.evaluate.leaks``, the measure of the plain-text path.
"""

from __future__ import annotations

import base64
import html
import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Final

from anonymed.document import Document
from anonymed.fhir.attachments import parse_content_type

ENCODINGS: Final = ("text/plain; charset=utf-8", "text/html; charset=utf-8", "text/plain; charset=iso-8859-1")


def _html(text: str) -> str:
    paragraphs = re.split(r"\n\s*\n", text)
    body = "".join(
        "<p>" + "<br/>".join(html.escape(line) for line in p.split("\n")) + "</p>" for p in paragraphs
    )
    return f'<html><head><meta charset="utf-8"/></head><body>{body}</body></html>'


def _attachment(text: str, index: int) -> dict[str, str]:
    content_type = ENCODINGS[index % len(ENCODINGS)]
    if content_type.startswith("text/html"):
        data = _html(text).encode("utf-8")
    elif content_type.endswith("iso-8859-1"):
        try:
            data = text.encode("iso-8859-1")
        except UnicodeEncodeError:
            content_type, data = ENCODINGS[0], text.encode("utf-8")
    else:
        data = text.encode("utf-8")
    return {"contentType": content_type, "data": base64.b64encode(data).decode("ascii")}


def _patient_names(docs: Iterable[Document]) -> list[str]:
    spans = [s for d in docs for s in d.gold if s.label.value == "NAME"]
    chosen = [s for s in spans if s.subtype == "patient"] or [s for s in spans if s.subtype is None]
    return list(dict.fromkeys(s.text for s in chosen))


def write_gold_export(docs: Sequence[Document], folder: Path) -> dict[str, tuple[str, str]]:
    """Write ``Patient.ndjson`` and ``DocumentReference.ndjson``.

    Returns DocumentReference id -> (note id, Patient id).
    """
    folder.mkdir(parents=True, exist_ok=True)
    by_patient: dict[str, list[Document]] = {}
    for doc in docs:
        by_patient.setdefault(doc.patient_id or f"note-{doc.id}", []).append(doc)
    patients: list[dict[str, Any]] = []
    references: list[dict[str, Any]] = []
    notes: dict[str, tuple[str, str]] = {}
    for number, group in enumerate(by_patient.values()):
        patient_id = f"gold-{number}"
        names = _patient_names(group)
        patient: dict[str, Any] = {"resourceType": "Patient", "id": patient_id}
        if names:
            patient["name"] = [{"text": name} for name in names]
        patients.append(patient)
        for doc in group:
            ref_id = f"note-{len(references)}"
            notes[ref_id] = (doc.id, patient_id)
            references.append({
                "resourceType": "DocumentReference", "id": ref_id, "status": "current",
                "subject": {"reference": f"Patient/{patient_id}"},
                "content": [{"attachment": _attachment(doc.text, len(references))}],
            })  # fmt: skip
    for name, resources in (("Patient", patients), ("DocumentReference", references)):
        lines = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in resources)
        (folder / f"{name}.000.ndjson").write_text(lines, encoding="utf-8")
    return notes


def read_notes(folder: Path) -> dict[str, str]:
    """DocumentReference id -> the decoded text of its (de-identified) attachment; HTML reduced to text."""
    found = {}
    for line in (folder / "DocumentReference.000.ndjson").read_text(encoding="utf-8").splitlines():
        resource = json.loads(line)
        attachment = resource["content"][0]["attachment"]
        mime, params = parse_content_type(attachment.get("contentType", ""))
        text = base64.b64decode(attachment.get("data", "")).decode(params.get("charset", "utf-8"))
        if mime == "text/html":
            text = html.unescape(re.sub(r"<[^>]+>", " ", text))
        found[resource["id"]] = text
    return found
