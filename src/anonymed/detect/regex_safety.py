"""A regular expression from a configuration is checked before use: catastrophic backtracking is refused.

Two checks, as the hardening tests do for anonymed's own patterns (tests/hardening/test_regex_safety.py):

* static: an unbounded repetition whose body is made only of repetitions and optional parts, such as
  ``(a+)+``, ``(\\d+[-/]?)+`` or ``(\\w+\\s?)*``, can split a run of text in exponentially many ways;
* timed: the pattern runs over runs of characters and of its own words that it partly matches, ending in a
  character that makes it fail, at growing lengths up to ``LENGTH``; a run over ``BUDGET_SECONDS`` means
  backtracking that grows too fast (exponential, or a high power of the length). Lengths grow in small
  steps, so the check stops soon after the time starts to explode and costs a few milliseconds for a
  sound pattern. It uses no signal, so it works in any thread (a service's request handlers).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from functools import lru_cache
from re import _parser  # type: ignore[attr-defined]
from typing import Any, Final

from anonymed.errors import ConfigError

#: the longest input tried, and the most one run over it may take
LENGTH: Final = 1_000
BUDGET_SECONDS: Final = 0.25
#: the most the timed check may take in all before it gives up and refuses the pattern
TOTAL_SECONDS: Final = 3.0
#: lengths tried: small steps while an exponential blow-up would show, then about 20% longer each time
LENGTHS: Final = (*range(4, 33, 2), 39, 47, 57, 69, 83, 100, 120, 144, 173, 208, 250, 300, 360, 432, 519,
                  623, 748, 898, LENGTH)  # fmt: skip

#: runs that stress the usual culprits: letters, digits, spaces, separators, accents, emoji
ATOMS: Final = (
    "a", "A", "1", " ", ".", "-", "/", ":", ",", "'", "@", "(", "+", "\t", "\n", "\r", "\u00e9", "0", "aA",
    "1 ", "a ", "A ", "1/", "1-", "1.", "1,", "a.", "a-", "a@", "a'", "A.", "A. ", "Aa ", "Aa-", "1:", "1h",
    "#", "\u00b0", "\u0661", "e\u0301", "a1", "1a", "_", ". ", "- ", "01 ", "12/", "x", "a.b@", "://", "%",
    "=", "*", "\x00", "\u00a0", "\u2028", "\U0001f600", "Zz ",
)  # fmt: skip

_REPEATS: Final = frozenset({_parser.MAX_REPEAT, _parser.MIN_REPEAT})
_MAXREPEAT: Final = _parser.MAXREPEAT


def stress_runs(source: str) -> list[str]:
    """The atoms, and the pattern's own words (as written, capitalised, followed by a space)."""
    words = sorted({w.lower() for w in re.findall(r"[^\W\d_]{2,}", source)})[:12]
    return [*ATOMS, *(w + " " for w in words), *(w.title() + " " for w in words), *words]


def _items(subpattern: Any) -> Iterator[tuple[Any, Any]]:
    """The items of a parsed sequence, groups opened (their content is part of the sequence)."""
    for op, av in subpattern:
        if op is _parser.SUBPATTERN:
            yield from _items(av[3])
        else:
            yield op, av


def _ambiguous_body(body: Any) -> bool:
    """Whether a repeated body is only variable repetitions and optional parts (no fixed anchor)."""
    variable = False
    for op, av in _items(body):
        if op not in _REPEATS:
            return False
        low, high, _ = av
        if low == high:
            return False
        variable = variable or high > 1
    return variable


def nested_repetition(source: str, flags: int = 0) -> bool:
    """Whether the pattern holds an unbounded repetition of an ambiguous body, like ``(a+)+``."""
    stack = [_parser.parse(source, flags)]
    while stack:
        for op, av in stack.pop():
            if op in _REPEATS:
                _, high, body = av
                if high == _MAXREPEAT and _ambiguous_body(body):
                    return True
                stack.append(body)
            elif op is _parser.SUBPATTERN:
                stack.append(av[3])
            elif op is _parser.BRANCH:
                stack.extend(av[1])
            elif op in (_parser.ASSERT, _parser.ASSERT_NOT):
                stack.append(av[1])
            elif op is _parser.ATOMIC_GROUP:
                stack.append(av)
    return False


def slowest_run(pattern: re.Pattern[str]) -> tuple[float, int]:
    """The longest ``finditer`` over the stress inputs (seconds) and its length; stops once over budget
    (infinity when all the runs together take over ``TOTAL_SECONDS``)."""
    worst = (0.0, 0)
    started = time.perf_counter()
    for run in stress_runs(pattern.pattern):
        for length in LENGTHS:
            text = run * max(1, length // len(run)) + "!"
            begin = time.perf_counter()
            for _ in pattern.finditer(text):
                pass
            took = time.perf_counter() - begin
            worst = max(worst, (took, len(text)))
            if took > BUDGET_SECONDS:
                return worst
            if time.perf_counter() - started > TOTAL_SECONDS:
                return float("inf"), len(text)
    return worst


@lru_cache(maxsize=256)
def checked_regex(source: str, flags: int, where: str) -> re.Pattern[str]:
    """The compiled pattern, after both checks; else ``ConfigError`` naming ``where`` (never a text)."""
    try:
        pattern = re.compile(source, flags)
    except re.error as exc:
        reason = f"{exc.msg} at position {exc.pos}"
        raise ConfigError(f"{where}: not a valid regular expression ({reason})") from None
    if nested_repetition(source, flags):
        raise ConfigError(
            f"{where}: nested repetition such as (a+)+ or (\\w+\\s?)* can backtrack catastrophically; "
            "make the inner part fixed or the outer one bounded"
        )
    took, length = slowest_run(pattern)
    if took == float("inf"):
        raise ConfigError(f"{where}: too slow on the safety check's inputs (over {TOTAL_SECONDS} s in all)")
    if took > BUDGET_SECONDS:
        raise ConfigError(
            f"{where}: backtracks catastrophically ({took:.2f} s on a {length}-character input, "
            f"over the {BUDGET_SECONDS} s bound)"
        )
    return pattern
