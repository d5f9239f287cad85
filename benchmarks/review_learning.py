"""The learning loop measured: gold "reviews" of 100 notes added with ``--extra``, recall on unseen patients.

    python benchmarks/review_learning.py --folds 5 --extra-notes 100 [--base-notes 300] [--only 0 1]

On the PhysioNet deid development notes shipped in the package, with the patient-level folds of
``benchmarks/tagger_cv.py`` (``anonymed.train.recipe.folds``): for each fold, the test side is the fold's
notes (patients never seen in training). From the training side, whole patients are drawn (seeded by the
fold) until ``--extra-notes`` notes are reached: their notes play the reviewed sample. Their gold is written
as an annotations file in the format ``anonymed review export`` writes (``{id, text, lang, spans}``) and
read back by the reader ``anonymed train recognizer --extra`` uses; the drawn patients' other notes are
dropped. The **base** is the rest of the training side (or ``--base-notes`` notes of other whole patients,
a smaller base: a model trained elsewhere, with less data); the extra notes are new to it. Two CRFs are
trained with the shipped recipe (surrogate-filled copies included): *before* on the base, *after* on the
base plus the extra notes; both predict the test notes, alone (``tagger``) and with the default detectors
(tagger + patterns, merged as the pipeline does). The benchmark prints token recall / precision (the code
of ``anonymed evaluate detection``) before and after, and their difference.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from anonymed.detect.registry import DEFAULT_DETECTORS, build_detector
from anonymed.detect.view import NoteView
from anonymed.document import Document, Span
from anonymed.evaluate.detection import evaluate_detection
from anonymed.review.learning import detection_scores
from anonymed.train.recipe import (
    RecognizerRecipe,
    dev_documents,
    extra_documents,
    folds,
    group_of,
    recipe_clusters,
    recipe_lexicons,
    split_fold,
    train_with_recipe,
    training_documents,
    wikiann_documents,
)
from shared_detect import merged_spans

Pairs = list[tuple[Document, list[Span]]]


def draw_patients(train: list[Document], notes: int, seed: int) -> tuple[list[Document], list[Document]]:
    """``notes`` notes of whole patients drawn at random (the last patient's surplus is dropped), and the
    notes of the patients not drawn."""
    groups = sorted({group_of(doc) for doc in train})
    random.Random(seed).shuffle(groups)  # a fixed split of the evaluation, not a privacy-relevant draw
    drawn: list[Document] = []
    chosen: set[str] = set()
    for group in groups:
        if len(drawn) >= notes:
            break
        chosen.add(group)
        drawn += [doc for doc in train if group_of(doc) == group]
    rest = [doc for doc in train if group_of(doc) not in chosen]
    return drawn[:notes], rest


def write_annotations(docs: list[Document], path: Path) -> Path:
    """The gold of ``docs`` as an annotations file (the format of ``anonymed review export``)."""
    lines = []
    for doc in docs:
        spans = [
            {"start": s.start, "end": s.end, "label": s.label.value, "subtype": s.subtype} for s in doc.gold
        ]
        lines.append(json.dumps({"id": doc.id, "text": doc.text, "lang": doc.lang, "spans": spans}) + "\n")
    path.write_text("".join(lines), encoding="utf-8")
    return path


def _predict(folder: Path, test: list[Document], preds: dict[str, Pairs]) -> None:
    """The fold model's predictions on the test notes, alone and as the default detectors."""
    tagger = build_detector("tagger", {"model": str(folder)})
    named = {"tagger": tagger, "patterns": build_detector("patterns")}
    variants = {"tagger": [tagger], "default": [named[name] for name in DEFAULT_DETECTORS]}
    for doc in test:
        view = NoteView(doc)
        for name, detectors in variants.items():
            own = [det for det in detectors if det.supports(doc.lang)]
            preds.setdefault(name, []).append((doc, merged_spans(view, own)))


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def table(result: dict[str, dict[str, dict[str, Any]]]) -> str:
    """A markdown table: token recall / precision before and after, per variant and label."""
    lines = ["| variant, label | before R / P | after R / P | recall change |", "|---|---|---|---|"]
    for variant in ("tagger", "default"):
        before, after = result["before"][variant], result["after"][variant]
        for key in before:
            b, a = before[key], after[key]
            known = a["recall"] is not None and b["recall"] is not None
            change = f"{a['recall'] - b['recall']:+.4f}" if known else "-"
            lines.append(
                f"| {variant}, {key} (n={b['support']}) | {_fmt(b['recall'])} / {_fmt(b['precision'])} "
                f"| {_fmt(a['recall'])} / {_fmt(a['precision'])} | {change} |"
            )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Train before/after models per fold, predict the held-out notes, score both."""
    recipe = RecognizerRecipe("en")
    dev, wiki = dev_documents(recipe), wikiann_documents(recipe)
    lexicons, clusters = recipe_lexicons(recipe, wiki), recipe_clusters(recipe)
    fold_of = folds(dev, args.folds)
    preds: dict[str, dict[str, Pairs]] = {"before": {}, "after": {}}
    sizes = []
    started = time.perf_counter()
    for k in args.only or range(args.folds):
        train, test = split_fold(dev, fold_of, k)
        reviewed, rest = draw_patients(train, args.extra_notes, seed=k)
        base = rest if args.base_notes is None else draw_patients(rest, args.base_notes, seed=100 + k)[0]
        with tempfile.TemporaryDirectory() as tmp:
            path = write_annotations(reviewed, Path(tmp) / "annotations.jsonl")
            extra = extra_documents(RecognizerRecipe("en", extra=(path,)))  # read as --extra reads it
            for phase, docs in (("before", base), ("after", [*base, *extra])):
                folder = Path(tmp) / phase
                training = training_documents(recipe, docs, wiki, seed=k)
                train_with_recipe(recipe, training, lexicons, folder, clusters=clusters)
                _predict(folder, test, preds[phase])
        sizes.append({"fold": k, "base": len(base), "extra": len(extra), "test": len(test)})
        print(f"fold {k}: {sizes[-1]} ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    result = {
        phase: {name: detection_scores(evaluate_detection(pairs)) for name, pairs in by_variant.items()}
        for phase, by_variant in preds.items()
    }
    print(table(result))
    return {"folds": args.folds, "only": args.only, "sizes": sizes, **result}


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--extra-notes", type=int, default=100, help="notes of the simulated review")
    parser.add_argument("--base-notes", type=int, default=None, help="a smaller base (default: the rest)")
    parser.add_argument("--only", type=int, nargs="+", default=None, help="run only these folds")
    parser.add_argument("--json", type=Path, default=None, help="write the figures as JSON here")
    args = parser.parse_args()
    result = run(args)
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
