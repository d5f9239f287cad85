"""The release report as one self-contained HTML page (figures from its JSON, nothing else)."""

from __future__ import annotations

from typing import Any

from anonymed.review.html import esc, interval, number, page, table


def _section(title: str, body: str) -> str:
    return f"<h2>{esc(title)}</h2>\n{body}"


def _configuration(data: dict[str, Any]) -> str:
    config = data["configuration"]
    rows = [
        ("profile", config["profile"] or "not recorded"),
        ("language", config["lang"]),
        ("detectors", ", ".join(config["detectors"]) or "—"),
        ("high recall", config["high_recall"]),
        ("privacy budget per note (epsilon)", number(config["epsilon_per_document"])),
        ("seeded run", config["seeded"]),
    ]
    operators = table(["label", "operator"], sorted(config["operators"].items()))
    return table(["setting", "value"], rows, f"source: {config['source']}") + operators


def _replacements(data: dict[str, Any]) -> str:
    rep = data["replacements"]
    rows = [(label, r["spans"], r["operator"] or "—") for label, r in rep["by_label"].items()]
    caption = f"{rep['spans']} spans found and replaced; {rep['kept_unchanged']} left unchanged ('keep')."
    return table(["label", "spans", "operator"], rows, caption)


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
