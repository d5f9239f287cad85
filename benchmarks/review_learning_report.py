"""The learning loop through the review commands: review, export --holdout, retrain, report before/after.

    python benchmarks/review_learning_report.py [--base-notes 200] [--n 200] [--holdout 0.5] [--seed 0]

On the PhysioNet deid development notes shipped in the package: a *before* tagger is trained with the
shipped recipe on ``--base-notes`` notes of whole patients (``review_learning.draw_patients``); the other
patients' notes are the input of a review. ``anonymed review sample``'s code draws ``--n`` notes (default
design, default detectors with the before model); the gold plays the reviewer through the decision log
(a detected span overlapping gold is accepted, relabelled to the gold label if it differs, else
rejected; a gold identifier overlapping no detected span is marked; every note is finished);
``review export --holdout`` writes the annotations of all but the held-out share; the *after* tagger is
trained on the base plus those annotations, read as ``train recognizer --extra`` reads them; both get a
training fingerprint. Then ``review report --before-model --after-model``'s code scores both on the
held-out reviewed notes, with the reviewers' decisions as gold, and the benchmark prints its figures.
The hold-out is a random share of notes, not of patients: a held-out note may share its patient with a
training note, as it would in a real review (the review folder knows no patient).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from anonymed.config import PipelineConfig
from anonymed.detect.registry import DEFAULT_DETECTORS
from anonymed.document import Document
from anonymed.io.registry import open_reader
from anonymed.randomness import check_random_state
from anonymed.review.decisions import DecisionLog, Event
from anonymed.review.export import export
from anonymed.review.folder import ReviewFolder
from anonymed.review.report import build_report
from anonymed.review.sample import SampleOptions, build_review
from anonymed.train.fingerprint import write_fingerprint
from anonymed.train.recipe import (
    RecognizerRecipe,
    dev_documents,
    extra_documents,
    recipe_clusters,
    recipe_lexicons,
    train_with_recipe,
    training_documents,
    wikiann_documents,
)
from review_learning import draw_patients


def gold_review(folder: ReviewFolder, gold: dict[str, Document]) -> dict[str, int]:
    """The gold plays the reviewer of every sampled note; returns what it did."""
    log = DecisionLog(folder.decisions_path)
    done = {"accepted": 0, "relabelled": 0, "rejected": 0, "marked": 0, "not_markable": 0}
    for note in folder.notes:
        spans = gold[note.id].gold
        for span in note.spans:
            hits = [g for g in spans if g.start < span.end and span.start < g.end]
            if not hits:
                log.append(Event("gold", note.key, "reject", span.start, span.end), note)
                done["rejected"] += 1
            elif hits[0].label != span.label:
                log.append(
                    Event("gold", note.key, "relabel", span.start, span.end, hits[0].label.value), note
                )
                done["relabelled"] += 1
            else:
                log.append(Event("gold", note.key, "accept", span.start, span.end), note)
                done["accepted"] += 1
        for g in spans:
            if any(s.start < g.end and g.start < s.end for s in note.spans):
                continue
            if not any(c.isalnum() for c in note.text[g.start : g.end]):
                done["not_markable"] += 1
                continue
            log.append(Event("gold", note.key, "mark", g.start, g.end, g.label.value), note)
            done["marked"] += 1
        log.append(Event("gold", note.key, "done"), note)
    return done


def train(recipe: RecognizerRecipe, docs: list[Document], folder: Path, seed: int, shared: Any) -> None:
    """A CRF with the shipped recipe on ``docs`` (and the recipe's WikiANN sentences), fingerprinted."""
    wiki, lexicons, clusters = shared
    train_with_recipe(
        recipe, training_documents(recipe, docs, wiki, seed=seed), lexicons, folder, clusters=clusters
    )
    write_fingerprint(folder, docs)


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Train before, review, export with a hold-out, train after, report."""
    started = time.perf_counter()
    recipe = RecognizerRecipe("en")
    dev, wiki = dev_documents(recipe), wikiann_documents(recipe)
    shared = (wiki, recipe_lexicons(recipe, wiki), recipe_clusters(recipe))
    base, rest = draw_patients(dev, args.base_notes, seed=100 + args.seed)
    gold = {doc.id: doc for doc in rest}
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        train(recipe, base, tmp / "before", args.seed, shared)
        source = tmp / "notes.jsonl"
        source.write_text(
            "".join(json.dumps({"id": d.id, "text": d.text}) + "\n" for d in rest), encoding="utf-8"
        )
        config = PipelineConfig(
            detectors=DEFAULT_DETECTORS, detector_params={"tagger": {"model": str(tmp / "before")}}
        )
        build_review(
            open_reader(source),
            config,
            SampleOptions(n=args.n),
            tmp / "review",
            check_random_state(args.seed),
        )
        folder = ReviewFolder(tmp / "review")
        decisions = gold_review(folder, gold)
        exported = export(folder, tmp / "out", holdout=args.holdout, rng=check_random_state(args.seed))
        extra = extra_documents(RecognizerRecipe("en", extra=(tmp / "out" / "annotations.jsonl",)))
        train(recipe, [*base, *extra], tmp / "after", args.seed, shared)
        report = build_report(folder, models=(tmp / "before", tmp / "after"))
    learning = report["learning"]
    for key in ("before_model", "after_model"):
        learning.pop(key)
    result = {
        "base_notes": len(base),
        "input_notes": len(rest),
        "reviewed": len(folder.notes),
        "decisions": decisions,
        "exported": exported.to_json(),
        "learning": learning,
        "seconds": round(time.perf_counter() - started),
    }
    print(json.dumps({k: v for k, v in result.items() if k != "learning"}, indent=1))
    print(f"held-out reviewed notes: {learning['held_out_notes']}, gold tokens {learning['gold_tokens']}")
    print("| detectors, label | before R / P | after R / P | recall change |\n|---|---|---|---|")
    for variant, figures in learning["variants"].items():
        for key, b in figures["before"].items():
            a = figures["after"].get(key, {"recall": None, "precision": None})
            change = (
                "-" if a["recall"] is None or b["recall"] is None else f"{a['recall'] - b['recall']:+.4f}"
            )
            print(
                f"| {variant}, {key} (n={b['support']}) | {_fmt(b['recall'])} / {_fmt(b['precision'])} "
                f"| {_fmt(a['recall'])} / {_fmt(a['precision'])} | {change} |"
            )
    return result


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-notes", type=int, default=200, help="notes the before model is trained on")
    parser.add_argument("--n", type=int, default=200, help="notes of the review")
    parser.add_argument("--holdout", type=float, default=0.5, help="share of reviewed notes held out")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None, help="write the figures as JSON here")
    args = parser.parse_args()
    result = run(args)
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
