"""Token-level recall/precision and speed of the lexicon detector on the development splits.

    python benchmarks/lexicons_dev.py --data DATA [--min-city-population 15000] [--high-recall]
    python benchmarks/lexicons_dev.py --data DATA --stoplist mtsamples|wordfreq|both|none|shipped

Reads the PhysioNet deid (id.text + id-phi.phrase) and EDS-pseudo (dev.jsonl) files directly. A gold token
is an alphanumeric run inside a gold span; it is found when a predicted span of the matching label (NAME for
names, LOCATION for places) covers it. Precision counts predicted tokens of a label that fall in gold spans
of that label's categories (strict) or in any gold PHI span (lenient).

``--stoplist`` compares common-word lists (a listed name that is a common word needs context): ``shipped``
(default) reads the package's lists; the others are built in memory by ``scripts/build_lexicons.py``'s own
functions, as ``--stoplist`` of that script would build them (``both`` is how the shipped lists are made),
from the MTSamples CSV and the French MTSamples folder (default DATA/mtsamples/mtsamples.csv and
DATA/mtsamples_fr, read for ``mtsamples`` and ``both``; wordfreq 3.1.1 and names 0.3.0 installed). The name
lists stay the shipped ones.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from unittest import mock

from anonymed.detect.lexicons import resources
from anonymed.detect.lexicons.detector import LexiconDetector, LexiconParams
from anonymed.document import Document, Span
from anonymed.labels import Label

_TOKEN = re.compile(r"[^\W_]+")
_RECORD = re.compile(r"START_OF_RECORD=(\d+)\|\|\|\|(\d+)\|\|\|\|\n(.*?)\|\|\|\|END_OF_RECORD", re.S)
NAME_CATEGORIES = {"HCPName", "RelativeProxyName", "PTName", "PTNameInitial", "NOM", "PRENOM"}
PLACE_CATEGORIES = {"Location", "VILLE", "ADRESSE", "ADDRESSE", "HOPITAL"}
BUILD_SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "build_lexicons.py"
STOPLISTS = ("shipped", "mtsamples", "wordfreq", "both", "none")


@dataclass(frozen=True)
class Gold:
    """One gold span: offsets and corpus category."""

    start: int
    end: int
    category: str


def physionet(folder: Path) -> Iterator[tuple[Document, list[Gold]]]:
    """PhysioNet deid notes with their gold spans."""
    golds: dict[tuple[str, str], list[Gold]] = {}
    for line in (folder / "id-phi.phrase").read_text(encoding="ascii").splitlines():
        pid, note, start, end, category = line.split()[:5]
        golds.setdefault((pid, note), []).append(Gold(int(start), int(end), category))
    for match in _RECORD.finditer((folder / "id.text").read_text(encoding="ascii")):
        key = (match.group(1), match.group(2))
        doc = Document(f"{key[0]}-{key[1]}", match.group(3), {"lang": "en"})
        yield doc, golds.get(key, [])


def eds(path: Path) -> Iterator[tuple[Document, list[Gold]]]:
    """EDS-pseudo synthetic French notes with their gold spans."""
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        gold = [Gold(e["start"], e["end"], e["label"]) for e in record["entities"]]
        yield Document(record["note_id"], record["note_text"], {"lang": "fr"}), gold


def build_script() -> ModuleType:
    """``scripts/build_lexicons.py`` as a module (the script is no package)."""
    spec = importlib.util.spec_from_file_location("build_lexicons", BUILD_SCRIPT)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {BUILD_SCRIPT}")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(sys.modules[spec.name])
    return sys.modules[spec.name]


def build_stoplist(stoplist: str, mtsamples: Path, mtsamples_fr: Path) -> dict[str, set[str]]:
    """The common words per language that ``build_lexicons.py --stoplist STOPLIST`` would write."""
    build = build_script()
    _, _, shares = build.all_names()
    common: dict[str, set[str]] = build.common_words(stoplist, mtsamples, mtsamples_fr, shares)
    return common


def use_common_words(common: Mapping[str, Iterable[str]]) -> resources.NameLists:
    """Make the process's shared name lists (``resources.name_lists``, read once and cached) hold ``common``
    as the common words of each language; the first and last names stay the shipped ones."""
    wanted = {lang: frozenset(words) for lang, words in common.items()}
    read = resources._read_list

    def read_list(name: str) -> frozenset[str]:
        lang = name.removeprefix("common_").removesuffix(".txt.gz")
        return wanted[lang] if name.startswith("common_") and lang in wanted else read(name)

    resources.name_lists.cache_clear()
    with mock.patch.object(resources, "_read_list", read_list):
        lists = resources.name_lists()
    if any(lists.common.get(lang) != words for lang, words in wanted.items()):
        raise RuntimeError("the common-word lists were not swapped")
    return lists


def _tokens(text: str, start: int, end: int) -> set[tuple[int, int]]:
    return {(start + m.start(), start + m.end()) for m in _TOKEN.finditer(text[start:end])}


def score(
    corpus: list[tuple[Document, list[Gold]]], detector: LexiconDetector
) -> tuple[dict[str, float], float]:
    """Per-category recall, per-label precision, and notes per second."""
    found: Counter[str] = Counter()
    total: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    elapsed = 0.0
    for doc, gold in corpus:
        began = time.process_time()
        spans = detector.detect(doc)
        elapsed += time.process_time() - began
        _count(doc, gold, spans, found, total, counts)
    figures = {f"recall {c}": found[c] / total[c] for c in sorted(total)}
    figures |= {f"gold tokens {c}": float(total[c]) for c in sorted(total)}
    for label in ("NAME", "LOCATION"):
        predicted = counts[f"{label} predicted"]
        figures[f"precision {label} strict"] = counts[f"{label} strict"] / predicted if predicted else 0.0
        figures[f"precision {label} lenient"] = counts[f"{label} lenient"] / predicted if predicted else 0.0
        figures[f"predicted tokens {label}"] = float(predicted)
    return figures, len(corpus) / elapsed


def _count(
    doc: Document,
    gold: list[Gold],
    spans: list[Span],
    found: Counter[str],
    total: Counter[str],
    counts: Counter[str],
) -> None:
    predicted = {Label.NAME: set(), Label.LOCATION: set()}  # type: dict[Label, set[tuple[int, int]]]
    for span in spans:
        predicted.setdefault(span.label, set()).update(_tokens(doc.text, span.start, span.end))
    any_gold: set[tuple[int, int]] = set()
    by_label = {Label.NAME: set(), Label.LOCATION: set()}  # type: dict[Label, set[tuple[int, int]]]
    for g in gold:
        tokens = _tokens(doc.text, g.start, g.end)
        any_gold |= tokens
        label = Label.NAME if g.category in NAME_CATEGORIES else Label.LOCATION
        if g.category in NAME_CATEGORIES | PLACE_CATEGORIES:
            by_label[label] |= tokens
            total[g.category] += len(tokens)
            found[g.category] += len(tokens & predicted[label])
    for label in (Label.NAME, Label.LOCATION):
        counts[f"{label.value} predicted"] += len(predicted[label])
        counts[f"{label.value} strict"] += len(predicted[label] & by_label[label])
        counts[f"{label.value} lenient"] += len(predicted[label] & any_gold)


def main() -> None:
    """Print the figures for both corpora."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data", type=Path, required=True, help="data root with physionet_deid/ and eds_pseudo_fr_synth/"
    )
    parser.add_argument("--min-city-population", type=int, default=LexiconParams.min_city_population)
    parser.add_argument("--high-recall", action="store_true")
    parser.add_argument("--stoplist", choices=STOPLISTS, default="shipped", help="common-word lists")
    parser.add_argument("--mtsamples", type=Path, default=None, help="MTSamples CSV (DATA/mtsamples/...)")
    parser.add_argument(
        "--mtsamples-fr", type=Path, default=None, help="French MTSamples (DATA/mtsamples_fr)"
    )
    args = parser.parse_args()
    shipped = resources.name_lists()
    if args.stoplist != "shipped":
        common = build_stoplist(
            args.stoplist,
            args.mtsamples or args.data / "mtsamples" / "mtsamples.csv",
            args.mtsamples_fr or args.data / "mtsamples_fr",
        )
        use_common_words(common)
    lists = resources.name_lists()
    sizes = ", ".join(
        f"{lang} {len(words)} (+{len(words - shipped.common[lang])} -{len(shipped.common[lang] - words)} "
        "against the shipped list)"
        for lang, words in lists.common.items()
    )
    print(f"stoplist: {args.stoplist}; common words: {sizes}")
    params = LexiconParams(min_city_population=args.min_city_population, high_recall=args.high_recall)
    detector = LexiconDetector(params)
    corpora = {
        "physionet": list(physionet(args.data / "physionet_deid")),
        "eds": list(eds(args.data / "eds_pseudo_fr_synth" / "dev.jsonl")),
    }
    detector.detect(Document("warm-up", "Dr Smith from Paris", {"lang": "en"}))
    print(f"params: {params}")
    for name, corpus in corpora.items():
        figures, speed = score(corpus, detector)
        print(
            f"== {name}: {len(corpus)} notes, {speed:.0f} notes/s (process CPU time, one core, lists loaded)"
        )
        for key, value in figures.items():
            print(f"  {key:32s} {value:.3f}" if value <= 1 else f"  {key:32s} {value:.0f}")


if __name__ == "__main__":
    main()
