"""Count and time what ``tests/hardening/test_regex_safety.py`` checks: patterns, timed runs, slowest run.

    python fuzz/regex_runs.py

The test asserts that no run passes the bound; this prints the figures of docs/hardening.md (how many
patterns the search found in the package, how many worst-case runs were timed, the slowest and where).
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "hardening"))

import test_regex_safety as safety


def main() -> None:
    """Time every pattern on its worst-case inputs, print the counts and the slowest run."""
    started = time.process_time()
    patterns = safety.collect_patterns()
    runs, worst = 0, (0.0, "")
    for (source, flags), where in patterns.items():
        pattern = re.compile(source, flags)
        runs += sum(1 for _ in safety.inputs_for(pattern))
        seconds, _ = safety.slowest(pattern)
        worst = max(worst, (seconds, where))
    cpu = time.process_time() - started
    print(f"patterns {len(patterns)}, timed runs {runs}, slowest {worst[0]:.3f} s ({worst[1]}), ", end="")
    print(f"bound {safety.BOUND_SECONDS} s per {safety.LENGTH} characters, {cpu:.1f} CPU-s")


if __name__ == "__main__":
    main()
