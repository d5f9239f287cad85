"""Allow and deny lists: the contract's files, whole-word matching, and the precedence rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from anonymed.config import PipelineConfig
from anonymed.detect.lists import ListEntry, TermLists, apply_lists, read_list, read_lists
from anonymed.detect.tokens import tokenize
from anonymed.document import Document, Span
from anonymed.errors import ConfigError
from anonymed.labels import Label
from anonymed.pipeline import Pipeline

TEXT = (
    "Mr. Parkinson has Parkinson's disease; a Swan-Ganz catheter was placed by Dr. Swan. Lee went to Leeds."
)


def span(text: str, piece: str, label: Label = Label.NAME, *, nth: int = 0, source: str = "tagger") -> Span:
    start = -1
    for _ in range(nth + 1):
        start = text.index(piece, start + 1)
    return Span.of(text, start, start + len(piece), label, source=source)


def kept(spans: list[Span], lists: TermLists, text: str = TEXT) -> list[tuple[str, int, str]]:
    out = apply_lists(text, tokenize(text), spans, lists)
    return sorted((s.text, s.start, s.full_label) for s in out)


def allow(*entries: ListEntry) -> TermLists:
    return TermLists(allow=entries)


def test_an_allowed_term_drops_a_span_that_equals_it_or_lies_within_it() -> None:
    mr, disease = span(TEXT, "Parkinson"), span(TEXT, "Parkinson", nth=1)
    swan_in_device, dr_swan = span(TEXT, "Swan"), span(TEXT, "Swan", nth=1)
    spans = [mr, disease, swan_in_device, dr_swan]
    # "Parkinson's disease" covers the second Parkinson only; "Swan-Ganz" the first Swan only
    lists = allow(ListEntry("Parkinson's disease"), ListEntry("Swan Ganz"))
    assert kept(spans, lists) == [("Parkinson", mr.start, "NAME"), ("Swan", dr_swan.start, "NAME")]
    # a bare allowed surname drops every span equal to it, possessive included
    assert kept([mr, disease], allow(ListEntry("parkinson"))) == []


def test_a_span_merely_containing_an_allowed_term_stays_whole() -> None:
    longer = span(TEXT, "Dr. Swan")
    assert kept([longer], allow(ListEntry("Swan"))) == [("Dr. Swan", longer.start, "NAME")]


def test_exact_allows_only_a_span_that_is_the_term_written_as_the_term() -> None:
    device = span(TEXT, "Swan-Ganz", Label.ORGANIZATION)
    part = span(TEXT, "Swan")
    exact = allow(ListEntry("Swan-Ganz", match="exact"))
    assert kept([device, part], exact) == [("Swan", part.start, "NAME")]
    # the separator as written: "Swan Ganz" (a space) is not the hyphenated form
    assert len(kept([device], allow(ListEntry("Swan Ganz", match="exact")))) == 1
    assert kept([device], allow(ListEntry("Swan Ganz"))) == []  # word: any space or hyphen


def test_an_allow_entry_with_a_label_leaves_other_labels_alone() -> None:
    as_name, as_place = span(TEXT, "Leeds"), span(TEXT, "Leeds", Label.LOCATION)
    entry = ListEntry.of("Leeds", "LOCATION/city")
    assert entry.label is Label.LOCATION and entry.subtype == "city"
    places = allow(ListEntry.of("Leeds", "LOCATION"))
    assert kept([as_name, as_place], places) == [("Leeds", as_name.start, "NAME")]


def test_case_sensitive_entries_match_only_as_written() -> None:
    text = "Bell palsy; BELL called."
    spans = [span(text, "Bell"), span(text, "BELL")]
    assert kept(spans, allow(ListEntry("Bell", case="sensitive")), text) == [("BELL", 12, "NAME")]
    assert kept(spans, allow(ListEntry("bell")), text) == []  # insensitive: case (and accents) ignored


def test_a_denied_term_is_flagged_as_a_whole_word_only() -> None:
    lists = TermLists(deny=(ListEntry.of("Lee", "NAME"), ListEntry.of("Ganz", "ORGANIZATION")))
    found = kept([], lists)
    assert ("Lee", TEXT.index("Lee "), "NAME") in found
    assert all(start != TEXT.index("Leeds") for _, start, _ in found)  # not inside "Leeds"
    assert ("Ganz", TEXT.index("Ganz"), "ORGANIZATION") in found  # a hyphen separates words


def test_deny_wins_over_allow_and_known_identifiers_are_never_allowed_away() -> None:
    lists = TermLists(allow=(ListEntry("Swan"),), deny=(ListEntry.of("Swan", "NAME/clinician"),))
    detected = span(TEXT, "Swan", nth=1)
    known = span(TEXT, "Parkinson", source="known")
    found = kept([detected, known], TermLists(allow=(ListEntry("Parkinson"), *lists.allow), deny=lists.deny))
    assert ("Parkinson", known.start, "NAME") in found
    assert ("Swan", detected.start, "NAME/clinician") in found  # the denied occurrence, not the tagger's span
    assert ("Swan", detected.start, "NAME") not in found


def test_deny_exact_needs_the_separators_as_written() -> None:
    text = "Seen at Saint Louis, then at Saint-Louis."
    exact = TermLists(deny=(ListEntry.of("Saint Louis", "LOCATION/hospital", "exact"),))
    word = TermLists(deny=(ListEntry.of("Saint Louis", "LOCATION/hospital"),))
    assert [s for s, _, _ in kept([], exact, text)] == ["Saint Louis"]
    assert [s for s, _, _ in kept([], word, text)] == ["Saint Louis", "Saint-Louis"]


def test_the_pipeline_applies_the_lists_to_every_detector_s_spans() -> None:
    lists = TermLists(
        allow=(ListEntry("Parkinson's disease"), ListEntry("Swan-Ganz")),
        deny=(ListEntry.of("catheter", "OTHER"),),
    )
    doc = Pipeline(PipelineConfig(detectors=("lexicons",), lists=lists)).detect(Document("d", TEXT))
    found = {(s.text, s.start) for s in doc.spans}
    assert ("Parkinson", TEXT.index("Parkinson")) in found  # "Mr. Parkinson" stays
    assert ("Parkinson", TEXT.index("Parkinson's")) not in found
    assert ("catheter", TEXT.index("catheter")) in found


def test_contract_files_csv_and_txt(tmp_path: Path) -> None:
    csv_file = tmp_path / "allow.csv"
    csv_file.write_text(
        "term,label,match,case\nParkinson's disease,,,\nSwan-Ganz,ORGANIZATION,exact,sensitive\n\n"
        "MS,,word,sensitive\n",
        encoding="utf-8",
    )
    txt_file = tmp_path / "allow.txt"
    txt_file.write_text("# eponyms\nBabinski\n\n  Homans  \n", encoding="utf-8")
    entries = read_list(csv_file)
    assert [e.to_json() for e in entries] == [
        {"term": "Parkinson's disease", "label": "", "match": "word", "case": "insensitive"},
        {"term": "Swan-Ganz", "label": "ORGANIZATION", "match": "exact", "case": "sensitive"},
        {"term": "MS", "label": "", "match": "word", "case": "sensitive"},
    ]
    assert [e.term for e in read_list(txt_file)] == ["Babinski", "Homans"]
    deny = tmp_path / "deny.csv"
    deny.write_text("term,label\nQuackenbush,NAME/patient\n", encoding="utf-8")
    lists = read_lists([csv_file, txt_file], [deny])
    assert len(lists.allow) == 5 and lists.deny[0].label is Label.NAME and lists.deny[0].subtype == "patient"


SECRET = "Quackenbush"


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("bad.csv", "word,label\nx,\n", "the header must be term,label,match,case"),
        ("bad.csv", f"term,label\n{SECRET},PLACE\n", "line 2: unknown list label 'PLACE'"),
        ("bad.csv", f"term,label,match\n{SECRET},NAME,fuzzy\n", "line 2: list match must be one of"),
        ("bad.csv", f"term,label\n{SECRET},NAME/doctor\n", "line 2: unknown subtype 'doctor'"),
        ("bad.csv", f"term\n{SECRET},extra\n", "line 2: more cells than the header"),
        ("bad.txt", f"{SECRET}\n{'x' * 300}\n", "line 2: a list term has 300 characters"),
        ("bad.txt", "---\n", "line 1: a list term must hold 1 to 20 words"),
    ],
)
def test_bad_files_are_errors_naming_file_and_line_never_a_term(
    tmp_path: Path, name: str, content: str, reason: str
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError, match=reason) as caught:
        read_list(path)
    assert SECRET not in str(caught.value) and name in str(caught.value)


def test_a_deny_list_needs_labels_and_a_missing_file_is_named(tmp_path: Path) -> None:
    txt_file = tmp_path / "deny.txt"
    txt_file.write_text(f"{SECRET}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="entry 1: deny entries need a label") as caught:
        read_lists(deny=[txt_file])
    assert SECRET not in str(caught.value)
    with pytest.raises(ConfigError, match="deny entry 1 has no label"):
        TermLists(deny=(ListEntry(SECRET),))
    with pytest.raises(ConfigError, match="cannot read list"):
        read_list(tmp_path / "absent.csv")


def test_the_lists_repr_shows_counts_not_terms() -> None:
    lists = TermLists(allow=(ListEntry("Babinski"),), deny=(ListEntry.of(SECRET, "NAME"),))
    assert SECRET not in repr(lists) and "1 allowed" in repr(lists)
