"""Hostile inputs shared by the hardening tests: odd Unicode, PHI-like pieces, broken bytes, layouts."""

from __future__ import annotations

import json
from typing import Final

from hypothesis import strategies as st

#: PHI-like fragments in English and French, so that detectors fire inside the noise around them
PHI: Final = (
    "John Smith",
    "Dr. Helen Park",
    "Mr. Zebulon Quackenbush",
    "Mme Claire Martin",
    "née le 14/03/1951",
    "02/12/2020",
    "March 3rd, 2019",
    "3 months ago",
    "(617) 555-0142",
    "06 12 34 56 78",
    "MRN: 4482913",
    "SSN 123-45-6789",
    "58 years old",
    "92 ans",
    "Boston",
    "Calvert Hospital",
    "12 rue de la Paix, 75012 Paris",
    "jean.dupont@chu-lyon.fr",
    "http://example.org/p?id=7",
    "192.168.0.1",
    "O'Brien",
    "Jean-Pierre",
    "SMITH, JOHN",
    "St. Louis",
)

#: characters that break naive text handling: combining marks, bidi controls, emoji sequences, NUL,
#: line and paragraph separators, BOM, ligatures, case-changing letters, other scripts' digits
ODD: Final = (
    "\u0301",
    "e\u0301",
    "\u200f",
    "\u202e",
    "\u2066",
    "\u05d0\u05d1",
    "\u0627\u0644",
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",
    "\U0001f600",
    "\x00",
    "\r\n",
    "\r",
    "\u2028",
    "\u2029",
    "\ufeff",
    "\ufb01",
    "\u0130",
    "\u00df",
    "\u1e9e",
    "\u2167",
    "\u0663\u0660",
    "0\u00b2",
    "\u00b9",
    "\u00bd",
    "\u00a0",
    "\t",
)

#: runs of punctuation that stress tokenizers and regular expressions
PUNCTUATION: Final = (
    "...",
    "((((",
    "))))",
    "////",
    "----",
    "''''",
    '""',
    "1/1/1/1/1",
    "9" * 30,
    "..,,;;::",
    "@@",
    "#####",
    "- - -",
    " , ",
    "|||",
    "\\",
)

_pieces = st.one_of(
    st.sampled_from(PHI),
    st.sampled_from(ODD),
    st.sampled_from(PUNCTUATION),
    st.text(max_size=12),
    st.sampled_from([" ", "\n", ", ", ". ", "-", "/", ":"]),
)

#: texts mixing PHI-like pieces, odd characters and punctuation (valid Unicode, no lone surrogates)
texts = st.lists(_pieces, max_size=40).map("".join)

#: any valid Unicode text, surrogates excluded (they are not text; readers refuse them)
unicode_texts = st.text(st.characters(exclude_categories=("Cs",)), max_size=200)

#: note texts for round trips: the mix above, any Unicode, or empty
notes = st.one_of(texts, unicode_texts, st.just(""))

#: bytes that are not valid UTF-8 or not Unicode: a CESU-8 lone surrogate, stray continuation bytes,
#: overlong forms, a truncated sequence, a BOM in the middle, NUL
BAD_BYTES: Final = (
    b"\xed\xa0\x80",
    b"\x80",
    b"\xc0\xaf",
    b"\xe2\x82",
    b"\xef\xbb\xbf",
    b"\x00",
    b"\xff\xfe",
)

#: record ids: short, filesystem-safe, distinct per record (the folder and PhysioNet formats name by id)
record_ids = st.text("abcdefghijklmnopqrstuvwxyz0123456789_", min_size=1, max_size=8)


def jsonl_line(rid: str, text: str) -> bytes:
    """One JSON Lines record."""
    return (json.dumps({"id": rid, "text": text, "patient_id": "p1"}, ensure_ascii=False) + "\n").encode()


#: pieces of input files: good records, broken ones and bytes that are not text, for every reader
file_pieces = st.one_of(
    st.binary(max_size=24),
    st.sampled_from(BAD_BYTES),
    st.sampled_from(
        [
            b'{"id": 1, "text": "John Smith 02/12/2020"}\n',
            b'{"id": "a", "text": "x\\ud800y"}\n',
            b'{"text": ' + b"[" * 3000 + b"\n",
            b"\n",
            b"\r",
            b'"',
            b",",
            b"id,text\n",
            b"START_OF_RECORD=1||||2||||\n",
            b"||||END_OF_RECORD\n",
            b"PAR1",
            b'[{"full_text": "x", "spans": []}]',
        ]
    ),
    texts.map(str.encode),
)
#: whole input files made of those pieces
files = st.lists(file_pieces, max_size=24).map(b"".join)
