"""The substitution stage: splicing, operator dispatch, and the privacy invariants (property tests)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from anonymed.document import Document, Replacement, Span
from anonymed.errors import ConfigError, SpanError
from anonymed.labels import SUBTYPES, Label
from anonymed.randomness import RandomSource
from anonymed.substitute.base import Context, Operator
from anonymed.substitute.privacy import Expense, PrivacyLedger
from anonymed.substitute.registry import build_operator
from anonymed.substitute.stage import Substituter, splice

OPERATORS = {name: build_operator(name) for name in ("fake", "redact", "tag", "keep")}
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def documents(draw: st.DrawFn) -> Document:
    """Arbitrary unicode text with arbitrary disjoint spans of arbitrary labels and subtypes."""
    text = draw(st.text(min_size=1, max_size=60))
    cuts = sorted(draw(st.sets(st.integers(0, len(text)), max_size=10)))
    spans = []
    for start, end in zip(cuts[::2], cuts[1::2], strict=False):
        label = draw(st.sampled_from(list(Label)))
        subtype = draw(st.sampled_from([None, *sorted(SUBTYPES[label])]))
        spans.append(Span.of(text, start, end, label, subtype=subtype))
    lang = draw(st.sampled_from(["en", "fr"]))
    return Document("h1", text, {"lang": lang}, spans=tuple(spans))


def _substitute(doc: Document, name: str, seed: int | None) -> Document:
    return Substituter(dict.fromkeys(Label, OPERATORS[name]))(doc, RandomSource(seed))


def _output_starts(replacements: Sequence[Replacement]) -> list[int]:
    """Where each surrogate starts in the spliced output."""
    starts, shift = [], 0
    for rep in replacements:
        starts.append(rep.start + shift)
        shift += len(rep.surrogate) - (rep.end - rep.start)
    return starts


def _may_coincide(name: str, original: str) -> bool:
    """Originals that a deterministic operator writes back by construction (nothing is revealed)."""
    if name == "redact":
        return set(original) <= {"*", "\r", "\n"}
    if name == "tag":
        return any(
            tag.startswith(original) or original.startswith(tag) for tag in [f"[{m.value}]" for m in Label]
        )
    return False


@PROPERTY
@given(documents(), st.sampled_from(["fake", "redact", "tag"]), st.one_of(st.none(), st.integers(0, 2**32)))
def test_every_replacing_operator_changes_every_span(doc: Document, name: str, seed: int | None) -> None:
    for rep in _substitute(doc, name, seed).replacements:
        assume(not _may_coincide(name, rep.original))
        assert rep.surrogate.casefold() != rep.original.casefold()


@PROPERTY
@given(documents(), st.sampled_from(["fake", "redact", "tag"]), st.one_of(st.none(), st.integers(0, 2**32)))
def test_spliced_output_never_shows_the_original_at_its_position(
    doc: Document, name: str, seed: int | None
) -> None:
    result = _substitute(doc, name, seed)
    assert result.output is not None
    for rep, start in zip(result.replacements, _output_starts(result.replacements), strict=True):
        if not _may_coincide(name, rep.original):
            assert result.output[start : start + len(rep.original)] != rep.original


@PROPERTY
@given(documents(), st.sampled_from(sorted(OPERATORS)), st.integers(0, 2**32))
def test_replacements_keep_offsets_consistent(doc: Document, name: str, seed: int) -> None:
    result = _substitute(doc, name, seed)
    output, reps = result.result, result.replacements
    assert [(r.start, r.end, r.original) for r in reps] == [(s.start, s.end, s.text) for s in doc.spans]
    starts = _output_starts(reps)
    cursor_in, cursor_out = 0, 0
    for rep, start in zip(reps, starts, strict=True):
        assert output[cursor_out:start] == doc.text[cursor_in : rep.start]  # untouched text between spans
        assert output[start : start + len(rep.surrogate)] == rep.surrogate
        cursor_in, cursor_out = rep.end, start + len(rep.surrogate)
    assert output[cursor_out:] == doc.text[cursor_in:]
    if name == "keep":
        assert output == doc.text


@given(st.floats(0.01, 10), st.lists(st.floats(0.0, 5), max_size=12))
def test_the_privacy_ledger_refuses_overspending(total: float, charges: list[float]) -> None:
    ledger = PrivacyLedger(total)
    accepted = 0.0
    for i, epsilon in enumerate(charges):
        expense = Expense("DATE", i, i + 1, epsilon, "laplace")
        if accepted + epsilon > total * (1 + 1e-9):
            with pytest.raises(ConfigError, match=f"offsets {i}-{i + 1}"):
                ledger.charge(expense)
        else:
            ledger.charge(expense)
            accepted += epsilon
        assert math.isclose(ledger.spent, accepted, rel_tol=1e-9, abs_tol=1e-12)
        assert ledger.spent <= total * (1 + 1e-9)


@pytest.mark.parametrize("total", [0.0, -1.0])
def test_a_non_positive_budget_is_refused(total: float) -> None:
    with pytest.raises(ConfigError, match="positive"):
        PrivacyLedger(total)


TEXT = "Patient John Smith, seen 02/12/2020 in Boston."


def _doc(*spans: Span) -> Document:
    return Document("d1", TEXT, {"lang": "en"}, spans=spans)


def test_splice_writes_surrogates_of_other_lengths_in_place() -> None:
    reps = [
        Replacement(39, 45, Label.LOCATION, "Boston", "X", "tag"),
        Replacement(8, 18, Label.NAME, "John Smith", "[NAME]", "tag"),
    ]
    assert splice(TEXT, reps) == "Patient [NAME], seen 02/12/2020 in X."


def test_each_label_gets_its_own_operator() -> None:
    doc = _doc(Span.of(TEXT, 8, 18, "NAME"), Span.of(TEXT, 39, 45, "LOCATION"))
    operators = {**dict.fromkeys(Label, OPERATORS["tag"]), Label.LOCATION: OPERATORS["redact"]}
    result = Substituter(operators)(doc, RandomSource(1))
    assert result.result == "Patient [NAME], seen 02/12/2020 in ******."
    assert [r.operator for r in result.replacements] == ["tag", "redact"]


def test_a_document_without_spans_comes_back_unchanged() -> None:
    result = Substituter(dict.fromkeys(Label, OPERATORS["fake"]))(_doc(), RandomSource(1))
    assert result.output == TEXT and result.replacements == ()


def test_overlapping_spans_are_refused_without_quoting_the_text() -> None:
    doc = _doc(Span.of(TEXT, 8, 18, "NAME"), Span.of(TEXT, 13, 18, "NAME"))
    with pytest.raises(SpanError, match="8-18 and 13-18 overlap") as caught:
        Substituter(dict.fromkeys(Label, OPERATORS["tag"]))(doc, RandomSource(1))
    assert "Smith" not in str(caught.value)


def test_a_label_without_operator_is_a_configuration_error() -> None:
    doc = _doc(Span.of(TEXT, 39, 45, "LOCATION"))
    with pytest.raises(ConfigError, match="LOCATION"):
        Substituter({Label.NAME: OPERATORS["tag"]})(doc, RandomSource(1))


class _Recorder(Operator):
    """Records the spans ``prepare`` receives."""

    name = "recorder"

    def __init__(self) -> None:
        super().__init__()
        self.prepared: list[list[tuple[int, int]]] = []

    def prepare(self, spans: Sequence[Span], context: Context) -> None:
        self.prepared.append([(s.start, s.end) for s in spans])

    def operate(self, span: Span, context: Context) -> str:
        return "x"


def test_prepare_runs_once_per_operator_instance_with_its_own_spans() -> None:
    names, places = _Recorder(), _Recorder()  # two instances sharing one name
    operators = {**dict.fromkeys(Label, OPERATORS["keep"]), Label.NAME: names, Label.LOCATION: places}
    doc = _doc(Span.of(TEXT, 8, 12, "NAME"), Span.of(TEXT, 13, 18, "NAME"), Span.of(TEXT, 39, 45, "LOCATION"))
    Substituter(operators)(doc, RandomSource(1))
    assert names.prepared == [[(8, 12), (13, 18)]]
    assert places.prepared == [[(39, 45)]]
