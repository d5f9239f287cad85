"""Name recall on people no name list was built from: WikiANN person names in clinical sentences.

    python benchmarks/person_names_wikiann.py --data DATA --names 300 --seed 0

Takes the two-word person entities of WikiANN's English test split (both words capitalised letters, three or
more), samples ``--names`` of them, puts each into a few clinical sentences that give no title or credential
(the contexts where a name list or a context rule must carry the name), runs the default detectors and counts
a word as found when a NAME span covers it. The names come from Wikipedia, not from Faker or the census, so
the figure says how far detection reaches beyond its own lists; the sentences are written for anonymed. Run
it on two commits (``PYTHONPATH``) to compare: the sample is fixed by the seed.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from anonymed.detect.registry import DEFAULT_DETECTORS, build_detector
from anonymed.detect.view import NoteView
from anonymed.document import Document, Label
from anonymed.train.corpora import read_wikiann
from shared_detect import merged_spans

TEMPLATES = (
    "{first} {last} is a 54 yo woman admitted with chest pain.",
    "Met with {first} {last} and her husband to discuss the plan.",
    "Spoke with the patient's daughter {first} {last} by phone.",
    "Pt {first} {last} seen in clinic today.",
    "Called {first} {last} at home, no answer.",
    "Family meeting held; {first} {last} will be the health care proxy.",
    "Discharged home with her sister {first} {last}.",
    "Case discussed with {first} {last} from social work.",
)


def two_word_names(path: Path) -> list[tuple[str, str]]:
    """The distinct two-word person names of a WikiANN split, each word capitalised, three letters or more."""
    names = set()
    for doc in read_wikiann(path, "en"):
        for span in doc.gold:
            if span.label is not Label.NAME:
                continue
            words = doc.text[span.start : span.end].split()
            if len(words) == 2 and all(_plain(word) for word in words):
                names.add((words[0], words[1]))
    return sorted(names)


def _plain(word: str) -> bool:
    return len(word) > 2 and word.isalpha() and word[0].isupper() and word[1:].islower()


def main() -> None:
    """Print the share of name words found per sentence and overall."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="folder holding wikiann_ner/en/test")
    parser.add_argument("--names", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    names = two_word_names(args.data / "wikiann_ner" / "en" / "test")
    random.Random(args.seed).shuffle(names)  # a fixed sample of the benchmark, not a privacy-relevant draw
    chosen = names[: args.names]
    detectors = [build_detector(name) for name in DEFAULT_DETECTORS]
    found = total = 0
    print(f"{len(chosen)} names of {len(names)}\n\n| sentence | words found |\n|---|---:|")
    for template in TEMPLATES:
        hits = 0
        for first, last in chosen:
            text = template.format(first=first, last=last)
            spans = merged_spans(NoteView(Document("d", text, {"lang": "en"})), detectors)
            start = text.index(first)
            for offset in (start, text.index(last, start + len(first))):
                hits += any(s.start <= offset < s.end and s.label is Label.NAME for s in spans)
        found += hits
        total += 2 * len(chosen)
        print(f"| {template} | {hits / (2 * len(chosen)):.3f} |")
    print(f"| **all** | **{found / total:.4f}** ({found} / {total}) |")


if __name__ == "__main__":
    main()
