"""``deidentify_export``: an export folder (or file) in, the same layout out, plus a manifest.

Two passes over the input: the first builds the ``ExportIndex`` (identifiers, known identifiers of each
patient, encounter dates), the second writes each resource through the structured pass and the text
pass. The output folder appears complete or not at all (built in a temporary sibling, then renamed).
``anonymed-manifest.json`` says what was done: files, counts per resource type and action, removed
unknown elements and extensions, quarantined resources, unprocessed attachments, failed records (by
file and line), the profile's guarantees and, when the face gives it, the run's effective configuration
(values and their sources; the key file and the seed only by where they came from). It holds no value of
any resource and no time, so two runs with the same input, key and seed (and non-DP operators) write
identical bytes.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Final

from anonymed.config import PipelineConfig
from anonymed.errors import AnonymedError, ConfigError
from anonymed.fhir.dates import Timeline, run_key
from anonymed.fhir.files import ExportFile, ExportWriter, discover, dumps, read
from anonymed.fhir.ids import Pseudonyms
from anonymed.fhir.index import ExportIndex
from anonymed.fhir.profile import check_text_operators, date_shift_params, dp_statement
from anonymed.fhir.rules import RuleTable, load_rules
from anonymed.fhir.structured import StructuredPass
from anonymed.fhir.text import TextPass, replace_method
from anonymed.io.atomic import AtomicDir
from anonymed.labels import Label
from anonymed.methods import ReplaceMethod

MANIFEST: Final = "anonymed-manifest.json"
#: ``progress(resources_done)``, called every few resources
Progress = Callable[[int], None]


@dataclass(frozen=True)
class FhirOptions:
    """The choices of a FHIR run besides the pipeline's (whose ``profile`` is the run's): rules table of
    your own, secrets, reference day of ages, text pass."""

    rules: Path | None = None
    patient_key: bytes | None = field(default=None, repr=False)
    seed: int | None = None
    as_of: dt.date | None = None
    text: bool = True


@dataclass
class FhirResult:
    """The manifest and the totals a face needs to report and choose its exit code."""

    manifest: dict[str, Any]
    resources: int
    failed: int


class FhirDeidentifier:
    """De-identifies FHIR resources with one rules table, one key and one detect-and-replace
    method for a whole export."""

    def __init__(
        self, options: FhirOptions, config: PipelineConfig | None = None, method: ReplaceMethod | None = None
    ) -> None:
        """``method``: the detect-and-replace method of the run's configuration (``config`` with the run's
        key and seed), to share its loaded detectors; by default ``anonymed.methods`` builds it."""
        self.options = options
        base = config or PipelineConfig()
        self.table: RuleTable = load_rules(base.profile, options.rules)
        # one key for the run (dates.run_key): the patient key, else from the seed, else a secret; the
        # notes' value streams, the structured dates and the pseudonyms of a patient all derive from it
        key = run_key(options.patient_key, options.seed)
        self.config = base.replace(patient_key=key, seed=options.seed)
        if self.table.safe_harbor:
            check_text_operators(self.config)
        if method is not None and method.config.pipeline != self.config:
            raise ConfigError("the method given is not built on the run's configuration (profile, key, seed)")
        if method is None and options.text:
            method = replace_method(self.config)
        self.timeline = Timeline(key, date_shift_params(self.config), options.as_of or dt.date.today())
        self.ids = Pseudonyms(self.table.ids, key=key, seed=options.seed)
        self.index = ExportIndex(self.table.patient_elements)
        self.text = TextPass(method) if options.text and method is not None else None
        self.structured = StructuredPass(self.table, self.ids, self.timeline, self.index, self.text)

    def guarantees(self) -> dict[str, Any]:
        """What the output is, stated for the manifest (and the ethics board)."""
        operators = self.config.substitution.operators
        return {
            "profile": self.table.name,
            "safe_harbor_claimed": self.table.safe_harbor,
            "ids": self.table.ids,
            "dates": (
                "structured: the patient's secret shift (intervals kept); notes: the profile's "
                f"{operators[Label.DATE]}"
                if self.table.shifts_dates
                else "structured: year only, 90 or more years before the reference day removed; notes: "
                f"the profile's {operators[Label.DATE]}"
            ),
            "differential_privacy": dp_statement(self.config),
            "text_pass": self.text is not None,
            "keyed": self.options.patient_key is not None,
            "seeded": self.options.seed is not None,
            "note": self._note(),
        }

    def _note(self) -> str:
        if self.table.safe_harbor:
            return "Safe Harbor also requires no actual knowledge that the rest could identify someone"
        used = ["HMAC pseudonyms"] * (self.table.ids == "hmac") + ["shifted dates"] * self.table.shifts_dates
        if not used:
            return "not HIPAA Safe Harbor (the table does not claim it)"
        return " and ".join(used) + " are pseudonymisation, not HIPAA Safe Harbor"

    def run(
        self,
        source: Path,
        target: Path,
        progress: Progress | None = None,
        *,
        configuration: Mapping[str, Any] | None = None,
    ) -> FhirResult:
        """De-identify the export at ``source`` into the folder ``target`` (see module docstring);
        ``configuration``: the run's effective configuration as JSON, recorded in the manifest."""
        files, skipped = discover(source)
        for file in files:
            for _, resource in read(file):
                if isinstance(resource, dict):
                    self.index.add(resource)
        output = AtomicDir(target)
        failures: list[dict[str, Any]] = []
        listed: list[dict[str, Any]] = []
        done = 0
        try:
            for file in files:
                writer = ExportWriter(output.root.joinpath(*file.relative.parts), file)
                failed_here = self._file(file, writer, failures)
                writer.close()
                done += writer.written + failed_here
                listed.append({"file": str(file.relative), "written": writer.written, "failed": failed_here})
                if progress is not None:
                    progress(done)
            manifest = {
                "tool": "anonymed deid-fhir",
                **self.guarantees(),
                **({"configuration": dict(configuration)} if configuration is not None else {}),
                "files": listed,
                "skipped_files": skipped,
                "failed": len(failures),
                "failures": failures[:1000],
                **self.structured.stats.to_json(),
                "text": self.text.stats.to_json(self.text.method) if self.text is not None else None,
                "known_identifiers_dropped": self.index.known_dropped,
            }
            output.write_file(PurePosixPath(MANIFEST), dumps(manifest, indent=True) + b"\n")
            output.commit()
        except BaseException:
            output.abort()
            raise
        return FhirResult(manifest, done, len(failures))

    def _file(self, file: ExportFile, writer: ExportWriter, failures: list[dict[str, Any]]) -> int:
        failed = 0
        for line, resource in read(file):
            reason = resource if isinstance(resource, str) else None
            if isinstance(resource, dict):
                try:
                    out = self.structured.resource(resource)
                except AnonymedError as exc:
                    reason = f"{type(exc).__name__}: {exc}"
                except (ValueError, TypeError, KeyError, RecursionError) as exc:
                    reason = f"{type(exc).__name__} while processing"
                else:
                    if out is not None:
                        writer.write(out)
            if reason is not None:
                failed += 1
                failures.append({"file": str(file.relative), "line": line, "reason": reason})
        return failed
