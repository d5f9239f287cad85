"""A rule-based sentence splitter for clinical notes: sentence offsets; the layout between them is kept.

Chosen over pysbd and spaCy's sentencizer by measurement on hand-checked dev notes (README, "Sentence
substitution"). What it knows about clinical text:

* line breaks: a blank line always ends a sentence; a single line break ends one unless the line is long,
  does not end in punctuation and the next line goes on with a lower-case word, or (outside upper-case
  lines) with any word (a wrapped line);
* section headers are sentences of their own: a label of up to three words ending in a colon or semicolon
  that opens a line ("neuro:", "Resp:", "GI;", "o: cv status:"); an upper-case run ending in a colon
  ("HISTORY OF PRESENT ILLNESS:", "O:") at the start of a line or sentence, after a semicolon, or glued to
  a comma (MTSamples' inlined ",HEADER:,"); a short title-case line ending in a colon;
* terminal punctuation ends a sentence before an upper-case letter, a digit or a bracket, but not after a
  title ("Dr.", "Mrs."), a common abbreviation ("approx.", "e.g."), an initial, or a list number ("2.");
  a dotted abbreviation ("b.i.d.", "q.d.", "p.o.") ends one only before an upper-case letter; in notes
  written in lower case, a full stop also ends one before a lower-case word;
* list markers ("-", "*", "1.", "2)") and the commas and spaces around sentences stay in the layout.

Sentences are the stretches of text that hold at least one letter or digit; everything else is layout.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

#: words after which a full stop never ends a sentence (lower-cased, without the dot)
TITLES = frozenset({"dr", "mr", "mrs", "ms", "prof", "st", "sr", "jr", "messrs", "mme", "mlle", "drs"})
ABBREVIATIONS = frozenset(
    {
        "approx", "appt", "apt", "cf", "ca", "dept", "e.g", "eg", "i.e", "ie", "est", "fig", "figs",
        "inc", "incl", "ltd", "no", "nos", "vs", "viz", "wt", "yr", "yrs", "hx", "pt", "pts", "etc",
    }
)  # fmt: skip
WRAP_MIN = 55  # a line at least this long that does not end in punctuation may be wrapped
_LOOKBEHIND = 40  # characters looked at before a candidate boundary (keeps splitting linear)

_LINE = re.compile(r"[^\n]*(?:\n|$)")
_TERMINAL = re.compile(r"[.!?]+[\"')\]]*(?=[\s,]|$)|(?<=\s)\.(?=[A-Za-z])|(?<=[a-z]{2})\.(?=[A-Z]?[a-z]{2})")
# a header never starts inside a run of its own characters (_header_starts refuses those): the lookbehind
# says so first, so that a long upper-case run is scanned once, not once per letter (quadratic)
_HEADER = re.compile(r"(?<![A-Z0-9&/'()\-])[A-Z][A-Z0-9&/'()\-]*(?: [A-Z0-9&/'()\-]+){0,7} ?,?:(?![0-9/])")
_LABEL = re.compile(r"[A-Za-z][A-Za-z/&]*(?: [A-Za-z/&]+){0,2} ?[:;](?=[ \t]|$)")
_TITLE_LINE = re.compile(r"[A-Z][A-Za-z/&'()\-]*(?: [A-Za-z/&'()\-]+){0,4} ?:$")
_MARKER = re.compile(r"(?:[-*•·>]+|\(?\d{1,2}[.)]|\(?[a-z][)]|#)(?=\s)")
_WORD_BEFORE = re.compile(r"(\S+?)\s*$")
_TOKEN_SPLIT = re.compile(r"[,;:(\"']")
_ALNUM = re.compile(r"\w")
_GAP = " \t\r\n,"
_SKIP_GAP = re.compile(r"[ \t\r\n,]*")


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence: ``text[start:end]``; the characters between sentences are layout."""

    start: int
    end: int


def split_sentences(text: str) -> list[Sentence]:
    """The sentences of ``text`` in order (non-overlapping, each with at least one letter or digit)."""
    lower_style = _is_lower_case_style(text)
    cuts: set[int] = {0, len(text)}
    for start, end in _blocks(text):
        cuts.update((start, end))
        cuts.update(_cuts_in_block(text, start, end, lower_style))
    ordered = sorted(cuts)
    sentences: list[Sentence] = []
    for start, end in itertools.pairwise(ordered):
        piece = _trim(text, start, end)
        if piece is not None:
            sentences.append(piece)
    return sentences


def layout(text: str, sentences: list[Sentence]) -> list[str]:
    """The stretches of text around the sentences: ``len(sentences) + 1`` strings (the first may be empty)."""
    gaps, position = [], 0
    for sentence in sentences:
        gaps.append(text[position : sentence.start])
        position = sentence.end
    gaps.append(text[position:])
    return gaps


def _is_lower_case_style(text: str) -> bool:
    """Whether most full stops are followed by a lower-case word (nursing notes typed in lower case)."""
    after = re.findall(r"[.!?] +([A-Za-z])", text)
    if len(after) < 2:
        return sum(c.isupper() for c in text) < 0.02 * max(1, sum(c.isalpha() for c in text))
    return sum(c.islower() for c in after) > len(after) / 2  # type: ignore[no-any-return]


def _blocks(text: str) -> list[tuple[int, int]]:
    """Runs of lines joined by soft (wrapping) line breaks, as (start, end) offsets."""
    lines = [(m.start(), m.end()) for m in _LINE.finditer(text) if m.end() > m.start()]
    blocks: list[tuple[int, int]] = []
    for i, (start, end) in enumerate(lines):
        if blocks and _wraps(text[lines[i - 1][0] : lines[i - 1][1]], text[start:end]):
            blocks[-1] = (blocks[-1][0], end)
        else:
            blocks.append((start, end))
    return blocks


def _wraps(previous: str, line: str) -> bool:
    """Whether ``line`` continues ``previous`` (a wrapped line rather than a new sentence or item)."""
    before, after = previous.rstrip(), line.strip()
    if not before or not after or before[-1] in ".!?:;" or _MARKER.match(after) or _HEADER.match(after):
        return False
    if len(before) < WRAP_MIN:
        return False
    return after[0].islower() or (not before.isupper() and (after[0].isalnum() or after[0] in "(\"'"))


def _cuts_in_block(text: str, start: int, end: int, lower_style: bool) -> set[int]:
    """Cut positions inside one block: after sentence ends, around headers."""
    cuts: set[int] = set()
    block = text[start:end]
    if _TITLE_LINE.match(block.strip()) and len(block.strip()) <= 40:
        return cuts
    for match in _TERMINAL.finditer(block):
        if _ends_sentence(block, match.start(), match.end(), lower_style):
            cuts.add(start + match.end())
    for match in _HEADER.finditer(block):
        if _header_starts(block, match.start(), cuts, start) and _is_header(match.group()):
            cuts.update((start + match.start(), start + match.end()))
    cuts.update(_leading_labels(text, start, end))
    return cuts


def _leading_labels(text: str, start: int, end: int) -> set[int]:
    """Cuts around the labels that open a block, in any case ("neuro:", "Resp:", "GI;", "o: cv status:")."""
    cuts: set[int] = set()
    position = start
    for _ in range(3):
        while position < end and text[position] in " \t":
            position += 1
        label = _LABEL.match(text, position, end)
        if label is None:
            break
        cuts.update((label.start(), label.end()))
        position = label.end()
    return cuts


def _is_header(candidate: str) -> bool:
    """An upper-case run with at least two letters or a single-letter SOAP heading ("S:", "O:")."""
    letters = sum(c.isalpha() for c in candidate)
    return letters >= 2 or candidate.rstrip(" :") in {"S", "O", "A", "P"}


def _header_starts(block: str, at: int, cuts: set[int], offset: int) -> bool:
    """Whether an upper-case run at ``at`` sits where a header may start."""
    window = max(0, at - _LOOKBEHIND)
    before = block[window:at]
    offset += window
    stripped = before.rstrip(" \t")
    if not stripped.strip() or stripped.endswith(("\n", ";", ".")) or offset + len(stripped) in cuts:
        return True
    if before.endswith(",") or stripped.endswith(". ,") or stripped.endswith(".,"):
        return True
    trimmed = before.rstrip(_GAP)
    return offset + len(trimmed) in cuts


def _ends_sentence(block: str, start: int, end: int, lower_style: bool) -> bool:
    """Whether the punctuation at ``block[start:end]`` ends a sentence (see the module docstring)."""
    gap = _SKIP_GAP.match(block, end)
    after = end if gap is None else gap.end()
    if after == len(block):
        return True
    word_match = _WORD_BEFORE.search(block, max(0, start - _LOOKBEHIND), start)
    word = _TOKEN_SPLIT.split(word_match.group(1))[-1] if word_match else ""
    nxt = block[after]
    if block[start] != ".":
        return nxt.isupper() or nxt.isdigit() or lower_style
    key = word.lower()
    if key in TITLES:
        return False
    if key in ABBREVIATIONS or (len(key) == 1 and key.isalpha() and _after_title_or_initial(block, start)):
        return "\n" in block[end:after]
    if "." in key and re.fullmatch(r"(?:[a-z]\.)+[a-z]", key):
        return nxt.isupper()
    if key.isdigit() and len(key) <= 2 and _is_first_word(block, start - len(word)):
        return False
    return nxt.isupper() or nxt.isdigit() or nxt in "([\"'#*-" or (lower_style and nxt.islower())


def _after_title_or_initial(block: str, start: int) -> bool:
    """Whether the initial before ``start`` follows a title or another initial ("Dr. X.", "J. R.")."""
    words = block[max(0, start - 1 - _LOOKBEHIND) : start - 1].split()
    if not words:
        return True
    last = words[-1].lower().rstrip(".")
    return last in TITLES or (len(last) == 1 and words[-1].endswith("."))


def _is_first_word(block: str, at: int) -> bool:
    """Whether position ``at`` starts a line, a block or a sentence (a list number)."""
    before = block[max(0, at - _LOOKBEHIND) : at].rstrip(" \t,")
    return not before or before[-1] in ".!?:;\n"


def _trim(text: str, start: int, end: int) -> Sentence | None:
    """The sentence inside ``text[start:end]`` without surrounding gaps and list markers, if any."""
    while start < end and text[start] in _GAP:
        start += 1
    marker = _MARKER.match(text, start, end)
    if marker is not None:
        start = marker.end()
        while start < end and text[start] in _GAP:
            start += 1
    while end > start and text[end - 1] in _GAP:
        end -= 1
    if start >= end or not _ALNUM.search(text, start, end):
        return None
    return Sentence(start, end)
