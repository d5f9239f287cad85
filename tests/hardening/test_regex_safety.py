"""Regular-expression safety: every pattern anonymed compiles, timed on worst-case inputs under one bound.

The patterns are found, not listed: every module under ``src/anonymed`` is imported and its globals searched
(tuples, lists and dicts included) for compiled patterns, and every string literal passed to a ``re``
function is compiled from the source. Each is run with ``finditer`` over long runs of characters and words
that it partly matches, ending in a character that makes it fail (what triggers catastrophic
backtracking); a run is stopped by an alarm once it takes longer than the bound. A second test times the
detectors and operators themselves on 20 kB pathological notes, where a quadratic scan shows.
"""

from __future__ import annotations

import ast
import importlib
import re
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import anonymed
from anonymed.config import PipelineConfig
from anonymed.detect.patterns.detector import all_patterns
from anonymed.detect.regex_safety import stress_runs
from anonymed.document import Document
from anonymed.labels import Label
from anonymed.pipeline import Pipeline
from anonymed.sentences.splitter import split_sentences

SOURCE = Path(anonymed.__file__).parent
#: the one generous bound: no pattern may spend this long on any 1,000-character input
BOUND_SECONDS = 1.0
LENGTH = 1_000
_RE_CALLS = {"compile", "search", "match", "fullmatch", "finditer", "findall", "split", "sub", "subn"}


class TooSlow(Exception):
    """A regular expression ran past the bound."""


@contextmanager
def bounded(seconds: float) -> Iterator[None]:
    """Raise ``TooSlow`` in this (main) thread after ``seconds``; Python's ``re`` checks for signals."""

    def expire(signum: int, frame: Any) -> None:
        raise TooSlow

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _module_names() -> Iterator[str]:
    for path in sorted(SOURCE.rglob("*.py")):
        parts = list(path.relative_to(SOURCE.parent).with_suffix("").parts)
        if parts[-1] == "__main__":
            continue
        yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _compiled_in(value: Any, depth: int = 0) -> Iterator[re.Pattern[Any]]:
    if isinstance(value, re.Pattern):
        yield value
    elif depth < 3 and isinstance(value, tuple | list | set | frozenset):
        for item in value:
            yield from _compiled_in(item, depth + 1)
    elif depth < 3 and isinstance(value, dict):
        for item in value.values():
            yield from _compiled_in(item, depth + 1)


def _literal_patterns(path: Path) -> Iterator[re.Pattern[Any]]:
    """Patterns written as literals in ``re.<function>(...)`` calls anywhere in a source file."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args):
            continue
        if not (isinstance(node.func.value, ast.Name) and node.func.value.id == "re"):
            continue
        first = node.args[0]
        if (
            node.func.attr in _RE_CALLS
            and isinstance(first, ast.Constant)
            and isinstance(first.value, str | bytes)
        ):
            yield re.compile(first.value)


def collect_patterns() -> dict[tuple[Any, int], str]:
    """Every distinct pattern in anonymed (pattern and flags) and where it was found first."""
    found: dict[tuple[Any, int], str] = {}
    for name in _module_names():
        module = importlib.import_module(name)  # every extra is installed in CI: an import error is a bug
        for attribute, value in vars(module).items():
            for pattern in _compiled_in(value):
                found.setdefault((pattern.pattern, pattern.flags), f"{name}.{attribute}")
        assert module.__file__ is not None
        for pattern in _literal_patterns(Path(module.__file__)):
            found.setdefault((pattern.pattern, pattern.flags), f"{name} (literal)")
    return found


def inputs_for(pattern: re.Pattern[Any]) -> Iterator[Any]:
    """Long runs of the atoms and of the pattern's own words, each ending in a character that fails it (the
    runs the load-time check of configured patterns uses, ``anonymed.detect.regex_safety``)."""
    source = pattern.pattern if isinstance(pattern.pattern, str) else pattern.pattern.decode("latin-1")
    for run in stress_runs(source):
        text = run * (LENGTH // len(run)) + "!"
        yield text if isinstance(pattern.pattern, str) else text.encode("utf-8")


def slowest(pattern: re.Pattern[Any]) -> tuple[float, str]:
    """The longest ``finditer`` over the worst-case inputs, in seconds, and the run that took it."""
    worst = (0.0, "")
    for text in inputs_for(pattern):
        started = time.perf_counter()
        try:
            with bounded(BOUND_SECONDS):
                for _ in pattern.finditer(text):
                    pass
        except TooSlow:
            return float("inf"), repr(text[:12])
        worst = max(worst, (time.perf_counter() - started, repr(text[:12])))
    return worst


@pytest.fixture(scope="module")
def patterns() -> dict[tuple[Any, int], str]:
    """The patterns found in the package."""
    return collect_patterns()


def test_the_search_finds_every_detector_pattern(patterns: dict[tuple[Any, int], str]) -> None:
    detector = {(p.pattern, p.flags) for p in all_patterns()}
    assert detector <= set(patterns)
    assert len(patterns) > len(detector)  # tokenizers, I/O, operators, service... too


def test_no_pattern_backtracks_catastrophically(patterns: dict[tuple[Any, int], str]) -> None:
    slow = {}
    for (source, flags), where in patterns.items():
        seconds, run = slowest(re.compile(source, flags))
        if seconds >= BOUND_SECONDS:
            slow[where] = run
    assert not slow, f"patterns over {BOUND_SECONDS} s on {LENGTH}-character inputs: {slow}"


@pytest.mark.parametrize(
    "evil",
    [r"(a+)+$", r"^(\d+[-/]?)+x"],
    ids=["nested-plus", "digits-and-separators"],
)
def test_the_check_catches_catastrophic_patterns(evil: str) -> None:
    seconds, _ = slowest(re.compile(evil))
    assert seconds == float("inf")


#: notes made of one piece repeated: each once cost a detector quadratic time or a large constant
PATHOLOGICAL = (
    "Smith ",  # a run of listed names: the lexicon's name scan went back and forth over it (quadratic)
    "St ",  # a place-name prefix shared by a hundred gazetteer entries
    "Jean-Pierre ",
    "1 ",
    "1/",
    "12/03/",
    "(617) ",
    "http://a.",
    "\u0663, ",
    "A",
    "MRN ",
)
NOTE_LENGTH = 20_000
NOTE_BOUND_SECONDS = 3.0


@pytest.fixture(scope="module")
def pipelines() -> dict[str, Pipeline]:
    """Both languages, every detector and rule switched on, non-DP operators (DP cost is per value)."""
    operators = {Label.DATE: "fake", Label.AGE: "fake"}
    params = {"patterns": {"times": True}, "lexicons": {"regions": True}}
    detectors = ("tagger", "patterns", "lexicons")
    built = {
        lang: Pipeline(
            PipelineConfig(
                lang=lang, high_recall=True, operators=operators, detector_params=params, detectors=detectors
            )
        )
        for lang in ("en", "fr")
    }
    for lang, pipeline in built.items():
        pipeline.run(Document("warm", "Mr. John Smith 02/03/2020", {"lang": lang}))
    return built


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("piece", PATHOLOGICAL)
def test_detect_and_replace_stay_fast_on_pathological_notes(
    pipelines: dict[str, Pipeline], lang: str, piece: str
) -> None:
    note = piece * (NOTE_LENGTH // len(piece))
    started = time.perf_counter()
    with bounded(NOTE_BOUND_SECONDS * 4):  # stop a runaway case instead of hanging the suite
        pipelines[lang].run(Document("p", note, {"lang": lang}))
    assert time.perf_counter() - started < NOTE_BOUND_SECONDS


@pytest.mark.parametrize("piece", [*PATHOLOGICAL, "A1", "HEADER", "a:", "1. "])
def test_sentence_splitting_stays_fast_on_pathological_notes(piece: str) -> None:
    # a run of capitals was scanned once per letter by the header pattern: 8 kB took 1.2 s, 1 MB hours
    note = piece * (NOTE_LENGTH * 5 // len(piece))
    started = time.perf_counter()
    with bounded(NOTE_BOUND_SECONDS * 4):
        split_sentences(note)
    assert time.perf_counter() - started < NOTE_BOUND_SECONDS
