"""CPU seconds per megabyte of note for each method, on ordinary text and on the worst pieces we know.

    python fuzz/worst_case.py [--kilobytes 200]

What a request of the service's largest body (1 MB by default) would cost without a timeout: in process
isolation (the default) the timeout kills the worker, so a request costs at most its timeout; in thread
isolation the thread runs to its end, so this is the work an attacker can make it do per request.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.labels import Label
from anonymed.pipeline import Pipeline
from anonymed.sentences.splitter import split_sentences
from anonymed.words.obfuscator import WordObfuscator

ORDINARY = (
    "Seen by Dr. Helen Park on 02/12/2020. The patient reports intermittent chest pain on exertion, "
    "relieved by rest. Vital signs are stable; lungs are clear. Plan: stress test, follow-up in 2 weeks.\n"
)
#: the slowest pieces found by tests/hardening/test_regex_safety.py and the exploration behind it
PIECES = ("Smith ", "St ", "Jean-Pierre ", "1 ", "12/03/", "(617) ", "\u0663, ", "A", "MRN ", "zqxwvy ")


def seconds_per_megabyte(work: Callable[[str], object], piece: str, size: int) -> float:
    """CPU seconds of ``work`` on ``piece`` repeated to ``size`` characters, scaled to 1,000,000."""
    text = piece * (size // len(piece))
    started = time.process_time()
    work(text)
    return (time.process_time() - started) * 1_000_000 / len(text)


def main() -> None:
    """Print one line per method: ordinary text, then the worst piece and its cost."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kilobytes", type=int, default=200)
    size = parser.parse_args().kilobytes * 1000
    fake = {Label.DATE: "fake", Label.AGE: "fake"}
    default = Pipeline(PipelineConfig(operators=fake))
    everything = Pipeline(
        PipelineConfig(operators=fake, high_recall=True, detectors=("tagger", "patterns", "lexicons"))
    )
    words = WordObfuscator(n=5, random_state=1)
    methods: dict[str, Callable[[str], object]] = {
        "deid (default: tagger + patterns)": lambda text: default.run(Document("w", text)),
        "deid (tagger + patterns + lexicons, high recall)": lambda text: everything.run(Document("w", text)),
        "word substitution": lambda text: words.transform([text]),
        "sentence splitting": split_sentences,
    }
    for work in methods.values():
        work(ORDINARY)  # load models first
    print(f"| method | ordinary note (s/MB) | worst piece | worst (s/MB) |  ({size // 1000} kB runs)")
    for name, work in methods.items():
        ordinary = seconds_per_megabyte(work, ORDINARY, size)
        worst = max((seconds_per_megabyte(work, piece, size), piece) for piece in PIECES)
        print(f"| {name} | {ordinary:.1f} | {worst[1]!r} | {worst[0]:.1f} |", flush=True)


if __name__ == "__main__":
    main()
