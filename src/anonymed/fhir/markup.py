"""XHTML narratives and HTML notes scrubbed as one text, with an offset map back into the markup.

The markup is cut into segments: text between tags, CDATA sections, and attribute values (except a few
structural attributes: ``xmlns``, ``class``, ``style``, table layout...). Character references are decoded
for the detectors and mapped back: each decoded character knows the source range it came from. The
segments are joined into one text (a line break where a block element or an attribute separates them,
nothing inside a run of inline elements, so "J<b>ohn</b>" reads "John"), that text is scrubbed once, and
each replacement is written back into the segments it covers: the surrogate, escaped for its place, into
the first, the others emptied. Tags, and everything outside a replacement, stay byte for byte. Comments,
``<script>`` contents and ``data:`` URIs are removed (they are not shown and cannot be scrubbed safely).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from anonymed.document import Replacement

#: attributes whose values are layout, not content
STRUCTURAL: Final = frozenset({
    "xmlns", "class", "style", "colspan", "rowspan", "width", "height", "align", "valign", "border",
    "cellpadding", "cellspacing", "span", "lang", "xml:lang", "dir", "charset", "http-equiv", "scope",
})  # fmt: skip
#: elements after or before which the text starts a new line
BLOCKS: Final = frozenset({
    "address", "article", "aside", "blockquote", "br", "caption", "dd", "div", "dl", "dt", "footer",
    "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "ol", "p", "pre", "section", "table",
    "tbody", "td", "tfoot", "th", "thead", "title", "tr", "ul", "body", "head", "html",
})  # fmt: skip
_TOKEN: Final = re.compile(
    r"<!--.*?(?:-->|\Z)|<!\[CDATA\[(?P<cdata>.*?)(?:\]\]>|\Z)|<[!?][^>]*>?"
    # a tag's attributes never span a "<" (quoted or not): each match attempt stops at the next tag, so
    # a note full of unclosed tags is read in linear time (such a "tag" is read as text, and scrubbed)
    r"|<(?P<close>/?)(?P<name>[A-Za-z][\w:.-]*)(?P<attrs>(?:[^<>\"']|\"[^\"<]*\"|'[^'<]*')*)>",
    re.S,
)
_ATTR: Final = re.compile(r"([^\s=/>\"']+)(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s>\"']+)))?")
_ENTITY: Final = re.compile(r"&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);?")


@dataclass
class Segment:
    """A stretch of source holding text: its decoded text and, per character, its source range."""

    kind: str  # text | attr | cdata
    text: str = ""
    starts: list[int] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)


@dataclass
class Scrubbed:
    """The scrubbed markup, the replacements made (over the joined text) and what was dropped."""

    markup: str
    replacements: tuple[Replacement, ...]
    removed: int


def _decode(source: str, start: int, end: int, kind: str) -> Segment:
    segment = Segment(kind)
    chars: list[str] = []
    pos = start
    while pos < end:
        found = _ENTITY.search(source, pos, end) if kind != "cdata" else None
        stop = found.start() if found else end
        for i in range(pos, stop):
            chars.append(source[i])
            segment.starts.append(i)
            segment.ends.append(i + 1)
        if found is None:
            break
        for ch in html.unescape(found.group(0)):
            chars.append(ch)
            segment.starts.append(found.start())
            segment.ends.append(found.end())
        pos = found.end()
    segment.text = "".join(chars)
    return segment


def split(markup: str) -> tuple[list[tuple[int, Segment]], list[tuple[int, int]]]:
    """The segments with their offsets in the joined text, and the source ranges to remove."""
    segments: list[tuple[int, Segment]] = []
    removed: list[tuple[int, int]] = []
    pieces: list[Segment | None] = []  # None: a line break
    pos = 0
    for token in _TOKEN.finditer(markup):
        if token.start() > pos:
            pieces.append(_decode(markup, pos, token.start(), "text"))
        pos = token.end()
        name = (token["name"] or "").lower()
        if token.group(0).startswith("<!--"):
            removed.append((token.start(), token.end()))
        elif token["cdata"] is not None:
            pieces.append(_decode(markup, token.start("cdata"), token.end("cdata"), "cdata"))
        elif name:
            if name in BLOCKS:
                pieces.append(None)
            if not token["close"]:
                pieces += _attributes(markup, token.start("attrs"), token["attrs"], removed)
                if name == "script" and not token["attrs"].rstrip().endswith("/"):
                    close = re.compile(r"</script\s*>", re.I).search(markup, pos)
                    stop = close.start() if close else len(markup)
                    if stop > pos:
                        removed.append((pos, stop))
                    pos = stop
    if pos < len(markup):
        pieces.append(_decode(markup, pos, len(markup), "text"))
    offset, previous_break = 0, True
    for piece in pieces:
        if piece is None or not piece.text:
            previous_break = previous_break or piece is None
            continue
        if piece.kind == "attr" or previous_break:
            offset += 1  # the line break before it (an attribute stands on its own line)
        segments.append((offset, piece))
        offset += len(piece.text)
        previous_break = piece.kind == "attr"
    return segments, removed


def _attributes(markup: str, base: int, attrs: str, removed: list[tuple[int, int]]) -> list[Segment | None]:
    found: list[Segment | None] = []
    for attr in _ATTR.finditer(attrs):
        name = attr.group(1).lower()
        group = next((g for g in (2, 3, 4) if attr.group(g) is not None), None)
        if group is None or name in STRUCTURAL or name.startswith("xmlns"):
            continue
        start, end = base + attr.start(group), base + attr.end(group)
        if attr.group(group).lstrip().lower().startswith("data:"):
            removed.append((start, end))
            continue
        found.append(_decode(markup, start, end, "attr"))
    return found


def joined_text(segments: list[tuple[int, Segment]]) -> str:
    """The one text the detectors read (segments at their offsets, line breaks between)."""
    if not segments:
        return ""
    out: list[str] = []
    cursor = 0
    for offset, segment in segments:
        out.append("\n" * (offset - cursor))
        out.append(segment.text)
        cursor = offset + len(segment.text)
    return "".join(out)


def _escape(text: str, kind: str) -> str:
    if kind == "cdata":
        return text.replace("]]>", "]] >")
    return html.escape(text, quote=kind == "attr")


def scrub_markup(markup: str, scrub: Callable[[str], tuple[str, tuple[Replacement, ...]]]) -> Scrubbed:
    """``markup`` with its text and attribute values scrubbed by ``scrub`` (joined text -> replacements)."""
    segments, removed = split(markup)
    text = joined_text(segments)
    replacements: tuple[Replacement, ...] = ()
    edits: list[tuple[int, int, str]] = [(a, b, "") for a, b in removed]
    if text.strip():
        _, replacements = scrub(text)
        for rep in replacements:
            first = True
            for offset, segment in segments:
                lo, hi = max(rep.start, offset), min(rep.end, offset + len(segment.text))
                if lo >= hi:
                    continue
                a, b = segment.starts[lo - offset], segment.ends[hi - offset - 1]
                edits.append((a, b, _escape(rep.surrogate, segment.kind) if first else ""))
                first = False
    pieces, cursor = [], 0
    for a, b, new in sorted(edits):
        pieces += [markup[cursor:a], new]
        cursor = max(cursor, b)
    pieces.append(markup[cursor:])
    return Scrubbed("".join(pieces), replacements, len(removed))
