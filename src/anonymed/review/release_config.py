"""The release report's configuration sections: profile, operators, replacements, the site's settings.

Sources, in order: the run summary (``anonymed deid --summary``: its ``configuration`` part records the
effective values and their sources, its ``substitution`` part the profile and the replacements per label,
operator and outcome), then the configuration file (``--config``: detectors, operators laid over the
profile, budget, and the files of the site's settings) for an older summary. Files named by
the configuration (allow and deny lists, the known-identifier side file, the rosters) are named by path
and fingerprint and counted, never quoted: they hold names.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from anonymed.config import PipelineConfig
from anonymed.detect.known.detector import KnownParams
from anonymed.detect.lists import read_lists
from anonymed.io.known import KnownFields
from anonymed.review.folder import fingerprint
from anonymed.tomlfile import read_toml


def _substitution(summary: Mapping[str, Any]) -> Mapping[str, Any]:
    part = summary.get("substitution")
    return part if isinstance(part, Mapping) else {}


def _file(base: Path, name: Any) -> dict[str, Any]:
    path = base / str(name)
    return {"path": str(path), "fingerprint": fingerprint(path) if path.exists() else None}


def _files(base: Path, value: Any) -> list[dict[str, Any]]:
    items = [value] if isinstance(value, str) else list(value or [])
    return [_file(base, item) for item in items]


def _site(
    lists: Mapping[str, Any], known: Mapping[str, Any], patterns: Mapping[str, Any], base: Path
) -> dict[str, Any]:
    """The site's settings: list and roster files (path, fingerprint now; None if gone), entry counts,
    known-identifier fields (field names and kinds), options and custom pattern names."""
    allow, deny = _files(base, lists.get("allow")), _files(base, lists.get("deny"))
    present = (
        [Path(f["path"]) for f in allow if f["fingerprint"]],
        [Path(f["path"]) for f in deny if f["fingerprint"]],
    )
    terms = read_lists(*present)
    side = known.get("side_file")
    return {
        "allow_lists": allow,
        "deny_lists": deny,
        "allow_entries": len(terms.allow),
        "deny_entries": len(terms.deny),
        "lists_digest": terms.digest if terms else None,
        "known_fields": {str(k): str(v) for k, v in dict(known.get("fields", {})).items()},
        "known_side_file": None if side is None else _file(base, side),
        "known_side_key": str(known.get("side_key", KnownFields.side_key)) if side is not None else None,
        "keep_known_fields": bool(known.get("keep_fields", KnownFields.keep_fields)),
        "known_typos": bool(known.get("typos", KnownParams.typos)),
        "rosters": {key: _file(base, known[key]) for key in ("clinicians", "places") if key in known},
        "custom_patterns": [str(p.get("name")) for p in patterns.get("custom", []) if isinstance(p, Mapping)],
    }


def site_settings(path: Path) -> dict[str, Any]:
    """The site's settings named by a configuration file (paths relative to its folder)."""
    data = read_toml(path)
    patterns = dict(dict(data.get("detector_params", {})).get("patterns", {}))
    return _site(dict(data.get("lists", {})), dict(data.get("known", {})), patterns, path.parent)


def _recorded(summary: Mapping[str, Any], recorded: Mapping[str, Any], run_profile: Any) -> dict[str, Any]:
    """The configuration from the run summary's effective values (values and their sources)."""
    values = recorded["values"]
    pipeline = dict(values.get("pipeline", {}))
    patterns = dict(dict(values.get("detector_params", {})).get("patterns", {}))
    return {
        "source": "run summary (the effective configuration: defaults, profile, file and options)",
        "profile": run_profile or pipeline.get("profile"),
        "profile_source": "run summary",
        "lang": pipeline.get("lang"),
        "detectors": list(pipeline.get("detectors", [])),
        "high_recall": pipeline.get("high_recall"),
        "operators": dict(sorted(dict(values.get("operators", {})).items())),
        "epsilon_per_document": pipeline.get("epsilon"),
        "seeded": summary.get("seeded"),
        "sources": dict(recorded.get("sources", {})),
        "site": _site(dict(values.get("lists", {})), dict(values.get("known", {})), patterns, Path()),
    }


def configuration(summary: Mapping[str, Any], path: Path | None) -> dict[str, Any]:
    """Profile, language, detectors, operators, budget and site settings of the run.

    A run summary records its effective configuration (values and sources, docs/configuration.md) and its
    profile (``substitution.profile``); an older one does not, and then the configuration file is read
    (command-line overrides of the run are not in it), or the section says "not recorded" rather than
    showing defaults the run may not have used.
    """
    run_profile = _substitution(summary).get("profile") or summary.get("profile")
    recorded = summary.get("configuration")
    if isinstance(recorded, Mapping) and isinstance(recorded.get("values"), Mapping):
        found = _recorded(summary, recorded, run_profile)
        if path is not None:
            found["profile_in_file"] = PipelineConfig.from_toml(path).profile
        return found
    if path is None:
        return {
            "source": "not recorded (the run summary holds no configuration; give --config)",
            "profile": run_profile,
            "profile_source": "run summary" if run_profile else None,
            "lang": None,
            "detectors": [],
            "high_recall": None,
            "operators": {},
            "epsilon_per_document": None,
            "seeded": summary.get("seeded"),
            "site": None,
        }
    config = PipelineConfig.from_toml(path)
    substitution = config.substitution
    return {
        "source": f"configuration file {path.name} (command-line overrides of the run are not included)",
        "profile": run_profile or config.profile,
        "profile_source": "run summary" if run_profile else f"configuration file {path.name}",
        "profile_in_file": config.profile,
        "lang": config.lang,
        "detectors": list(config.detectors),
        "high_recall": config.high_recall,
        "operators": {label.value: name for label, name in sorted(substitution.operators.items())},
        "epsilon_per_document": substitution.epsilon,
        "seeded": summary.get("seeded"),
        "site": site_settings(path),
    }


def replacements(summary: Mapping[str, Any], operators: Mapping[str, str]) -> dict[str, Any]:
    """Spans per label and what replaced them: per operator and outcome when the run summary records it
    (``substitution.by_label``), else the spans per label and the configured operator."""
    by_label = {str(k): int(v) for k, v in dict(summary.get("spans_by_label", {})).items()}
    recorded = _substitution(summary).get("by_label")
    if isinstance(recorded, Mapping):
        rows = {
            str(label): {
                "spans": sum(int(n) for outcomes in ops.values() for n in dict(outcomes).values()),
                "operators": {str(op): {str(k): int(n) for k, n in dict(o).items()} for op, o in ops.items()},
            }
            for label, ops in sorted(recorded.items())
        }
        totals = {str(k): int(v) for k, v in dict(_substitution(summary).get("totals", {})).items()}
        return {
            "source": "run summary (per operator and outcome)",
            "by_label": rows,
            "spans": sum(row["spans"] for row in rows.values()),
            "totals": totals,
            "dp": _substitution(summary).get("dp"),
            "checklist": _substitution(summary).get("checklist"),
        }
    rows = {
        label: {"spans": count, "operators": {operators[label]: {}} if label in operators else {}}
        for label, count in sorted(by_label.items())
    }
    kept = sum(count for label, count in by_label.items() if operators.get(label) == "keep")
    return {
        "source": "run summary (spans per label) and the configured operators",
        "by_label": rows,
        "spans": sum(by_label.values()),
        "totals": {"kept": kept},
        "dp": None,
        "checklist": None,
    }
