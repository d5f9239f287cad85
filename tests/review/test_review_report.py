"""The review report and the exports from decisions: counts, estimates, agreement, lists, annotations."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from review_support import PLANTED, make_folder, note_by_id

from anonymed.evaluate.tokens import tokenize
from anonymed.review.decisions import DecisionLog, Event
from anonymed.review.export import export
from anonymed.review.folder import ReviewFolder
from anonymed.review.report import build_report
from anonymed.review.report_html import review_html

MISSED = {"n1": PLANTED, "n2": "Mary Quince", "n4": "Lucas Pretorius"}


def review_everything(folder: ReviewFolder, reviewer: str = "alice") -> None:
    """Mark the three missed names, reject the age of n2, finish every note."""
    log = DecisionLog(folder.decisions_path)
    for note in folder.notes:
        if note.id in MISSED:
            start = note.text.index(MISSED[note.id])
            log.append(Event(reviewer, note.key, "mark", start, start + len(MISSED[note.id]), "NAME"), note)
        for span in note.spans:
            if span.label.value == "AGE":
                log.append(Event(reviewer, note.key, "reject", span.start, span.end), note)
        log.append(Event(reviewer, note.key, "done"), note)


def test_a_census_review_counts_every_miss_and_knows_the_values(folder: ReviewFolder) -> None:
    review_everything(folder)
    report = build_report(folder)
    tokens = sum(len(tokenize(note.text)) for note in folder.notes)
    overall = report["residual"]["overall"]
    assert overall["missed"] == 3
    assert overall["per_1000_tokens"]["estimate"] == pytest.approx(3 / tokens * 1000)
    assert overall["per_1000_tokens"]["method"] == "census"
    assert overall["notes_with_missed"]["estimate"] == pytest.approx(3 / 6)
    assert report["residual"]["by_label"]["NAME"]["missed"] == 3
    detected = sum(len(note.spans) for note in folder.notes)
    assert report["precision"]["overall"]["estimate"] == pytest.approx((detected - 1) / detected)
    assert report["precision"]["by_label"]["AGE"]["estimate"] == 0
    assert report["progress"] == {**report["progress"], "reviewed": 6, "sampled": 6, "complete": True}
    assert report["progress"]["reviewers"] == ["alice"]
    page = review_html(report)
    assert "data:image/png;base64," in page
    for text in (PLANTED, "Mary Quince", *[note.text for note in folder.notes]):
        assert text not in page and text not in json.dumps(report)


def test_a_sample_gives_intervals_and_the_notes_still_needed(tmp_path: Path) -> None:
    folder = make_folder(tmp_path, n=4)
    review_everything(folder)
    report = build_report(folder, target=0.5)
    per_token = report["residual"]["overall"]["per_1000_tokens"]
    assert per_token["method"] == "korn-graubard"
    assert per_token["lower"] <= per_token["estimate"] <= per_token["upper"]
    target = report["target"]
    assert target["per_1000_tokens"] == 500 and target["notes_needed"] is not None
    assert target["additional_notes"] == max(0, target["notes_needed"] - 4)


def test_a_partial_review_reports_progress_and_uncovered_strata(tmp_path: Path) -> None:
    folder = make_folder(tmp_path, n=4, length_bands=2)
    first = folder.notes[0]
    DecisionLog(folder.decisions_path).append(Event("alice", first.key, "done"), first)
    report = build_report(folder)
    progress = report["progress"]
    assert progress["reviewed"] == 1 and not progress["complete"]
    assert progress["uncovered_strata"] == [h for h in folder.population if h != first.stratum]
    assert progress["population_covered"] == folder.population[first.stratum]
    assert report["residual"]["overall"]["missed"] == 0
    assert "rule_of_three" in report["residual"]["overall"]
    assert "Strata without a reviewed note" in review_html(report)


def test_nothing_reviewed_yet_is_reported_as_such(folder: ReviewFolder) -> None:
    report = build_report(folder)
    assert report["residual"]["overall"]["per_1000_tokens"]["estimate"] is None
    assert report["target"]["reason"] == "no finished note yet"
    assert "anonymed review report" in review_html(report)


def test_two_reviewers_agreement_is_cohens_kappa(folder: ReviewFolder) -> None:
    log = DecisionLog(folder.decisions_path)
    n1, n2 = note_by_id(folder, "n1"), note_by_id(folder, "n2")
    name = n1.text.index(PLANTED)
    date = n1.spans[0]
    log.append(Event("alice", n1.key, "mark", name, name + len(PLANTED), "NAME"), n1)
    log.append(Event("bob", n1.key, "mark", name, name + 7, "LOCATION"), n1)
    log.append(Event("bob", n1.key, "reject", date.start, date.end), n1)
    for reviewer in ("alice", "bob"):
        for note in (n1, n2):
            log.append(Event(reviewer, note.key, "done"), note)
    [pair] = build_report(folder)["agreement"]
    # units: n1 date (DATE / not PHI), phone (CONTACT / CONTACT), the mark (NAME / LOCATION);
    # n2 age (AGE / AGE), date (DATE / DATE): po = 3/5, pe = (2*1 + 1*1 + 1*1) / 25 = 0.16
    assert pair["reviewers"] == ["alice", "bob"] and pair["notes"] == 2 and pair["units"] == 5
    assert pair["observed_agreement"] == pytest.approx(0.6)
    assert pair["kappa"] == pytest.approx((0.6 - 0.16) / (1 - 0.16))
    outcome = build_report(folder)["residual"]["by_label"]
    assert outcome["NAME"]["missed"] == 1 and "LOCATION" not in outcome  # merged: the first reviewer's label


def test_exports_allow_deny_and_training_annotations(folder: ReviewFolder, tmp_path: Path) -> None:
    review_everything(folder)
    done = export(folder, tmp_path / "out")
    allow = list(csv.reader((tmp_path / "out" / "allow.csv").open()))
    deny = list(csv.reader((tmp_path / "out" / "deny.csv").open()))
    assert allow == [["term", "label", "match", "case"], ["45", "AGE", "exact", "insensitive"]]
    assert deny[0] == ["term", "label", "match", "case"]
    assert sorted(deny[1:]) == sorted([[name, "NAME", "word", "sensitive"] for name in MISSED.values()])
    lines = [json.loads(line) for line in (tmp_path / "out" / "annotations.jsonl").read_text().splitlines()]
    assert len(lines) == done.notes == 6
    n1 = next(line for line in lines if line["id"] == "n1")
    labelled = {n1["text"][s["start"] : s["end"]]: (s["label"], s["subtype"]) for s in n1["spans"]}
    assert labelled[PLANTED] == ("NAME", None) and labelled["02/12/2020"][0] == "DATE"
    n2 = next(line for line in lines if line["id"] == "n2")
    assert "45" not in {n2["text"][s["start"] : s["end"]] for s in n2["spans"]}  # rejected: not PHI
    assert set(n1) == {"id", "text", "lang", "spans"} and n1["lang"] == "en"
    assert (done.allow, done.deny, done.conflicts) == (1, 3, 0)


def test_conflicting_terms_are_left_out_of_the_lists(tmp_path: Path) -> None:
    notes = [("a", "MRN 12345678 today."), ("b", "MRN 12345678 again."), ("c", "Seen with Paula Quist.")]
    folder = make_folder(tmp_path, notes=notes)
    log = DecisionLog(folder.decisions_path)
    a, b, c = (note_by_id(folder, x) for x in "abc")
    log.append(Event("r", a.key, "reject", a.spans[0].start, a.spans[0].end), a)  # not PHI here...
    log.append(Event("r", b.key, "accept", b.spans[0].start, b.spans[0].end), b)  # ...but PHI there
    start = c.text.index("Paula")
    log.append(Event("r", c.key, "mark", start, start + len("Paula Quist"), "NAME/relative"), c)
    for note in (a, b, c):
        log.append(Event("r", note.key, "done"), note)
    done = export(folder, tmp_path / "out")
    assert (done.allow, done.deny, done.conflicts) == (0, 1, 1)
    deny = list(csv.reader((tmp_path / "out" / "deny.csv").open()))
    assert deny[1] == ["Paula Quist", "NAME/relative", "word", "sensitive"]
