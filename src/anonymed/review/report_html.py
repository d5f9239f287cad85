"""The review report as one HTML page with a plot, and the writing of a report's JSON and HTML files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from anonymed.review.folder import write_text
from anonymed.review.html import esc, figure, interval, number, page, png_of, table


def write_report(data: dict[str, Any], json_path: Path, html_path: Path | None, html_text: str) -> None:
    """Write a report's JSON and (if a path is given) its HTML page."""
    write_text(json_path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    if html_path is not None:
        write_text(html_path, html_text)


def residual_plot(report: dict[str, Any]) -> bytes | None:
    """Residual PHI per 1,000 tokens, overall and per label, with the intervals (None without estimates)."""
    rows = [("all labels", report["residual"]["overall"]), *report["residual"]["by_label"].items()]
    rows = [(name, r["per_1000_tokens"]) for name, r in rows if r["per_1000_tokens"]["estimate"] is not None]
    if not rows:
        return None

    def draw(fig: Any) -> None:
        ax = fig.subplots()
        ys = list(range(len(rows)))[::-1]
        est = [r["estimate"] for _, r in rows]
        low = [r["estimate"] - r["lower"] for _, r in rows]
        high = [r["upper"] - r["estimate"] for _, r in rows]
        ax.errorbar(est, ys, xerr=[low, high], fmt="o", capsize=4, color="#2f5fb3")
        ax.set_yticks(ys, [name for name, _ in rows])
        target = report["target"]["per_1000_tokens"]
        ax.axvline(target, color="#9a3412", linestyle="--", linewidth=1, label=f"target {target:g}")
        ax.set_xlabel(f"missed identifiers per 1,000 tokens ({report['confidence']:.0%} interval)")
        ax.set_xlim(left=0)
        ax.legend(loc="lower right")

    return png_of(draw)


def _rows(report: dict[str, Any]) -> list[list[str]]:
    precision = report["precision"]
    rows = []
    for name, data in [
        ("all labels", report["residual"]["overall"]),
        *report["residual"]["by_label"].items(),
    ]:
        key = None if name == "all labels" else name
        prec = precision["overall"] if key is None else precision["by_label"].get(key)
        three = data.get("rule_of_three")
        rows.append(
            [
                name,
                str(data["missed"]),
                interval(data["per_1000_tokens"]),
                interval(data["notes_with_missed"]),
                "—" if three is None else f"≤ {number(three['per_1000_tokens_upper'])}",
                interval(prec),
            ]
        )
    return rows


def review_html(report: dict[str, Any]) -> str:
    """The review report as one self-contained HTML page (counts and estimates only, never note text)."""
    progress, target = report["progress"], report["target"]
    parts = [
        f"<p class='muted'>Input {esc(report['input']['fingerprint'])}: {report['input']['notes']} notes, "
        f"{report['input']['tokens']} tokens. Detectors {esc(', '.join(report['detection']['detectors']))}. "
        f"anonymed {esc(report['anonymed'])}, {esc(report['created'])}.</p>",
        f"<p>{progress['reviewed']} of {progress['sampled']} sampled notes reviewed by "
        f"{len(progress['reviewers'])} reviewer(s).</p>",
    ]
    if progress["uncovered_strata"]:
        parts.append(
            "<p class='warn'>Strata without a reviewed note: "
            f"{esc(', '.join(progress['uncovered_strata']))}; "
            f"the estimates cover {progress['population_covered']} of {report['input']['notes']} notes.</p>"
        )
    header = [
        "label",
        "missed (seen)",
        "missed per 1,000 tokens",
        "share of notes with a miss",
        "rule of three (per 1,000)",
        "detector precision",
    ]
    parts.append(
        table(header, _rows(report), f"estimate [{report['confidence']:.0%} interval]. {report['method']}")
    )
    parts.append(figure(residual_plot(report), "Missed identifiers per 1,000 tokens with their intervals."))
    if target["notes_needed"] is None:
        parts.append(
            f"<p>Upper bound under {number(target['per_1000_tokens'])} per 1,000 tokens: "
            f"not reachable ({esc(target['reason'])}).</p>"
        )
    else:
        parts.append(
            f"<p>Upper bound under {number(target['per_1000_tokens'])} per 1,000 tokens: about "
            f"{target['notes_needed']} reviewed notes in all ({target['additional_notes']} more), "
            "if the estimate and the design effect hold.</p>"
        )
    if report["agreement"]:
        rows = [
            [
                " & ".join(a["reviewers"]),
                a["notes"],
                a["units"],
                number(a["observed_agreement"]),
                number(a["kappa"]),
            ]
            for a in report["agreement"]
        ]
        parts.append(
            "<h2>Agreement</h2>" + table(["reviewers", "notes", "units", "agreement", "Cohen's kappa"], rows)
        )
    learning = report.get("learning")
    if learning:
        parts.append(_learning(learning))
    return page("anonymed review report", parts)


def _learning(learning: dict[str, Any]) -> str:
    """Before / after of a retrained tagger on the held-out reviewed notes."""
    head = (
        f"<h2>Before / after retraining</h2><p>{learning['held_out_notes']} finished notes held out from "
        f"both models' training ({learning['left_out_trained_on']} left out because a model was trained "
        "on them).</p>"
    )
    if not learning["variants"]:
        return head + f"<p>{esc(learning['reason'])}</p>"
    rows = [
        [
            variant,
            *(
                number(f[phase]["overall"][k])
                for k in ("recall", "precision")
                for phase in ("before", "after")
            ),
        ]
        for variant, f in learning["variants"].items()
    ]
    columns = ["detectors", "recall before", "recall after", "precision before", "precision after"]
    return head + table(columns, rows)
