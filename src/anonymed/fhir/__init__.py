"""De-identification of FHIR R4 exports: structured elements by a rules table, free text by the pipeline.

``FhirDeidentifier(FhirOptions(...), PipelineConfig(profile=...)).run(input, output)`` reads a bulk export
(NDJSON, gzipped NDJSON, Bundles, single resources) and writes the same layout plus a manifest, with the
rules table and the operators of the configuration's privacy profile. See docs/fhir.md. ``Timeline`` is
the per-patient date interface shared with the SQL path.
"""

from __future__ import annotations

from anonymed.fhir.dates import Timeline
from anonymed.fhir.rules import RuleTable, load_rules, shipped_profiles
from anonymed.fhir.run import MANIFEST, FhirDeidentifier, FhirOptions, FhirResult

__all__ = [
    "MANIFEST",
    "FhirDeidentifier",
    "FhirOptions",
    "FhirResult",
    "RuleTable",
    "Timeline",
    "load_rules",
    "shipped_profiles",
]
