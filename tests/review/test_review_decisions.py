"""The decision log: durable appends, replay, repair of a torn line, validation, two processes."""

from __future__ import annotations

import json
import stat

import pytest
from review_support import PLANTED, note_by_id

from anonymed.errors import ConfigError, InputError, OutputError
from anonymed.review.decisions import DecisionLog, Event
from anonymed.review.folder import ReviewFolder


def test_decisions_replay_into_the_same_state(folder: ReviewFolder) -> None:
    note = note_by_id(folder, "n1")
    date, phone = note.spans
    name = note.text.index(PLANTED)
    log = DecisionLog(folder.decisions_path)
    log.append(Event("alice", note.key, "accept", date.start, date.end), note)
    log.append(Event("alice", note.key, "relabel", phone.start, phone.end, "ID/other"), note)
    log.append(Event("alice", note.key, "mark", name, name + len(PLANTED), "NAME/clinician"), note)
    log.append(Event("alice", note.key, "done"), note)
    state = log.state("alice", note.key)
    assert state.done and state.marks == {(name, name + len(PLANTED)): "NAME/clinician"}
    assert state.decisions[(phone.start, phone.end)] == ("relabel", "ID/other")
    again = DecisionLog(folder.decisions_path)
    assert again.state("alice", note.key) == state and again.events == 4
    assert stat.S_IMODE(folder.decisions_path.stat().st_mode) == 0o600
    lines = folder.decisions_path.read_text().splitlines()
    assert PLANTED not in "".join(lines)  # offsets and labels, never text
    assert json.loads(lines[0])["at"].endswith("+00:00")


def test_unmark_clear_and_reopen_undo(folder: ReviewFolder) -> None:
    note = note_by_id(folder, "n1")
    span = note.spans[0]
    log = DecisionLog(folder.decisions_path)
    log.append(Event("bob", note.key, "reject", span.start, span.end), note)
    log.append(Event("bob", note.key, "clear", span.start, span.end), note)
    log.append(Event("bob", note.key, "mark", 12, 19, "NAME"), note)
    log.append(Event("bob", note.key, "mark", 12, 19, "LOCATION"), note)  # same offsets: a new label
    assert log.state("bob", note.key).marks == {(12, 19): "LOCATION"}
    log.append(Event("bob", note.key, "unmark", 12, 19), note)
    log.append(Event("bob", note.key, "done"), note)
    log.append(Event("bob", note.key, "reopen"), note)
    state = log.state("bob", note.key)
    assert not state.decisions and not state.marks and not state.done


def test_events_that_do_not_fit_the_note_are_refused(folder: ReviewFolder) -> None:
    note = note_by_id(folder, "n1")
    span = note.spans[0]
    log = DecisionLog(folder.decisions_path)
    with pytest.raises(ConfigError, match="no detected span"):
        log.append(Event("a", note.key, "accept", 0, 3), note)
    with pytest.raises(ConfigError, match="overlaps"):
        log.append(Event("a", note.key, "mark", span.start - 2, span.start + 1, "NAME"), note)
    dot = note.text.index(".")
    with pytest.raises(ConfigError, match="letter or digit"):
        log.append(Event("a", note.key, "mark", dot, dot + 1, "NAME"), note)
    assert log.events == 0


def test_event_fields_are_checked() -> None:
    with pytest.raises(ConfigError, match="reviewer"):
        Event("a b", "1", "done")
    with pytest.raises(ConfigError, match="unknown action"):
        Event("a", "1", "approve")
    with pytest.raises(ConfigError, match="needs label"):
        Event("a", "1", "mark", 0, 4)
    with pytest.raises(ConfigError, match="subtype"):
        Event("a", "1", "mark", 0, 4, "NAME/planet")
    with pytest.raises(ConfigError, match="offsets"):
        Event("a", "1", "accept", 4, 4)


def test_a_torn_last_line_is_cut_off_and_a_broken_middle_line_is_an_error(folder: ReviewFolder) -> None:
    note = note_by_id(folder, "n3")
    log = DecisionLog(folder.decisions_path)
    log.append(Event("a", note.key, "done"), note)
    with folder.decisions_path.open("a") as handle:
        handle.write('{"reviewer": "a", "note": "')  # a crash mid-append
    reopened = DecisionLog(folder.decisions_path)
    assert reopened.repaired and reopened.events == 1
    assert folder.decisions_path.read_text().endswith("}\n")
    reopened.append(Event("a", note.key, "reopen"), note)
    assert DecisionLog(folder.decisions_path).events == 2
    with folder.decisions_path.open("a") as handle:
        handle.write("not json\n")
    with pytest.raises(InputError, match="line 3"):
        DecisionLog(folder.decisions_path)


def test_two_logs_on_one_file_see_each_other(folder: ReviewFolder) -> None:
    note = note_by_id(folder, "n3")
    first, second = DecisionLog(folder.decisions_path), DecisionLog(folder.decisions_path)
    first.append(Event("a", note.key, "done"), note)
    second.append(Event("b", note.key, "done"), note)
    first.refresh()
    assert first.state("b", note.key).done and second.state("a", note.key).done
    assert first.reviewers() == ["a", "b"]


def test_a_read_only_log_reads_without_creating_or_writing(folder: ReviewFolder) -> None:
    note = note_by_id(folder, "n3")
    reader = DecisionLog(folder.decisions_path, writable=False)
    assert reader.events == 0 and not folder.decisions_path.exists()
    with pytest.raises(OutputError):
        reader.append(Event("a", note.key, "done"), note)


def test_a_missing_folder_is_a_one_line_error(folder: ReviewFolder) -> None:
    with pytest.raises(OutputError, match="folder is missing"):
        DecisionLog(folder.path / "gone" / "decisions.jsonl")
