"""The release report as one self-contained HTML page (figures from its JSON, nothing else)."""

from __future__ import annotations

from typing import Any

from anonymed.review.html import esc, interval, number, page, table


def _section(title: str, body: str) -> str:
    return f"<h2>{esc(title)}</h2>\n{body}"


def _configuration(data: dict[str, Any]) -> str:
    config = data["configuration"]
    profile = config["profile"] or "not recorded"
    if config.get("profile_source"):
        profile = f"{profile} (from the {config['profile_source']})"
    rows = [
        ("profile", profile),
        ("language", config["lang"]),
        ("detectors", ", ".join(config["detectors"]) or "—"),
        ("high recall", config["high_recall"]),
        ("privacy budget per note (epsilon)", number(config["epsilon_per_document"])),
        ("seeded run", config["seeded"]),
    ]
    operators = table(["label", "operator (configured)"], sorted(config["operators"].items()))
    return table(["setting", "value"], rows, f"source: {config['source']}") + operators + _site(config)


def _named(files: list[dict[str, str]]) -> str:
    return "; ".join(f"{f['path']} ({f['fingerprint']})" for f in files) or "—"


def _site(config: dict[str, Any]) -> str:
    site = config.get("site")
    if not site:
        return ""
    known = ", ".join(f"{name} → {kind}" for name, kind in sorted(site["known_fields"].items())) or "—"
    side = site["known_side_file"]
    rows = [
        ("allow lists", _named(site["allow_lists"])),
        ("deny lists", _named(site["deny_lists"])),
        ("list entries", f"{site['allow_entries']} allowed, {site['deny_entries']} denied"),
        ("known-identifier record fields", known),
        ("known-identifier side file", "—" if side is None else _named([side])),
        ("known fields written out", site["keep_known_fields"]),
        ("typos of known names", site["known_typos"]),
        ("rosters", _named([{**f, "path": f"{k}: {f['path']}"} for k, f in site["rosters"].items()])),
        ("custom patterns", ", ".join(site["custom_patterns"]) or "—"),
    ]
    caption = "files named by path and sha256 fingerprint; their contents (names) are not in this report"
    return table(["site setting", "value"], rows, caption)


def _replacements(data: dict[str, Any]) -> str:
    rep = data["replacements"]
    rows = []
    for label, row in rep["by_label"].items():
        done = "; ".join(
            f"{op}: " + ", ".join(f"{n} {outcome}" for outcome, n in outcomes.items()) if outcomes else op
            for op, outcomes in row["operators"].items()
        )
        rows.append((label, row["spans"], done or "—"))
    totals = ", ".join(f"{n} {k}" for k, n in rep["totals"].items())
    caption = f"{rep['spans']} spans found ({totals}); source: {rep['source']}."
    parts = [table(["label", "spans", "operator: outcomes"], rows, caption)]
    if rep.get("checklist"):
        checks = [
            (c["kind"], c["identifier"], c["found"], ", ".join(sorted(c["done"])) or "—", c["note"])
            for c in rep["checklist"]
        ]
        parts.append(table(["", "HIPAA Safe Harbor identifier", "found", "operators", "note"], checks))
    return "\n".join(parts)


def _privacy(data: dict[str, Any]) -> str:
    privacy = data["privacy"]
    if privacy is None:
        return "<p class='muted'>No privacy report given.</p>"
    rows = [
        (k.replace("_", " "), v if not isinstance(v, float) else number(v, 4)) for k, v in privacy.items()
    ]
    return table(["", "value"], rows, "epsilon is per note; notes of one patient add up")


def _review(data: dict[str, Any]) -> str:
    review = data["review"]
    if review is None:
        return "<p class='muted'>No review given.</p>"
    rows = [
        ("missed identifiers per 1,000 tokens", interval(review["residual_per_1000_tokens"])),
        ("share of notes with a missed identifier", interval(review["notes_with_missed"])),
        ("detector precision", interval(review["precision"])),
        ("notes reviewed", f"{review['reviewed_notes']} of {review['sampled_notes']} drawn"),
        ("same input as this release", review["same_input"]),
    ]
    rows += [(f"missed {label} per 1,000 tokens", interval(v)) for label, v in review["by_label"].items()]
    if review["rule_of_three"]:
        rows.append(
            ("rule of three (per 1,000 tokens)", number(review["rule_of_three"]["per_1000_tokens_upper"]))
        )
    return table(["figure", "estimate [95% interval]"], rows, review["method"])


def _metrics(data: dict[str, Any]) -> str:
    if not data["metrics"]:
        return "<p class='muted'>No metric report given.</p>"
    parts = []
    for report in data["metrics"]:
        rows = [(k, number(v, 4)) for k, v in report["values"].items()]
        parts.append(table([report["source"], "value"], rows))
    return "\n".join(parts)


def _audit(data: dict[str, Any]) -> str:
    audit = data["audit"]
    if audit is None:
        return "<p class='muted'>No embedding audit given (needed for word or sentence substitution).</p>"
    return table(["protection", "verdict"], [(v["protection"], v["verdict"]) for v in audit["verdicts"]])


def release_html(data: dict[str, Any]) -> str:
    """The release report's page."""
    source = data["input"]
    head = (
        f"<p>Input {esc(source['path'] or '(not given)')}, fingerprint {esc(source['fingerprint'] or '—')}: "
        f"{source['read']} records read, {source['written']} written, {source['failed']} failed.</p>"
    )
    warnings = "".join(f"<p class='warn'>{esc(w)}</p>" for w in data["warnings"])
    commands = "".join(f"<pre><code>{esc(c)}</code></pre>" for c in data["commands"])
    versions = ", ".join(f"{k} {v}" for k, v in data["versions"].items())
    parts = [
        head,
        warnings,
        _section("Configuration and operators", _configuration(data)),
        _section("Replacements", _replacements(data)),
        _section("Differential privacy", _privacy(data)),
        _section("Review: what is left", _review(data)),
        _section("Leak and utility metrics", _metrics(data)),
        _section("Embedding audit", _audit(data)),
        _section(
            "Commands and versions",
            commands + f"<p class='muted'>{esc(versions)}</p>"
            f"<pre><code>{esc(' '.join(data['release_command']))}</code></pre>",
        ),
        _section(
            "Not in this report", "<ul>" + "".join(f"<li>{esc(p)}</li>" for p in data["pending"]) + "</ul>"
        ),
        f"<p class='muted'>Created {esc(data['created'])}.</p>",
    ]
    return page("anonymed release report", parts)
