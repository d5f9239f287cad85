"""Small HTML pieces for the review and release reports: one self-contained page, escaped tables, figures."""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Iterable, Sequence
from typing import Any

CSS = (
    "body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#1f2933}"
    "h1{color:#2f5fb3}table{border-collapse:collapse;margin:.6em 0}"
    "td,th{border:1px solid #d9e2ec;padding:3px 8px;text-align:right;vertical-align:top}"
    "td:first-child,th:first-child{text-align:left}.muted{color:#616e7c;font-size:90%}"
    ".warn{color:#9a3412}img{max-width:100%}code{font-size:90%}"
)


def esc(value: Any) -> str:
    """Text escaped for HTML."""
    return html.escape(str(value), quote=True)


def number(value: float | None, digits: int = 3) -> str:
    """A number to ``digits`` significant figures, or a dash for a missing value."""
    return "—" if value is None else f"{value:.{digits}g}"


def interval(data: dict[str, Any] | None, digits: int = 3) -> str:
    """``estimate [lower, upper]`` of an interval's JSON, or a dash."""
    if not data or data.get("estimate") is None:
        return "—"
    low, high = data.get("lower"), data.get("upper")
    return f"{number(data['estimate'], digits)} [{number(low, digits)}, {number(high, digits)}]"


def table(header: Sequence[str], rows: Iterable[Sequence[Any]], caption: str = "") -> str:
    """An HTML table with every cell escaped, and a caption under it."""
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows)
    note = f"<p class='muted'>{esc(caption)}</p>" if caption else ""
    return f"<table><tr>{head}</tr>{body}</table>{note}"


def figure(png: bytes | None, caption: str) -> str:
    """A PNG embedded as a data URI (the page stands alone), with its caption."""
    if png is None:
        return ""
    data = base64.b64encode(png).decode("ascii")
    return (
        f"<figure><img alt='{esc(caption)}' src='data:image/png;base64,{data}'>"
        f"<figcaption class='muted'>{esc(caption)}</figcaption></figure>"
    )


def page(title: str, parts: Iterable[str]) -> str:
    """One HTML document with the report's style."""
    body = "\n".join(parts)
    return (
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{esc(title)}</title>"
        f"<style>{CSS}</style></head><body><h1>{esc(title)}</h1>\n{body}\n</body></html>\n"
    )


def png_of(draw: Any) -> bytes:
    """Render a matplotlib figure built by ``draw(figure)`` to PNG bytes (Agg backend)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 3.6), dpi=110, layout="constrained")
    draw(fig)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()
