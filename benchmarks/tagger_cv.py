"""Patient-level cross-validation of the PHI tagger, alone and in the ensemble, per label.

    python benchmarks/tagger_cv.py --lang en --folds 5 --out cv_en.json

Groups are patients (PhysioNet) or notes (EDS-pseudo, which has no patient id): no patient is ever in both
the training and the test side of a fold. Each fold trains on the other folds' notes, their surrogate-filled
copies and the WikiANN sentences of the recipe; the test notes are the fold's real notes only.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from anonymed.detect.merge import merge_spans
from anonymed.detect.registry import build_detector
from anonymed.detect.tagger.detector import TaggerDetector, TaggerParams
from anonymed.detect.tagger.model import TrainingParams
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
    seen = {r.key for r in rows if r.tokens.support}
    keys = ["overall", *sorted(seen)]
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


def _misses(pairs: list[tuple[Document, list[Span]]]) -> list[dict[str, Any]]:
    """Gold spans not fully covered by a predicted span, with a little context (for error analysis)."""
    rows = []
    for doc, spans in pairs:
        for gold in doc.gold:
            covered = any(s.start <= gold.start and s.end >= gold.end for s in spans)
            if not covered:
                context = doc.text[max(0, gold.start - 40) : gold.end + 40].replace("\n", " / ")
                rows.append({"doc": doc.id, "label": gold.full_label, "text": gold.text, "context": context})
    return rows


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Train one model per fold, predict the held-out notes, score every variant."""
    recipe = RecognizerRecipe(
        args.lang,
        data=args.data,
        synthetic_copies=args.copies,
        wikiann_sentences=args.wikiann,
        training=TrainingParams(max_iterations=args.iterations),
        clusters=None if args.clusters is None else tuple(k for k in args.clusters if k > 0),
        triggers=None if args.triggers is None else args.triggers == "on",
    )
    dev, wiki = dev_documents(recipe), wikiann_documents(recipe)
    lexicons = recipe_lexicons(recipe, wiki)
    clusters = recipe_clusters(recipe)
    fold_of = folds(dev, args.folds)
    rule_specs: tuple[tuple[str, dict[str, Any]], ...] = (("patterns", {}), ("lexicons", {}))
    others = [build_detector(name, params) for name, params in rule_specs]
    variants = {f"tagger@{t}": TaggerDetector(TaggerParams(threshold=t)) for t in args.thresholds}
    both = ("NAME", "LOCATION")
    extras = {  # decoding options against the old decoding ("plain": propagate names only, no initials)
        "plain": {"propagate_labels": ("NAME",), "initials": False},
        "locprop": {"propagate_labels": both, "initials": False},
        "initials": {"propagate_labels": ("NAME",), "initials": True},
        "extras": {"propagate_labels": both, "initials": True},
    }
    extra = {
        (name, t): TaggerDetector(TaggerParams(threshold=t, **options))  # type: ignore[arg-type]
        for name, options in extras.items()
        for t in args.thresholds
    }
    preds: Predictions = {
        name: []
        for name in [
            "patterns+lexicons",
            *variants,
            *(f"ensemble@{t}" for t in args.thresholds),
            *(f"patterns+tagger@{t}" for t in args.thresholds),
            *(f"patterns+tagger+{name}@{t}" for name, t in extra),
        ]
    }
    started = time.perf_counter()
    for k in args.only or range(args.folds):
        train, test = split_fold(dev, fold_of, k)
        docs = training_documents(recipe, train, wiki, seed=k)
        with tempfile.TemporaryDirectory() as tmp:
            model = train_with_recipe(recipe, docs, lexicons, Path(tmp), clusters=clusters)
            for doc in test:
                tokens, marginals = model.marginals(doc)
                base = [s for det in others if det.supports(doc.lang) for s in det.detect(doc)]
                preds["patterns+lexicons"].append((doc, base))
                for t in args.thresholds:
                    spans = variants[f"tagger@{t}"].decode(doc.text, tokens, marginals, lang=doc.lang)
                    preds[f"tagger@{t}"].append((doc, spans))
                    preds[f"ensemble@{t}"].append((doc, merge_spans(doc.text, [*base, *spans])))
                    patterns_only = [s for s in base if s.source == "patterns"]
                    preds[f"patterns+tagger@{t}"].append(
                        (doc, merge_spans(doc.text, [*patterns_only, *spans]))
                    )
                    for name in extras:
                        spans = extra[name, t].decode(doc.text, tokens, marginals, lang=doc.lang)
                        preds[f"patterns+tagger+{name}@{t}"].append(
                            (doc, merge_spans(doc.text, [*patterns_only, *spans]))
                        )
        print(f"fold {k + 1}/{args.folds} done ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    reports = {name: evaluate_detection(pairs) for name, pairs in preds.items()}
    print(_table(reports))
    if args.misses is not None:
        misses = _misses(preds["patterns+tagger@0.8"]) if "patterns+tagger@0.8" in preds else []
        args.misses.write_text("".join(json.dumps(m) + "\n" for m in misses), encoding="utf-8")
    return {
        "recipe": recipe.describe(),
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
    parser.add_argument("--thresholds", type=float, nargs="+", default=[0.5, 0.8, 0.95])
    parser.add_argument("--copies", type=int, default=RecognizerRecipe.synthetic_copies)
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
    parser.add_argument("--misses", type=Path, default=None, help="write the default's missed gold spans")
    parser.add_argument("--out", type=Path, default=None, help="write the full reports as JSON here")
    args = parser.parse_args()
    result = run(args)
    if args.out is not None:
        args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
