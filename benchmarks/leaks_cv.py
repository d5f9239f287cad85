"""The leak table of every profile: patient-level cross-validated detection, and the shipped model.

    python benchmarks/leaks_cv.py --lang en --folds 5 --out leaks_en.json
    python benchmarks/leaks_cv.py --lang fr --folds 5 --out leaks_fr.json

The shipped tagger models were trained on the same development notes (PhysioNet for English, EDS-pseudo
for French), so their miss rate there is optimistic. This benchmark therefore measures the leak rate with
detection cross-validated by patient (as ``tagger_cv.py``; EDS-pseudo has no patient id: by note): each
fold's tagger is trained on the other folds (``anonymed.train.recipe``), and every profile anonymizes the
held-out notes with it (tagger + patterns, the default detectors). It also gives the shipped model's
figures on all the notes, labelled as such. A gold item leaks when its text can still be read at its
place in the output (``anonymed.evaluate.leaks``); leaks are split into "missed by detection" and
"detected but written back".
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.evaluate.leaks import Anonymized, LeakReport, evaluate_leaks, from_run
from anonymed.pipeline import Pipeline
from anonymed.profiles import DEFAULT_PROFILE, profile_names
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


def anonymize(
    docs: list[Document], lang: str, profile: str, model: Path | None, key: bytes
) -> list[Anonymized]:
    """The notes anonymized with ``profile`` (and the tagger model at ``model``, else the shipped one)."""
    params = {} if model is None else {"tagger": {"model": str(model)}}
    pipeline = Pipeline(PipelineConfig(lang=lang, profile=profile, detector_params=params, patient_key=key))
    return [from_run(doc, pipeline.run(doc.evolve(spans=()))) for doc in docs]


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Cross-validated and shipped-model leak reports of every profile."""
    recipe = RecognizerRecipe(args.lang)
    dev = dev_documents(recipe)
    wiki = wikiann_documents(recipe)
    lexicons, clusters = recipe_lexicons(recipe, wiki), recipe_clusters(recipe)
    fold_of = folds(dev, args.folds)
    key = secrets.token_bytes(32)  # one patient key per run: a patient's notes share their surrogates
    cv: dict[str, list[Anonymized]] = {name: [] for name in args.profiles}
    started = time.perf_counter()
    for k in range(args.folds):
        train, test = split_fold(dev, fold_of, k)
        with tempfile.TemporaryDirectory() as tmp:
            train_with_recipe(recipe, training_documents(recipe, train, wiki, seed=k), lexicons, Path(tmp),
                              clusters=clusters)  # fmt: skip
            for name in args.profiles:
                cv[name] += anonymize(test, args.lang, name, Path(tmp), key)
        print(f"fold {k + 1}/{args.folds} done ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    shipped = {name: anonymize(dev, args.lang, name, None, key) for name in args.profiles}
    reports = {
        "cross-validated": {name: evaluate_leaks(notes) for name, notes in cv.items()},
        "shipped model (trained on these notes)": {name: evaluate_leaks(n) for name, n in shipped.items()},
    }
    for title, by_profile in reports.items():
        print(f"\n{args.lang}, {title}, {len(dev)} notes\n")
        print(markdown(by_profile))
    return {
        "lang": args.lang,
        "folds": args.folds,
        "notes": len(dev),
        "seconds": round(time.perf_counter() - started, 1),
        "reports": {t: {n: r.to_json() for n, r in by.items()} for t, by in reports.items()},
    }


def markdown(reports: dict[str, LeakReport]) -> str:
    """One row per category: items, then per profile the leak rate (missed / written back)."""
    names = list(reports)
    lines = ["| category | items | " + " | ".join(names) + " |", "|---|---:|" + "---:|" * len(names)]
    for key in reports[names[0]].categories():
        found = [reports[name].category(key) for name in names]
        items = next((c.items for c in found if c is not None), 0)
        lines.append(
            f"| {key} | {items} | " + " | ".join("-" if c is None else c.cell() for c in found) + " |"
        )
    return "\n".join(lines)


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=("en", "fr"), default="en")
    parser.add_argument("--folds", type=int, default=5)
    default_first = [DEFAULT_PROFILE, *(n for n in profile_names() if n != DEFAULT_PROFILE)]
    parser.add_argument("--profiles", nargs="+", default=default_first)
    parser.add_argument("--out", type=Path, default=None, help="write the reports as JSON here")
    args = parser.parse_args()
    result = run(args)
    if args.out is not None:
        args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
