"""Patient-level cross-validation of the PHI tagger, alone and as the default detectors run it, per label.

    python benchmarks/tagger_cv.py --lang en --folds 5 --out cv_en.json --errors errors_en.json

Groups are patients (PhysioNet) or notes (EDS-pseudo, which has no patient id): no patient is ever in both
the training and the test side of a fold. Each fold trains on the other folds' notes, their surrogate-filled
copies and the WikiANN sentences of the recipe; the test notes are the fold's real notes only. The
``default`` rows run the default detectors exactly as the pipeline does (one view per note, the shipped
merge), with the fold's model. ``--models DIR`` keeps each fold's model in ``DIR/fold-K`` and reuses it
on the next run (for exploring decoding and rules; retrain after changing the patterns, which are
features). ``--errors FILE`` writes the default's missed and false-positive tokens by family.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from anonymed.detect.base import Detector
from anonymed.detect.registry import DEFAULT_DETECTORS, build_detector
from anonymed.detect.tagger.clusters import WordClusters
from anonymed.detect.tagger.detector import TaggerParams
from anonymed.detect.tagger.family import write_ensemble
from anonymed.detect.tagger.features import FeatureLexicons
from anonymed.detect.tagger.model import DEFAULT_HINTS, TrainingParams
from anonymed.detect.view import NoteView
from anonymed.document import Document, Span
from anonymed.evaluate.detection import DetectionReport, evaluate_detection
from anonymed.train.recipe import (
    RecognizerRecipe,
    dev_documents,
    folds,
    recipe_clusters,
    recipe_lexicons,
    split_fold,
    train_with_recipe,
    training_documents,
    wikiann_documents,
)
from shared_detect import merged_spans
from tagger_cv_errors import errors, table

Predictions = dict[str, list[tuple[Document, list[Span]]]]


def _row(report: DetectionReport, key: str) -> dict[str, Any]:
    # a plain key ("LOCATION") is the whole label; a full-label row of a span without subtype has the same
    # key and must not replace it (it holds only the spans without subtype)
    rows = {r.key: r for r in report.by_full_label if "/" in r.key} | {r.key: r for r in report.by_label}
    row = report.overall if key == "overall" else rows[key]
    return {
        "recall": row.tokens.recall,
        "precision": row.tokens.precision,
        "support": row.tokens.support,
        "entity_recall": row.entities.recall,
    }


def _table(reports: dict[str, DetectionReport]) -> str:
    rows = [r for rep in reports.values() for r in (*rep.by_label, *rep.by_full_label)]
    keys = ["overall", *sorted({r.key for r in rows if r.tokens.support})]
    lines = [
        "| label | " + " | ".join(f"{name} R / P" for name in reports) + " |",
        "|---|" + "---|" * len(reports),
    ]
    for key in keys:
        cells = []
        for rep in reports.values():
            try:
                row = _row(rep, key)
            except KeyError:
                cells.append("-")
                continue
            r, p = row["recall"], row["precision"]
            cells.append(f"{'-' if r is None else f'{r:.4f}'} / {'-' if p is None else f'{p:.4f}'}")
        support = _row(next(iter(reports.values())), key)["support"] if key != "overall" else ""
        lines.append(f"| {key} {f'(n={support})' if support else ''} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _recipe(args: argparse.Namespace) -> RecognizerRecipe:
    return RecognizerRecipe(
        args.lang,
        data=args.data,
        synthetic_copies=args.copies,
        lowercase_copies=args.lowercase_copies,
        wikiann_sentences=args.wikiann,
        training=TrainingParams(max_iterations=args.iterations),
        clusters=None if args.clusters is None else tuple(k for k in args.clusters if k > 0),
        triggers=None if args.triggers is None else args.triggers == "on",
        hints=DEFAULT_HINTS if args.hints is None else tuple(h for h in DEFAULT_HINTS if h[0] in args.hints),
    )


@contextmanager
def _fold_folder(models: Path | None, k: int) -> Iterator[Path]:
    if models is not None:
        yield models / f"fold-{k}"
        return
    with tempfile.TemporaryDirectory() as tmp:
        yield Path(tmp)


def _progress(epoch: int, loss: float) -> None:
    print(f"  epoch {epoch} loss {loss:.1f}", file=sys.stderr)


def _train_fold(
    args: argparse.Namespace,
    recipe: RecognizerRecipe,
    docs: list[Document],
    lexicons: FeatureLexicons,
    clusters: WordClusters | None,
    root: Path,
) -> Path:
    """Train (or reuse) the fold's model of the family asked for; its folder. The CRF sits in ``root``,
    the CNN in ``root/cnn``, an ensemble of both in ``root/ensemble``."""
    if args.family in ("crf", "ensemble") and not (root / "meta.json").exists():
        train_with_recipe(recipe, docs, lexicons, root, clusters=clusters)
    if args.family in ("cnn", "ensemble") and not (root / "cnn" / "meta.json").exists():
        from anonymed.train.neural import NeuralParams, train_neural

        params = NeuralParams(epochs=args.epochs, hidden=args.hidden)
        train_neural(docs, lexicons, root / "cnn", params=params, hints=recipe.hints, on_epoch=_progress)
    if args.family == "crf":
        return root
    if args.family == "cnn":
        return root / "cnn"
    write_ensemble(root / "ensemble", {"..": 1.0 - args.cnn_weight, "../cnn": args.cnn_weight})
    return root / "ensemble"


def _decode(pairs: list[str]) -> dict[str, bool | float]:
    """Tagger decoding overrides from KEY=VALUE pairs (``propagate=false``, ``propagate_above=0.7``)."""
    overrides: dict[str, bool | float] = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        flags = {"true": True, "false": False}
        overrides[key] = flags[value.lower()] if value.lower() in flags else float(value)
    return overrides


def _detectors(args: argparse.Namespace, folder: Path) -> dict[str, list[Detector]]:
    """Each variant's detectors; the tagger reads the fold's model."""
    rules = [build_detector("patterns"), build_detector("lexicons"), build_detector("contexts")]
    variants: dict[str, list[Detector]] = {"patterns+lexicons": rules[:2]}
    for t in args.thresholds:
        tagger = build_detector("tagger", {"threshold": t, "model": str(folder), **_decode(args.decode)})
        variants[f"tagger@{t}"] = [tagger]
        named = {"tagger": tagger, "patterns": rules[0], "lexicons": rules[1], "contexts": rules[2]}
        variants[f"default@{t}"] = [named[name] for name in DEFAULT_DETECTORS]
        for extra in args.extra:
            variants[f"default+{extra}@{t}"] = [*variants[f"default@{t}"], named[extra]]
    return variants


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Train (or reuse) one model per fold, predict the held-out notes, score every variant."""
    recipe = _recipe(args)
    dev, wiki = dev_documents(recipe), wikiann_documents(recipe)
    lexicons = recipe_lexicons(recipe, wiki)
    clusters = recipe_clusters(recipe)
    fold_of = folds(dev, args.folds)
    preds: Predictions = {}
    started = time.perf_counter()
    for k in args.only or range(args.folds):
        train, test = split_fold(dev, fold_of, k)
        with _fold_folder(args.models, k) as root:
            docs = training_documents(recipe, train, wiki, seed=k)
            folder = _train_fold(args, recipe, docs, lexicons, clusters, root)
            variants = _detectors(args, folder)
            for doc in test:
                view = NoteView(doc)  # each detector runs once per note, for the hints and every variant
                for name, detectors in variants.items():
                    own = [det for det in detectors if det.supports(doc.lang)]
                    preds.setdefault(name, []).append((doc, merged_spans(view, own)))
        print(f"fold {k + 1}/{args.folds} done ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    reports = {name: evaluate_detection(pairs) for name, pairs in preds.items()}
    print(_table(reports))
    default = f"default@{TaggerParams.threshold}"
    if args.errors is not None and default in preds:
        found = errors(preds[default])
        print(f"\nmissed tokens of {default} by family\n" + table(found["missed"]))
        print(f"\nfalse-positive tokens of {default} by family\n" + table(found["false_positives"]))
        args.errors.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    return {
        "recipe": recipe.describe(),
        "family": args.family,
        "folds": args.folds,
        "only": args.only,
        "notes": len(dev),
        "seconds": round(time.perf_counter() - started, 1),
        "reports": {name: rep.to_json() for name, rep in reports.items()},
    }


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=("en", "fr"), default="en")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--thresholds", type=float, nargs="+", default=[TaggerParams.threshold])
    parser.add_argument("--copies", type=int, default=RecognizerRecipe.synthetic_copies)
    parser.add_argument(
        "--lowercase-copies",
        type=int,
        default=RecognizerRecipe.lowercase_copies,
        help="extra surrogate-filled copies of each training note written all in lower case",
    )
    parser.add_argument("--wikiann", type=int, default=RecognizerRecipe.wikiann_sentences)
    parser.add_argument(
        "--clusters", type=int, nargs="+", default=None, help="cluster sizes (0: none; default: recipe's)"
    )
    parser.add_argument("--triggers", choices=("on", "off"), default=None, help="default: the recipe's")
    parser.add_argument(
        "--only", type=int, nargs="+", default=None, help="run only these folds (quick exploration)"
    )
    parser.add_argument("--iterations", type=int, default=TrainingParams.max_iterations)
    parser.add_argument("--data", type=Path, default=None, help="training data root (default: shipped)")
    parser.add_argument("--models", type=Path, default=None, help="keep and reuse fold models here")
    parser.add_argument("--family", choices=("crf", "cnn", "ensemble"), default="crf")
    parser.add_argument(
        "--hints", nargs="*", default=None, choices=[name for name, _ in DEFAULT_HINTS], help="default: all"
    )
    parser.add_argument(
        "--extra", nargs="*", default=["lexicons"], choices=("lexicons", "contexts"), help="added to default"
    )
    parser.add_argument("--epochs", type=int, default=8, help="CNN training epochs")
    parser.add_argument("--hidden", type=int, default=128, help="CNN width")
    parser.add_argument("--cnn-weight", type=float, default=0.5, help="the CNN's weight in the ensemble")
    parser.add_argument(
        "--decode",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a tagger decoding parameter, e.g. propagate=false or initials=false (repeatable)",
    )
    parser.add_argument("--errors", type=Path, default=None, help="write the default's errors by family")
    parser.add_argument("--out", type=Path, default=None, help="write the full reports as JSON here")
    args = parser.parse_args()
    result = run(args)
    if args.out is not None:
        args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
