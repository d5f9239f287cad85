"""XHTML narratives and HTML notes: one text, an offset map, attributes included, markup kept."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anonymed.document import Replacement
from anonymed.fhir.markup import joined_text, scrub_markup, split
from anonymed.labels import Label


def replace_words(*words: str):  # type: ignore[no-untyped-def]
    """A scrub function that replaces each listed word with X's of its length, as the pipeline would."""

    def scrub(text: str) -> tuple[str, tuple[Replacement, ...]]:
        reps = []
        for word in words:
            for m in re.finditer(re.escape(word), text):
                reps.append(Replacement(m.start(), m.end(), Label.NAME, m.group(0), "[NAME]", "tag"))
        reps.sort(key=lambda r: r.start)
        return text, tuple(reps)

    return scrub


def test_a_name_split_by_inline_tags_is_read_whole_and_replaced_once() -> None:
    div = '<div xmlns="http://www.w3.org/1999/xhtml"><p>Seen: J<b>ohn</b> Smith today</p></div>'
    segments, _ = split(div)
    assert "John Smith today" in joined_text(segments)
    out = scrub_markup(div, replace_words("John Smith")).markup
    assert out == '<div xmlns="http://www.w3.org/1999/xhtml"><p>Seen: [NAME]<b></b> today</p></div>'


def test_blocks_separate_and_attributes_are_scrubbed_too() -> None:
    div = '<div><p>Smith</p><p>Jones</p><a href="mailto:smith@x.org" title="Dr Jones">link</a></div>'
    text = joined_text(split(div)[0])
    assert "SmithJones" not in text and "Smith\nJones" in text
    out = scrub_markup(div, replace_words("Jones", "smith@x.org")).markup
    assert 'href="mailto:[NAME]"' in out and 'title="Dr [NAME]"' in out and "Jones" not in out


def test_entities_are_decoded_for_detection_and_surrogates_escaped() -> None:
    div = "<p>O&#39;Keefe &amp; Co</p>"
    assert "O'Keefe & Co" in joined_text(split(div)[0])

    def scrub(text: str) -> tuple[str, tuple[Replacement, ...]]:
        start = text.index("O'Keefe")
        return text, (Replacement(start, start + 7, Label.NAME, "O'Keefe", "<Smith & Co>", "fake"),)

    assert scrub_markup(div, scrub).markup == "<p>&lt;Smith &amp; Co&gt; &amp; Co</p>"


def test_comments_scripts_and_data_uris_are_removed() -> None:
    html = (
        '<p>ok<!-- John Smith --></p><script>var n="Smith";</script>'
        '<img src="data:image/png;base64,AAAA" alt="x">'
    )
    result = scrub_markup(html, replace_words())
    assert "Smith" not in result.markup and "AAAA" not in result.markup
    assert result.removed == 3
    assert result.markup == '<p>ok</p><script></script><img src="" alt="x">'


def test_structural_attributes_are_not_read() -> None:
    div = '<div xmlns="http://www.w3.org/1999/xhtml" class="Smith" style="color:red">x</div>'
    assert "Smith" not in joined_text(split(div)[0])


@given(
    st.lists(
        st.sampled_from(["<p>", "</p>", "<b>", "</b>", "a", "Smith", " ", "&amp;", "<br/>", "é"]), max_size=30
    )
)
def test_without_replacements_markup_is_kept_byte_for_byte(pieces: list[str]) -> None:
    markup = "".join(pieces)
    assert scrub_markup(markup, replace_words()).markup == markup


@given(
    st.lists(
        st.sampled_from(["<p>", "</p>", "<i>", "</i>", "Smith", " ", "x", '<a title="Smith">', "</a>"]),
        max_size=30,
    )
)
def test_every_replaced_word_is_gone_and_tags_survive(pieces: list[str]) -> None:
    markup = "".join(pieces)
    out = scrub_markup(markup, replace_words("Smith")).markup
    assert "Smith" not in out
    assert re.findall(r"</?\w+", out) == re.findall(r"</?\w+", markup)


@pytest.mark.parametrize("piece", ["<a ", '<a "', "<a title='x ", "&amp", "<!--", "<![CDATA[", '<a b="'])
def test_unclosed_markup_is_read_in_linear_time(piece: str) -> None:
    # an unclosed tag once made every later "<" rescan the rest of the note: 60 kB took 22 s
    markup = piece * (120_000 // len(piece))
    started = time.perf_counter()
    segments, _ = split(markup)
    assert time.perf_counter() - started < 2.0
    assert joined_text(segments) or piece in ("<!--", "<![CDATA[")
