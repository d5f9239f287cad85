"""The report's tables, written as Markdown, HTML and JSON from the same data."""

from __future__ import annotations

import html
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from anonymed.errors import OutputError

DEFINITIONS = (
    "SMR: share of gold entities whose normalised text no longer occurs in the output. "
    "ALID: mean of 1 - s(e), s(e) the best normalised Levenshtein similarity of the entity with any window "
    "of as many tokens of the output. LR: share of entities with s(e) < tau; LRDI / LRQI: the same over "
    "direct / quasi-identifiers. JSC: Jaccard of the classifier's top-k specialties before and after. "
    "NSDCG: DCG of the anonymized ranking with the original probabilities as relevance, over the ideal. "
    "F1 change: macro-F1 on anonymized minus on original notes, in points."
)


@dataclass(frozen=True)
class Table:
    """A titled table of strings."""

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    caption: str = ""


def _f(value: Any, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _signed(value: Any) -> str:
    return "—" if value is None else f"{value:+.2f}"


def anonymity_table(section: dict[str, Any]) -> Table:
    """Anonymity metrics (note averages) and detection recall per method."""
    rows = []
    for name, report in section["methods"].items():
        macro = report["macro"]
        detection = report.get("detection", {}).get("overall", {})
        rows.append(
            (
                name,
                *(_f(macro[m]) for m in ("smr", "alid", "lr", "lrdi", "lrqi")),
                _f(detection.get("tokens", {}).get("recall")),
                _f(detection.get("entities", {}).get("recall")),
            )
        )
    params = next(iter(section["methods"].values()))["params"]
    caption = (
        f"{section['documents']} notes of {section['corpus']}, {section['entities']} gold entities; "
        f"averaged over notes; tau = {params['tau']}; 'none' is the untouched note."
    )
    header = ("method", "SMR", "ALID", "LR", "LRDI", "LRQI", "det. token R", "det. entity R")
    return Table("Anonymity", header, tuple(rows), caption)


def anonymity_by_label(section: dict[str, Any]) -> Table:
    """LR per gold label (pooled over entities) and method."""
    methods = [m for m in section["methods"] if m != "none"]
    labels = sorted({label for m in methods for label in section["methods"][m]["by_label"]})
    rows = []
    for label in labels:
        cells = [section["methods"][m]["by_label"].get(label, {}) for m in methods]
        count = next((c["counts"]["entities"] for c in cells if c), 0)
        rows.append((label, str(count), *(_f(c.get("lr")) for c in cells)))
    return Table("LR by gold label", ("label", "entities", *methods), tuple(rows), "pooled over entities")


def retention_table(section: dict[str, Any]) -> Table:
    """JSC, NSDCG and top-1 agreement per method."""
    rows = tuple(
        (name, _f(r["jsc"]), _f(r["nsdcg"]), _f(r["top1"])) for name, r in section["methods"].items()
    )
    k = next(iter(section["methods"].values()))["params"]["k"] if section["methods"] else 3
    caption = (
        f"{section['documents']} MTSamples test notes; classifier: {section['classifier']['classes']} "
        f"specialties, held-out macro-F1 {section['classifier']['test_macro_f1']}"
    )
    return Table("Information retention", ("method", f"JSC@{k}", "NSDCG", "top-1 kept"), rows, caption)


def extrinsic_table(section: dict[str, Any]) -> Table:
    """Macro-F1 per model on the original and every method, with the change in points."""
    models = list(section["original"])
    rows = [("original", *(x for m in models for x in (_f(section["original"][m]["f1"]), "")))]
    for name, scores in section["methods"].items():
        rows.append((name, *(x for m in models for x in (_f(scores[m]["f1"]), _signed(scores[m]["change"])))))
    header = ("method", *(x for m in models for x in (f"{m} F1", "change")))
    caption = (
        f"{section['notes']} labelled MTSamples notes, {section['classes']} specialties, "
        f"{section['params']['folds']}-fold cross-validation; change in macro-F1 points"
    )
    return Table("Extrinsic utility (specialty classification)", header, tuple(rows), caption)


def intrinsic_tables(section: dict[str, Any]) -> Iterator[Table]:
    """Pearson and Spearman per benchmark (rows) and setting (columns): mean (CI low, high)."""
    settings = list(section["settings"])
    benchmarks = list(section["settings"][settings[0]])
    for kind in ("pearson", "spearman"):
        rows = []
        for bench in benchmarks:
            cells = [section["settings"][s][bench][kind] for s in settings]
            pairs = section["settings"][settings[0]][bench]
            rows.append(
                (
                    bench,
                    f"{pairs['pairs']}/{pairs['total']}",
                    *(f"{_f(c['mean'], 2)} ({_f(c['low'], 2)}, {_f(c['high'], 2)})" for c in cells),
                )
            )
        caption = (
            f"{section['runs']} runs, {int(100 * section['level'])}% confidence interval; "
            f"fastText on {section['documents']} MTSamples notes"
        )
        yield Table(
            f"Intrinsic utility: {kind.title()}", ("benchmark", "pairs", *settings), tuple(rows), caption
        )


def tables(data: dict[str, Any]) -> list[Table]:
    """Every table the data allows, in report order."""
    found = []
    if "anonymity" in data:
        found += [anonymity_table(data["anonymity"]), anonymity_by_label(data["anonymity"])]
    if "retention" in data:
        found.append(retention_table(data["retention"]))
    if "extrinsic" in data:
        found.append(extrinsic_table(data["extrinsic"]))
    if "intrinsic" in data:
        found += list(intrinsic_tables(data["intrinsic"]))
    return found


def markdown(data: dict[str, Any]) -> str:
    """The report as Markdown."""
    lines = [
        f"# {data['title']}",
        "",
        f"Created {data['created']}; seed {data['seed']}; "
        + ", ".join(f"{k} {v}" for k, v in data["versions"].items()),
        "",
        DEFINITIONS,
        "",
    ]
    for table in tables(data):
        lines += [
            f"## {table.title}",
            "",
            "| " + " | ".join(table.header) + " |",
            "|" + "|".join("---" for _ in table.header) + "|",
        ]
        lines += ["| " + " | ".join(row) + " |" for row in table.rows]
        lines += ["", f"_{table.caption}_" if table.caption else "", ""]
    for figure in data.get("figures", []):
        lines += [f"![{figure['caption']}]({figure['file']})", "", f"_{figure['caption']}_", ""]
    lines += ["## Notes", ""] + [f"- {note}" for note in data.get("notes", [])]
    lines += ["", "Timings (s): " + ", ".join(f"{k} {v}" for k, v in data.get("timings", {}).items()), ""]
    return "\n".join(lines)


def _html_table(table: Table) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in table.header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in table.rows
    )
    caption = f"<p class='caption'>{html.escape(table.caption)}</p>" if table.caption else ""
    return f"<h2>{html.escape(table.title)}</h2><table><tr>{head}</tr>{body}</table>{caption}"


STYLE = (
    "body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
    "table{border-collapse:collapse;margin:.5em 0}"
    "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
    "td:first-child,th:first-child{text-align:left}.caption{color:#555;font-size:90%}img{max-width:100%}"
)


def html_page(data: dict[str, Any]) -> str:
    """The report as one HTML page (figures referenced by file name)."""
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(data['title'])}</title>"
        f"<style>{STYLE}</style></head><body><h1>{html.escape(data['title'])}</h1>",
        f"<p>Created {html.escape(data['created'])}; seed {data['seed']}; "
        + html.escape(", ".join(f"{k} {v}" for k, v in data["versions"].items()))
        + "</p>",
        f"<p class='caption'>{html.escape(DEFINITIONS)}</p>",
    ]
    parts += [_html_table(table) for table in tables(data)]
    for figure in data.get("figures", []):
        parts.append(
            f"<figure><img src='{html.escape(figure['file'])}' alt=''>"
            f"<figcaption class='caption'>{html.escape(figure['caption'])}</figcaption></figure>"
        )
    notes = "".join(f"<li>{html.escape(n)}</li>" for n in data.get("notes", []))
    parts.append(f"<h2>Notes</h2><ul>{notes}</ul></body></html>")
    return "\n".join(parts)


def write_outputs(data: dict[str, Any], folder: Path) -> None:
    """Write report.json, report.md and report.html into ``folder`` (each atomically)."""
    outputs = {
        "report.json": json.dumps(data, indent=2, ensure_ascii=False),
        "report.md": markdown(data),
        "report.html": html_page(data),
    }
    for name, text in outputs.items():
        path = Path(folder) / name
        tmp = path.with_name(f".{name}.tmp")
        try:
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(path)
        except OSError as exc:
            raise OutputError(f"cannot write {str(path)!r}: {exc.strerror}") from None
