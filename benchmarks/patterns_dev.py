"""Token-level precision and recall of the pattern detector alone on the development splits.

Usage: python benchmarks/patterns_dev.py --data DATA [--high-recall] [--errors LABEL]

Tokens are the alphanumeric runs of the text; a token is gold for a group when it overlaps a gold span of one
of the group's corpus labels, predicted when it overlaps a predicted span whose (label, subtype) the group
accepts. The data are parsed here directly (PhysioNet deid id.text + id-phi.phrase, EDS-pseudo dev.jsonl).
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from anonymed.detect.patterns.detector import PatternDetector, PatternParams
from anonymed.document import Span
from anonymed.labels import Label

_TOKEN = re.compile(r"[^\W_]+")
_RECORD = re.compile(r"START_OF_RECORD=(\d+)\|\|\|\|(\d+)\|\|\|\|\n(.*?)\|\|\|\|END_OF_RECORD", re.S)

Gold = list[tuple[int, int, str]]
Accept = Callable[[Span], bool]


@dataclass(frozen=True)
class Group:
    """One evaluated row: the corpus labels that are gold, and the predictions that count."""

    name: str
    gold: frozenset[str]
    accept: Accept
    recall_only: bool = False  # other gold labels share the predicted label, so precision means nothing


def _is(label: Label, *subtypes: str | None, exclude: tuple[str, ...] = ()) -> Accept:
    def accept(span: Span) -> bool:
        if span.label is not label or span.subtype in exclude:
            return False
        return not subtypes or span.subtype in subtypes

    return accept


def physionet(root: Path) -> Iterator[tuple[str, str, Gold]]:
    """(id, text, gold spans) for each note of the PhysioNet deid development split."""
    base = root / "physionet_deid"
    notes = {(m[1], m[2]): m[3] for m in _RECORD.finditer((base / "id.text").read_text(encoding="ascii"))}
    gold: dict[tuple[str, str], Gold] = {key: [] for key in notes}
    for line in (base / "id-phi.phrase").read_text(encoding="ascii").splitlines():
        pid, note, start, end, category = line.split(" ", 5)[:5]
        gold[(pid, note)].append((int(start), int(end), category))
    for key, text in notes.items():
        yield f"{key[0]}-{key[1]}", text, gold[key]


def eds(root: Path) -> Iterator[tuple[str, str, Gold]]:
    """(id, text, gold spans) for each snippet of the EDS-pseudo development split."""
    for line in (root / "eds_pseudo_fr_synth" / "dev.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        spans = [(e["start"], e["end"], e["label"]) for e in record["entities"]]
        yield record["note_id"], record["note_text"], spans


PHYSIONET_GROUPS = (
    Group(
        "DATE (Date+DateYear; no times)", frozenset({"Date", "DateYear"}), _is(Label.DATE, exclude=("time",))
    ),
    Group("DATE incl. times", frozenset({"Date", "DateYear"}), _is(Label.DATE)),
    Group("Phone", frozenset({"Phone"}), _is(Label.CONTACT)),
    Group("Age (AGE/over89)", frozenset({"Age"}), _is(Label.AGE, "over89")),
    Group("Age (any AGE)", frozenset({"Age"}), _is(Label.AGE)),
)
EDS_GROUPS = (
    Group(
        "DATE+DATE_NAISSANCE (no times)",
        frozenset({"DATE", "DATE_NAISSANCE"}),
        _is(Label.DATE, exclude=("time",)),
    ),
    Group("DATE (recall)", frozenset({"DATE"}), _is(Label.DATE, exclude=("time",)), recall_only=True),
    Group(
        "DATE_NAISSANCE (recall, any DATE)", frozenset({"DATE_NAISSANCE"}), _is(Label.DATE), recall_only=True
    ),
    Group("DATE_NAISSANCE (DATE/birth)", frozenset({"DATE_NAISSANCE"}), _is(Label.DATE, "birth")),
    Group("TEL", frozenset({"TEL"}), _is(Label.CONTACT, "phone", "fax")),
    Group("MAIL", frozenset({"MAIL"}), _is(Label.CONTACT, "email", "url")),
    Group("ID (SECU+IPP+NDA)", frozenset({"SECU", "IPP", "NDA"}), _is(Label.ID)),
    Group("SECU (recall, any ID)", frozenset({"SECU"}), _is(Label.ID), recall_only=True),
    Group("IPP (recall, any ID)", frozenset({"IPP"}), _is(Label.ID), recall_only=True),
    Group("NDA (recall, any ID)", frozenset({"NDA"}), _is(Label.ID), recall_only=True),
    Group("ZIP", frozenset({"ZIP"}), _is(Label.LOCATION, "zip")),
)


def _tokens(text: str, spans: list[tuple[int, int]]) -> set[int]:
    """Start offsets of the tokens that overlap one of ``spans``."""
    found: set[int] = set()
    for token in _TOKEN.finditer(text):
        if any(start < token.end() and token.start() < end for start, end in spans):
            found.add(token.start())
    return found


def evaluate(
    docs: Iterator[tuple[str, str, Gold]],
    groups: tuple[Group, ...],
    detector: PatternDetector,
    lang: str,
    errors: str | None,
) -> None:
    """Print one row per group: gold tokens, predicted tokens, precision, recall, F1."""
    counts = {group.name: [0, 0, 0] for group in groups}
    recall_only = {group.name for group in groups if group.recall_only}
    for doc_id, text, gold in docs:
        predicted = detector.detect_text(text, lang)
        for group in groups:
            gold_tokens = _tokens(text, [(s, e) for s, e, label in gold if label in group.gold])
            pred_tokens = _tokens(text, [(s.start, s.end) for s in predicted if group.accept(s)])
            row = counts[group.name]
            row[0] += len(gold_tokens)
            row[1] += len(pred_tokens)
            row[2] += len(gold_tokens & pred_tokens)
            if errors is not None and group.name.startswith(errors):
                _show_errors(doc_id, text, gold_tokens, pred_tokens)
    print(f"{'group':38} {'gold':>6} {'pred':>6} {'P':>6} {'R':>6} {'F1':>6}")
    for name, (n_gold, n_pred, n_hit) in counts.items():
        precision = n_hit / n_pred if n_pred else 0.0
        recall = n_hit / n_gold if n_gold else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        if name in recall_only:
            print(f"{name:38} {n_gold:6d} {'-':>6} {'-':>6} {recall:6.3f} {'-':>6}")
        else:
            print(f"{name:38} {n_gold:6d} {n_pred:6d} {precision:6.3f} {recall:6.3f} {f1:6.3f}")


def _show_errors(doc_id: str, text: str, gold: set[int], pred: set[int]) -> None:
    for kind, offsets in (("FN", gold - pred), ("FP", pred - gold)):
        for offset in sorted(offsets):
            context = text[max(0, offset - 40) : offset + 30].replace("\n", " ")
            print(f"  {kind} {doc_id} {offset}: {context!r}")


def main() -> None:
    """Parse arguments and print both corpora's tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data", type=Path, required=True, help="data root with physionet_deid/ and eds_pseudo_fr_synth/"
    )
    parser.add_argument("--high-recall", action="store_true")
    parser.add_argument("--times", action="store_true", help="also report clock times (off by default)")
    parser.add_argument("--errors", help="print the errors of the groups whose name starts with this text")
    args = parser.parse_args()
    detector = PatternDetector(PatternParams(high_recall=args.high_recall, times=args.times))
    print(f"PhysioNet deid dev (English), high_recall={args.high_recall}, times={args.times}")
    evaluate(physionet(args.data), PHYSIONET_GROUPS, detector, "en", args.errors)
    print(f"\nEDS-pseudo dev (French), high_recall={args.high_recall}")
    evaluate(eds(args.data), EDS_GROUPS, detector, "fr", args.errors)


if __name__ == "__main__":
    main()
