"""Attachments: decode the note, scrub it, encode it back; what cannot be read is reported, never kept.

``text/plain`` is decoded with the ``charset`` of its ``contentType`` (UTF-8 when absent, a byte-order
mark honoured) and written back in the same charset when every surrogate fits it, else in UTF-8 with the
``contentType`` updated. HTML (``text/html``, ``application/xhtml+xml``) is scrubbed as markup (text and
attribute values, ``markup`` module), its charset from the ``contentType``, else a ``<meta charset>``,
else UTF-8; characters its charset cannot hold become character references. RTF is converted to plain
text with ``striprtf`` (in the ``fhir`` extra) and written as ``text/plain; charset=utf-8``. Anything
else (PDF, images, an undecodable text) and attachments holding only a ``url`` are reported as
unprocessed: the data is dropped, never guessed at. ``size`` and ``hash`` (SHA-1, base64) are
recomputed for new data and dropped with dropped data.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from anonymed.document import Replacement
from anonymed.fhir.markup import scrub_markup

Scrub = Callable[[str], tuple[str, tuple[Replacement, ...]]]
PLAIN: Final = frozenset({"text/plain"})
HTML: Final = frozenset({"text/html", "application/xhtml+xml"})
RTF: Final = frozenset({"text/rtf", "application/rtf"})
_META_CHARSET: Final = re.compile(rb"<meta[^>]+charset\s*=\s*[\"']?([A-Za-z0-9_\-:.]+)", re.I)


@dataclass(frozen=True)
class Outcome:
    """What happened to one attachment: ``processed`` or the reason it was not (no text, no values)."""

    status: str  # processed | unprocessed
    reason: str = ""
    content_type: str | None = None


def parse_content_type(value: str) -> tuple[str, dict[str, str]]:
    """``("text/plain", {"charset": "utf-8"})`` from a MIME content type."""
    mime, *params = (part.strip() for part in value.split(";"))
    found = {}
    for param in params:
        name, _, val = param.partition("=")
        found[name.strip().lower()] = val.strip().strip('"')
    return mime.lower(), found


def _codec(name: str) -> str | None:
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def _decode(data: bytes, charset: str) -> str | None:
    if data.startswith(codecs.BOM_UTF8):
        data, charset = data[len(codecs.BOM_UTF8) :], "utf-8"
    try:
        return data.decode(charset)
    except (UnicodeDecodeError, LookupError):
        return None


def _plain(data: bytes, params: dict[str, str], scrub: Scrub) -> tuple[bytes, str | None] | str:
    charset = _codec(params.get("charset", "utf-8"))
    text = None if charset is None else _decode(data, charset)
    if text is None or charset is None:
        return "text not decodable with its charset"
    out, _ = scrub(text)
    try:
        return out.encode(charset), None
    except UnicodeEncodeError:
        return out.encode("utf-8"), "text/plain; charset=utf-8"


def _html(data: bytes, params: dict[str, str], scrub: Scrub) -> tuple[bytes, str | None] | str:
    meta = _META_CHARSET.search(data[:2048])
    declared = params.get("charset") or (meta.group(1).decode("ascii") if meta else "utf-8")
    charset = _codec(declared)
    text = None if charset is None else _decode(data, charset)
    if text is None or charset is None:
        return "HTML not decodable with its charset"
    return scrub_markup(text, scrub).markup.encode(charset, "xmlcharrefreplace"), None


def _rtf(data: bytes, scrub: Scrub) -> tuple[bytes, str | None] | str:
    try:
        from striprtf.striprtf import rtf_to_text
    except ImportError:
        return "RTF converter not installed (pip install anonymed[fhir])"
    try:
        text = str(rtf_to_text(data.decode("latin-1")))  # type: ignore[no-untyped-call]
    except Exception:
        return "RTF not readable"
    out, _ = scrub(text)
    return out.encode("utf-8"), "text/plain; charset=utf-8"


def process(
    node: dict[str, Any], scrub: Scrub, rewrite_url: Callable[[str], str | None]
) -> tuple[dict[str, Any], Outcome]:
    """The attachment's ``data``, ``url``, ``size``, ``hash`` and ``contentType`` after the text pass.

    Returns only those keys (the caller walks the others with the rules table) and the outcome.
    """
    out: dict[str, Any] = {}
    content_type = node.get("contentType")
    if isinstance(content_type, str):
        out["contentType"] = content_type
    url = node.get("url")
    if isinstance(url, str):
        rewritten = rewrite_url(url)
        if rewritten is not None:
            out["url"] = rewritten
    data = node.get("data")
    if not isinstance(data, str):
        return out, Outcome("unprocessed", "url only" if isinstance(url, str) else "no data")
    try:
        raw = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return out, Outcome("unprocessed", "data not valid base64")
    mime, params = parse_content_type(content_type if isinstance(content_type, str) else "")
    result: tuple[bytes, str | None] | str
    if mime in PLAIN:
        result = _plain(raw, params, scrub)
    elif mime in HTML:
        result = _html(raw, params, scrub)
    elif mime in RTF:
        result = _rtf(raw, scrub)
    else:
        result = f"content type {mime or 'missing'} not processed"
    if isinstance(result, str):
        return out, Outcome("unprocessed", result)
    new, new_type = result
    out["data"] = base64.b64encode(new).decode("ascii")
    if new_type is not None:
        out["contentType"] = new_type
    if "size" in node:
        out["size"] = len(new)
    if "hash" in node:
        out["hash"] = base64.b64encode(hashlib.sha1(new).digest()).decode("ascii")
    return out, Outcome("processed", content_type=out.get("contentType"))
