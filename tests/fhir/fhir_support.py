"""Helpers of the FHIR tests: a recorder of the known identifiers passed, output readers, leak search."""

from __future__ import annotations

import base64
import dataclasses
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from anonymed.config import PipelineConfig
from anonymed.detect.base import Detector
from anonymed.document import Document, Span
from anonymed.fhir import FhirDeidentifier, FhirOptions
from anonymed.fhir.dates import run_key
from anonymed.fhir.text import replace_method
from anonymed.methods import ReplaceMethod

SYNTHEA = Path(__file__).resolve().parents[1] / "fixtures" / "fhir" / "synthea"
KEY = b"test-patient-key-0123456789"


class KnownRecorder(Detector):
    """Records the known identifiers each Document of the text pass carries; finds nothing itself (the
    pipeline's own ``known`` detector consumes them)."""

    name = "known-recorder"

    def __init__(self) -> None:
        self.seen: dict[str, list[dict[str, str]]] = {}

    def detect(self, doc: Document) -> list[Span]:
        self.seen[doc.id] = list(doc.metadata.get("known", []))
        return []


def method_with(config: PipelineConfig, extra: Detector | None) -> ReplaceMethod:
    """The configured replace method, plus ``extra`` among its pipeline's detectors."""
    method = replace_method(config)
    if extra is not None:
        method.pipeline.__dict__["detectors_"] = [*method.pipeline.detectors_, extra]
    return method


def run_fhir(
    source: Path,
    target: Path,
    *,
    extra: Detector | None = None,
    config: PipelineConfig | None = None,
    profile: str | None = None,
    withhold_known: bool = False,
    **options: Any,
) -> FhirDeidentifier:
    """Run ``deid-fhir`` in process; returns the deidentifier (its ids, timeline and manifest). With
    ``withhold_known``, the text pass's Documents carry no known identifiers (the text pipeline alone)."""
    cfg = (config or PipelineConfig()).replace(profile=profile)
    opts = FhirOptions(**options)
    run_config = cfg.replace(patient_key=run_key(opts.patient_key, opts.seed), seed=opts.seed)
    deidentifier = FhirDeidentifier(opts, cfg, method_with(run_config, extra))
    if withhold_known:
        assert deidentifier.text is not None
        run = deidentifier.text.run
        deidentifier.text.run = lambda text, context: run(text, dataclasses.replace(context, known=()))  # type: ignore[method-assign]
    deidentifier.last = deidentifier.run(source, target)  # type: ignore[attr-defined]
    return deidentifier


def references(node: Any) -> list[str]:
    """Every ``reference`` string under a resource (or any JSON node)."""
    if isinstance(node, dict):
        return [v for k, v in node.items() if k == "reference" and isinstance(v, str)] + [
            x for k, v in node.items() if k != "reference" for x in references(v)
        ]
    return [x for item in node for x in references(item)] if isinstance(node, list) else []


def resources(folder: Path) -> Iterator[dict[str, Any]]:
    """Every resource of an NDJSON export folder."""
    for path in sorted(folder.glob("*.ndjson")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                yield json.loads(line)


def decoded_attachments(resource: dict[str, Any]) -> Iterator[str]:
    """The decoded text of every attachment with data in a resource."""
    for content in resource.get("content", []):
        data = content.get("attachment", {}).get("data")
        if data:
            yield base64.b64decode(data).decode("utf-8", "replace")


def identifying_values(folder: Path) -> set[str]:
    """Names, telecom values, address lines, cities, postal codes and identifier values of the people of an
    export (Patient, RelatedPerson, Practitioner). States and countries are not identifying (Safe Harbor
    keeps them) and name prefixes ("Mr.") are not either."""
    found: set[str] = set()
    for r in resources(folder):
        if r["resourceType"] not in ("Patient", "RelatedPerson", "Practitioner"):
            continue
        for name in r.get("name", []):
            found.update(name.get("given", []))
            found.update([name["family"]] if "family" in name else [])
        found.update(t["value"] for t in r.get("telecom", []) if "value" in t)
        for address in r.get("address", []):
            found.update(address.get("line", []))
            found.update(address[k] for k in ("city", "postalCode", "district") if k in address)
        found.update(i["value"] for i in r.get("identifier", []) if "value" in i)
    return found


def output_texts(folder: Path) -> list[str]:
    """Every output file's text and every decoded attachment (what a recipient can read)."""
    texts = [p.read_text(encoding="utf-8") for p in sorted(folder.iterdir()) if p.is_file()]
    texts += [text for r in resources(folder) for text in decoded_attachments(r)]
    return texts


def leaks(values: set[str], texts: list[str]) -> set[str]:
    """The values found verbatim, whole-word, case-insensitive, in the texts."""
    blob = "\n".join(texts)
    return {v for v in values if re.search(r"(?<!\w)" + re.escape(v) + r"(?!\w)", blob, re.I)}
