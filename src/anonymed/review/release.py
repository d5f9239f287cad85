"""The release report: one JSON/HTML document per release for an ethics board, assembled from run outputs.

Inputs are the files the other commands write: the run summary (``anonymed deid --summary``: profile and
replacements per label and operator), the input (fingerprinted here), the configuration file (detectors,
operators, the site's list and roster files by fingerprint), the privacy report (``--privacy-report``), the
review (folder or its report), metric reports (``anonymed evaluate ...``) and the embedding audit's
report. Each section says where it came from; what was not given is listed under ``pending``. Counts,
figures, and file names with fingerprints only: no note text, no identifier, no list entry, no key.
"""

from __future__ import annotations

import importlib.metadata
import json
import math
import platform
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from anonymed.errors import ConfigError, InputError
from anonymed.review.folder import ReviewFolder, fingerprint
from anonymed.review.release_config import configuration, replacements

RELEASE_FORMAT = "anonymed-release-report"
PACKAGES = ("numpy", "opendp", "python-crfsuite", "faker", "scipy", "statsmodels", "scikit-learn", "gensim")
#: keys of metric reports not worth a row each (per-item detail)
SKIPPED_KEYS = frozenset({"by_full_label", "rows", "expenses", "failures", "figures", "settings", "names"})


@dataclass(frozen=True)
class ReleaseInputs:
    """The files a release report is built from (only the summary is required)."""

    summary: Path
    input: Path | None = None
    config: Path | None = None
    privacy_report: Path | None = None
    review: Path | None = None
    metrics: tuple[Path, ...] = ()
    audit: Path | None = None
    commands: tuple[str, ...] = ()
    target: float = 0.001
    release_command: Sequence[str] = field(default_factory=tuple)


def _json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"cannot read the {what} {str(path)!r}: {type(exc).__name__}") from None


def versions() -> dict[str, str]:
    """anonymed, Python and the installed versions of the packages that shape a release."""
    found = {"anonymed": metadata.version("anonymed"), "python": platform.python_version()}
    for name in PACKAGES:
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return found


def privacy_totals(path: Path) -> dict[str, Any]:
    """Totals of a privacy report (JSONL, one document per line): epsilon per document, values, mechanisms."""
    spent: list[float] = []
    mechanisms: Counter[str] = Counter()
    labels: Counter[str] = Counter()
    fallbacks: Counter[str] = Counter()
    values = failed = 0
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                raise InputError(f"{path.name} line {number}", "not JSON") from None
            privacy = record.get("privacy")
            if not isinstance(privacy, dict):
                failed += 1
                continue
            spent.append(float(privacy.get("epsilon_spent", 0.0)))
            values += int(privacy.get("values", 0))
            fallbacks.update({str(k): int(v) for k, v in dict(privacy.get("fallbacks", {})).items()})
            for expense in privacy.get("expenses", []):
                mechanisms[str(expense.get("mechanism"))] += 1
                labels[str(expense.get("label"))] += 1
    return {
        "documents": len(spent),
        "failed_records": failed,
        "documents_with_dp": sum(1 for e in spent if e > 0),
        "epsilon_per_document_max": max(spent, default=0.0),
        "epsilon_per_document_mean": math.fsum(spent) / len(spent) if spent else 0.0,
        "epsilon_sum_over_documents": math.fsum(spent),
        "dp_values": values,
        "draws_by_mechanism": dict(sorted(mechanisms.items())),
        "draws_by_label": dict(sorted(labels.items())),
        "fallbacks": dict(sorted(fallbacks.items())),
    }


def numbers(data: Any, prefix: str = "", depth: int = 0, limit: int = 60) -> dict[str, float]:
    """The numeric leaves of a metric report, keyed by their path (per-item detail left out)."""
    found: dict[str, float] = {}
    if isinstance(data, bool) or depth > 4:
        return found
    if isinstance(data, int | float):
        return {prefix or "value": float(data)}
    if isinstance(data, dict):
        for key, value in data.items():
            if key in SKIPPED_KEYS:
                continue
            found.update(
                numbers(value, f"{prefix}.{key}" if prefix else str(key), depth + 1, limit - len(found))
            )
            if len(found) >= limit:
                break
    return found


def review_section(path: Path, target: float, input_fingerprint: str | None) -> dict[str, Any]:
    """The review's headline: residual per 1,000 tokens and notes with a miss, with intervals."""
    from anonymed.review.report import build_report

    data = build_report(ReviewFolder(path), target=target) if path.is_dir() else _json(path, "review report")
    reviewed = data["input"]["fingerprint"]
    overall = data["residual"]["overall"]
    return {
        "source": str(path),
        "input_fingerprint": reviewed,
        "same_input": None if input_fingerprint is None else reviewed == input_fingerprint,
        "reviewed_notes": data["progress"]["reviewed"],
        "sampled_notes": data["progress"]["sampled"],
        "complete": data["progress"]["complete"],
        "residual_per_1000_tokens": overall["per_1000_tokens"],
        "notes_with_missed": overall["notes_with_missed"],
        "rule_of_three": overall.get("rule_of_three"),
        "precision": data["precision"]["overall"],
        "by_label": {k: v["per_1000_tokens"] for k, v in data["residual"]["by_label"].items()},
        "method": data["method"],
        "target": data["target"],
    }


def _pending(inputs: ReleaseInputs, config: Mapping[str, Any]) -> list[str]:
    pending = []
    if config["profile"] is None:
        pending.append("profile: not recorded by the run summary (give --config)")
    missing = {
        "input fingerprint (--input)": inputs.input,
        "privacy report (--privacy-report)": inputs.privacy_report,
        "review (--review)": inputs.review,
        "embedding audit (--audit), for word or sentence substitution": inputs.audit,
    }
    pending += [f"{name}: not given" for name, value in missing.items() if value is None]
    if not inputs.metrics:
        pending.append("leak and utility metrics (--metrics): not given")
    if not inputs.commands:
        pending.append("the commands that produced the release (--command): not given")
    return pending


def build_release(inputs: ReleaseInputs) -> dict[str, Any]:
    """The release report as JSON-ready data."""
    summary = _json(inputs.summary, "run summary")
    if not isinstance(summary, dict):
        raise ConfigError(f"{str(inputs.summary)!r} is not a run summary (a JSON object)")
    config = configuration(summary, inputs.config)
    input_fingerprint = None if inputs.input is None else fingerprint(inputs.input)
    warnings = []
    in_file = config.get("profile_in_file")
    if in_file is not None and config["profile"] != in_file:
        warnings.append(
            f"the run used profile {config['profile']!r}, the configuration file names {in_file!r} "
            "(overridden on the command line?)"
        )
    if int(summary.get("failed", 0)):
        warnings.append(f"{summary['failed']} records failed in the run (see the summary's failures)")
    review = (
        None if inputs.review is None else review_section(inputs.review, inputs.target, input_fingerprint)
    )
    if review is not None and review["same_input"] is False:
        warnings.append("the review was drawn from another input (fingerprints differ)")
    if review is not None and not review["complete"]:
        warnings.append(
            f"the review is not finished ({review['reviewed_notes']} of {review['sampled_notes']})"
        )
    audit = None if inputs.audit is None else _json(inputs.audit, "audit report")
    verdicts = (
        None
        if audit is None
        else [
            {"protection": v.get("protection"), "verdict": v.get("verdict")}
            for v in audit.get("verdicts", [])
        ]
    )
    return {
        "format": RELEASE_FORMAT,
        "version": 1,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "versions": versions(),
        "input": {
            "path": None if inputs.input is None else str(inputs.input),
            "fingerprint": input_fingerprint,
            **{k: summary.get(k) for k in ("read", "written", "failed", "tokens")},
        },
        "configuration": config,
        "replacements": replacements(summary, config["operators"]),
        "privacy": None if inputs.privacy_report is None else privacy_totals(inputs.privacy_report),
        "review": review,
        "metrics": [{"source": str(p), "values": numbers(_json(p, "metric report"))} for p in inputs.metrics],
        "audit": None if audit is None else {"source": str(inputs.audit), "verdicts": verdicts},
        "commands": list(inputs.commands),
        "release_command": list(inputs.release_command),
        "warnings": warnings,
        "pending": _pending(inputs, config),
    }
