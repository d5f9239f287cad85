"""Operators on hostile text: nothing a detector found stays at its place (fake, tag, redact).

The differentially private operators (dp_date, dp_age, dp_location) are run for crashes only: an
epsilon-d-private mechanism must give the true value a positive probability (a surrogate guaranteed to
differ would tell which value was true), so they may legitimately write the original back.
"""

from __future__ import annotations

from functools import cache

import pytest
from hardening_inputs import texts, unicode_texts
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.labels import Label
from anonymed.pipeline import Pipeline

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
REPLACING = ("fake", "tag", "redact")
DP = {Label.DATE: "dp_date", Label.AGE: "dp_age", Label.LOCATION: "dp_location"}


@cache
def pipeline(
    lang: str,
    operators: tuple[tuple[Label, str], ...],
    epsilon: float | None = None,
    keys: str = "secure",
) -> Pipeline:
    """A pipeline per language, operators and way of keying value streams (secure, seeded, patient key)."""
    config = PipelineConfig(
        lang=lang,
        operators=dict(operators),
        epsilon=epsilon,
        high_recall=True,
        seed=3 if keys == "seeded" else None,
        patient_key=b"hardening-patient-key-0123456789" if keys == "patient" else None,
    )
    return Pipeline(config)


#: text with lone surrogates, which only the Python API lets through (readers and the service refuse them)
surrogate_texts = st.lists(
    st.one_of(texts, st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)), max_size=6
).map("".join)


_operators = st.one_of(
    st.sampled_from(REPLACING).map(lambda name: tuple((label, name) for label in Label)),
    st.lists(st.sampled_from(REPLACING), min_size=len(Label), max_size=len(Label)).map(
        lambda names: tuple(zip(Label, names, strict=True))
    ),
)


@SETTINGS
@given(
    text=st.one_of(texts, unicode_texts, surrogate_texts),
    lang=st.sampled_from(["en", "fr"]),
    operators=_operators,
    keys=st.sampled_from(["secure", "seeded", "patient"]),
)
# found by fuzz/fuzz_pipeline.py: a URL span holding lone surrogates crashed the seeded value streams
@example(
    text="Visit http://a\udc8e\udc89b.org today",
    lang="en",
    operators=((Label.CONTACT, "fake"),),
    keys="seeded",
)
@example(
    text="Visit http://a\udc8e\udc89b.org today",
    lang="en",
    operators=((Label.CONTACT, "fake"),),
    keys="patient",
)
def test_no_detected_span_keeps_its_original_text_at_its_position(
    text: str, lang: str, operators: tuple[tuple[Label, str], ...], keys: str
) -> None:
    engine = pipeline(lang, operators, keys=keys)
    done = engine.run(Document("d", text, {"lang": lang, "patient_id": "p1"}))
    assert len(done.replacements) == len(done.spans)
    shift = 0
    for rep in sorted(done.replacements, key=lambda r: r.start):
        at = rep.start + shift
        assert done.result[at : at + len(rep.original)].casefold() != rep.original.casefold(), rep.operator
        assert done.result[at : at + len(rep.surrogate)] == rep.surrogate
        shift += len(rep.surrogate) - (rep.end - rep.start)
    assert len(done.result) == len(text) + shift


@pytest.mark.parametrize("epsilon", [None, 1e-9, 0.5, 1e9])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts, lang=st.sampled_from(["en", "fr"]))
@example(text="0\u00b2", lang="en")  # a "date" with a superscript digit: int("²") crashed its fallback
def test_dp_operators_never_crash_and_keep_the_layout_outside_spans(
    epsilon: float | None, text: str, lang: str
) -> None:
    engine = pipeline(lang, tuple(DP.items()), epsilon)
    done = engine.run(Document("d", text, {"lang": lang}))
    cursor, pieces = 0, []
    for rep in done.replacements:
        pieces.append(text[cursor : rep.start])
        cursor = rep.end
    pieces.append(text[cursor:])
    position = 0
    for piece in pieces:  # the text between spans is copied unchanged and in order
        found = done.result.find(piece, position)
        assert found >= 0
        position = found + len(piece)
