"""Reviewers' decisions: an append-only JSONL log (one fsync per action), replayed into per-note states.

Each line is one action of one reviewer on one note (``key``): ``accept``, ``reject`` or ``relabel`` a
detected span (by its offsets), ``clear`` that decision, ``mark`` missed PHI (offsets and label) or
``unmark`` it, and ``done`` / ``reopen`` the note. Lines hold offsets and labels, never text. Appends take
an exclusive ``flock`` and first read what other processes appended, so two servers on one folder agree;
a last line torn by a crash is cut off when the log is opened.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from anonymed.errors import ConfigError, InputError, OutputError, SpanError
from anonymed.evaluate.tokens import TOKEN_RE
from anonymed.labels import parse_label
from anonymed.review.folder import ReviewNote

SPAN_ACTIONS: Final = ("accept", "reject", "relabel", "clear")
MARK_ACTIONS: Final = ("mark", "unmark")
NOTE_ACTIONS: Final = ("done", "reopen")
ACTIONS: Final = SPAN_ACTIONS + MARK_ACTIONS + NOTE_ACTIONS
REVIEWER: Final = re.compile(r"[A-Za-z0-9._-]{1,64}")
Offsets = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Event:
    """One reviewer action; ``label`` is ``LABEL`` or ``LABEL/subtype`` (relabel, mark)."""

    reviewer: str
    note: str
    action: str
    start: int | None = None
    end: int | None = None
    label: str | None = None
    at: str = ""

    def __post_init__(self) -> None:
        if not REVIEWER.fullmatch(self.reviewer):
            raise ConfigError("a reviewer id is 1-64 letters, digits, '.', '_' or '-'")
        if self.action not in ACTIONS:
            raise ConfigError(f"unknown action {self.action!r}; known: {list(ACTIONS)}")
        spanned = self.action not in NOTE_ACTIONS
        if spanned and (self.start is None or self.end is None or not 0 <= self.start < self.end):
            raise ConfigError(f"action {self.action!r} needs offsets 0 <= start < end")
        labelled = self.action in ("relabel", "mark")
        if labelled != (self.label is not None):
            raise ConfigError(f"action {self.action!r} {'needs' if labelled else 'takes no'} label")
        if self.label is not None:
            try:
                parse_label(self.label)
            except SpanError as exc:
                raise ConfigError(str(exc)) from None

    @property
    def offsets(self) -> Offsets:
        """``(start, end)`` of a span or mark action."""
        assert self.start is not None and self.end is not None
        return (self.start, self.end)

    def to_json(self) -> dict[str, Any]:
        """The log line's object (fields that are set)."""
        data: dict[str, Any] = {
            "at": self.at,
            "reviewer": self.reviewer,
            "note": self.note,
            "action": self.action,
        }
        if self.start is not None:
            data.update(start=self.start, end=self.end)
        if self.label is not None:
            data["label"] = self.label
        return data

    @classmethod
    def from_json(cls, obj: Any) -> Event:
        """An event from a log line's object; ``ConfigError`` if it is not one."""
        if not isinstance(obj, dict):
            raise ConfigError("not an object")
        try:
            return cls(
                str(obj["reviewer"]),
                str(obj["note"]),
                str(obj["action"]),
                obj.get("start"),
                obj.get("end"),
                obj.get("label"),
                str(obj.get("at", "")),
            )
        except KeyError as exc:
            raise ConfigError(f"missing field {exc.args[0]!r}") from None


@dataclass
class NoteState:
    """One reviewer's view of one note: decisions on detected spans, marks of missed PHI, done or not."""

    decisions: dict[Offsets, tuple[str, str | None]] = field(default_factory=dict)
    marks: dict[Offsets, str] = field(default_factory=dict)
    done: bool = False

    def apply(self, event: Event) -> None:
        """Apply one (already validated) event."""
        if event.action in ("accept", "reject", "relabel"):
            self.decisions[event.offsets] = (event.action, event.label)
        elif event.action == "clear":
            self.decisions.pop(event.offsets, None)
        elif event.action == "mark":
            assert event.label is not None
            self.marks[event.offsets] = event.label
        elif event.action == "unmark":
            self.marks.pop(event.offsets, None)
        else:
            self.done = event.action == "done"

    def to_json(self) -> dict[str, Any]:
        """The state as the review page reads it."""
        return {
            "decisions": [
                {"start": s, "end": e, "decision": d, "label": lab}
                for (s, e), (d, lab) in sorted(self.decisions.items())
            ],
            "marks": [{"start": s, "end": e, "label": lab} for (s, e), lab in sorted(self.marks.items())],
            "done": self.done,
        }


def validate(event: Event, note: ReviewNote, state: NoteState) -> None:
    """Refuse an event that does not fit its note: unknown span, mark out of range or overlapping."""
    if event.action in SPAN_ACTIONS and note.span_at(*event.offsets) is None:
        raise ConfigError(f"note {note.key}: no detected span at {event.start}-{event.end}")
    if event.action == "unmark" and event.offsets not in state.marks:
        raise ConfigError(f"note {note.key}: no mark at {event.start}-{event.end}")
    if event.action == "mark":
        start, end = event.offsets
        if end > len(note.text) or TOKEN_RE.search(note.text, start, end) is None:
            raise ConfigError(
                f"note {note.key}: a mark needs a letter or digit in the note, got {start}-{end}"
            )
        taken = [(s.start, s.end) for s in note.spans] + [o for o in state.marks if o != event.offsets]
        if any(start < e and s < end for s, e in taken):
            raise ConfigError(f"note {note.key}: the mark {start}-{end} overlaps a span or another mark")


class DecisionLog:
    """The decisions file of a review folder, with the states it replays to, shared safely by processes."""

    def __init__(self, path: Path, *, writable: bool = True) -> None:
        self.path = Path(path)
        self.writable = writable
        self.states: dict[tuple[str, str], NoteState] = {}
        self.events = 0
        self.repaired = False
        self._offset = 0
        self._line = 0
        self._lock = threading.Lock()
        self.refresh()

    @contextmanager
    def _locked(self) -> Iterator[int]:
        """The log open under a lock (exclusive to append), after reading what others appended."""
        with self._lock:
            flags = os.O_RDWR | os.O_APPEND | os.O_CREAT if self.writable else os.O_RDONLY
            try:
                fd = os.open(self.path, flags, 0o600)
            except FileNotFoundError:
                if self.writable:
                    raise OutputError(f"cannot open {str(self.path)!r}: its folder is missing") from None
                yield -1  # nothing decided yet
                return
            except OSError as exc:
                raise OutputError(f"cannot open {str(self.path)!r}: {exc.strerror}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX if self.writable else fcntl.LOCK_SH)
                self._catch_up(fd)
                yield fd
            finally:
                os.close(fd)  # closing releases the lock

    def _catch_up(self, fd: int) -> None:
        size = os.fstat(fd).st_size
        if size <= self._offset:
            return
        data = os.pread(fd, size - self._offset, self._offset)
        complete = data.rfind(b"\n") + 1
        if complete < len(data) and self.writable:  # a torn last line (a crash mid-append): cut it off
            os.ftruncate(fd, self._offset + complete)
            self.repaired = True
        for raw in data[:complete].splitlines():
            self._line += 1
            if not raw.strip():
                continue
            try:
                event = Event.from_json(json.loads(raw))
            except (json.JSONDecodeError, UnicodeDecodeError, ConfigError) as exc:
                reason = "not JSON" if not isinstance(exc, ConfigError) else f"bad decision: {exc}"
                raise InputError(f"{self.path.name} line {self._line}", reason) from None
            self._apply(event)
        self._offset += complete

    def _apply(self, event: Event) -> None:
        self.states.setdefault((event.reviewer, event.note), NoteState()).apply(event)
        self.events += 1

    def refresh(self) -> None:
        """Read what other processes appended since."""
        with self._locked():
            pass

    def state(self, reviewer: str, key: str) -> NoteState:
        """One reviewer's state of one note (empty if untouched)."""
        return self.states.get((reviewer, key), NoteState())

    def append(self, event: Event, note: ReviewNote) -> NoteState:
        """Validate ``event`` against ``note`` and the current state, append it durably, apply it."""
        if not self.writable:
            raise OutputError(f"{str(self.path)!r} was opened read-only")
        with self._locked() as fd:
            validate(event, note, self.state(event.reviewer, event.note))
            stamped = Event(**{**event.to_json(), "at": datetime.now(UTC).isoformat(timespec="milliseconds")})
            line = (json.dumps(stamped.to_json(), ensure_ascii=False) + "\n").encode("utf-8")
            try:
                os.write(fd, line)
                os.fsync(fd)
            except OSError as exc:
                raise OutputError(f"cannot append to {str(self.path)!r}: {exc.strerror}") from None
            self._offset += len(line)
            self._line += 1
            self._apply(stamped)
        return self.state(event.reviewer, event.note)

    def reviewers(self) -> list[str]:
        """The reviewer ids seen in the log."""
        return sorted({reviewer for reviewer, _ in self.states})
