r"""One patient-level fold: a MiniLM token classifier against the CRF tagger + patterns, and their union.

    HF_HUB_OFFLINE=1 python benchmarks/token_classifier_fold.py --fold 0 --max-steps 150 --lr 2e-4 \
        --threads 1 --save /tmp/tc/fold0 --out tc_fold0.json      # ~13 min on one free core
    HF_HUB_OFFLINE=1 python benchmarks/token_classifier_fold.py --model /tmp/tc/fold0   # re-score, ~2 min

Same split as ``tagger_cv.py`` (5 folds grouped by patient, ``recipe.folds``): the fold's notes are the
test side, the other folds' notes (plus their surrogate-filled copies, as the CRF) the training side.
Variants: ``transformer`` (the fine-tuned classifier through the ``huggingface`` detector),
``patterns+tagger`` (the default detectors with the fold's CRF: its default threshold, its hints) and
``union`` (both, merged with ``merge_spans``), and both again with the transformer's spans cut at
``--min-scores``. The ``huggingface`` detector reads notes in pieces of at most 500 characters (cut after a
space; its ``chunk_chars``): the pipeline silently truncates longer input, and its own ``stride`` windows
misplace entities of later windows (seen with transformers 5.23). Token recall / precision as
``anonymed evaluate detection``. Inference speed: CPU seconds (``time.process_time``, ``--threads`` torch
threads, after one warm-up note) of the transformer's prediction on the test notes, and of the default
detectors (the fold's CRF + patterns, one view per note as the pipeline runs them) on the same notes.
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
from anonymed.detect.plugins import HuggingFaceDetector
from anonymed.detect.registry import DEFAULT_DETECTORS, build_detector
from anonymed.detect.view import NoteView
from anonymed.document import Document, Span
from anonymed.evaluate.detection import evaluate_detection
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
from anonymed.train.token_classifier import TokenClassifierParams, TokenClassifierTrainer, token_pipeline
from shared_detect import merged_spans

Pairs = list[tuple[Document, list[Span]]]


def default_spans(folder: Path, test: list[Document]) -> tuple[Pairs, float]:
    """The default detectors (the CRF in ``folder`` + patterns, one view per note, as the pipeline runs
    them: the tagger with its hints) on ``test``, and their CPU seconds after one warm-up note."""
    tagger, patterns = build_detector("tagger", {"model": str(folder)}), build_detector("patterns")
    named = {"tagger": tagger, "patterns": patterns}
    detectors = [named[name] for name in DEFAULT_DETECTORS]
    for detector in detectors:
        detector.detect(test[0])
    pairs: Pairs = []
    begun = time.process_time()
    for doc in test:
        pairs.append((doc, merged_spans(NoteView(doc), detectors)))
    return pairs, time.process_time() - begun


def crf_spans(
    recipe: RecognizerRecipe, docs: list[Document], test: list[Document], wiki: Any
) -> tuple[Pairs, float]:
    """The fold's CRF (trained as tagger_cv trains it) in the default detectors on the test notes, and their
    CPU seconds (``default_spans``)."""
    with tempfile.TemporaryDirectory() as tmp:
        lexicons = recipe_lexicons(recipe, wiki)
        train_with_recipe(recipe, docs, lexicons, Path(tmp), clusters=recipe_clusters(recipe))
        return default_spans(Path(tmp), test)


def scores(pairs: Pairs) -> dict[str, Any]:
    """Overall and per-label token recall / precision."""
    report = evaluate_detection(pairs)
    rows = {"overall": report.overall, **{r.key: r for r in report.by_label}}
    return {
        key: {"recall": r.tokens.recall, "precision": r.tokens.precision, "support": r.tokens.support}
        for key, r in rows.items()
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Train both models on the fold's training side and score the three variants on its test side."""
    recipe = RecognizerRecipe(args.lang)
    dev, wiki = dev_documents(recipe), wikiann_documents(recipe)
    fold_of = folds(dev, args.folds)
    train, test = split_fold(dev, fold_of, args.fold)
    assert not {d.patient_id for d in train} & {d.patient_id for d in test}, "patient on both sides"
    docs = training_documents(recipe, train, wiki, seed=args.fold)
    started = time.perf_counter()
    crf, crf_cpu = crf_spans(recipe, docs, test, wiki)
    crf_seconds = time.perf_counter() - started
    print(f"CRF fold trained and applied in {crf_seconds:.0f} s", file=sys.stderr)
    params = TokenClassifierParams(
        epochs=args.epochs,
        batch_size=args.batch_size,
        learning_rate=args.lr,
        max_steps=args.max_steps,
        threads=args.threads,
        phi_weight=args.phi_weight,
    )
    tc_docs = docs if args.copies else train

    def report(step: int, total: int, loss: float) -> None:
        if step % 50 == 0 or step == total:
            elapsed = time.perf_counter() - started - crf_seconds
            print(f"step {step}/{total} loss {loss:.4f} ({elapsed:.0f} s)", file=sys.stderr)

    if args.model is None:
        trainer = TokenClassifierTrainer(params=params, random_state=args.fold).fit(tc_docs, on_step=report)
        model, tokenizer, steps = trainer.model_, trainer.tokenizer_, trainer.steps_
        if args.save is not None:
            trainer.save(args.save)
    else:
        from transformers import AutoModelForTokenClassification, AutoTokenizer

        model = AutoModelForTokenClassification.from_pretrained(str(args.model), local_files_only=True)
        tokenizer, steps = AutoTokenizer.from_pretrained(str(args.model), local_files_only=True), None
    train_seconds = time.perf_counter() - started - crf_seconds
    import torch

    torch.set_num_threads(args.threads)  # a saved model (--model) skips the trainer, which sets it
    detector = HuggingFaceDetector.with_pipeline(token_pipeline(model, tokenizer, stride=None))
    detector.detect(test[0])
    begun = time.process_time()
    transformer = [(doc, detector.detect(doc)) for doc in test]
    cpu = time.process_time() - begun
    print(
        f"inference on {len(test)} notes, {args.threads} torch thread(s): transformer {len(test) / cpu:.1f} "
        f"notes per CPU second, default detectors {len(test) / crf_cpu:.1f}; the transformer takes "
        f"{cpu / crf_cpu:.1f}x their CPU time"
    )
    union = [
        (doc, merge_spans(doc.text, [*base, *extra]))
        for (doc, base), (_, extra) in zip(crf, transformer, strict=True)
    ]
    variants = {"patterns+tagger": crf, "transformer": transformer, "union": union}
    for cut in args.min_scores:  # the plug-in's min_score: transformer spans below it are dropped
        kept = [(doc, [s for s in spans if s.score >= cut]) for doc, spans in transformer]
        variants[f"transformer@{cut}"] = kept
        variants[f"union@{cut}"] = [
            (doc, merge_spans(doc.text, [*base, *extra]))
            for (doc, base), (_, extra) in zip(crf, kept, strict=True)
        ]
    result = {
        "fold": args.fold,
        "train_notes": len(train),
        "train_documents": len(tc_docs),
        "test_notes": len(test),
        "steps": steps,
        "train_seconds": round(train_seconds, 1),
        "notes_per_cpu_second": round(len(test) / cpu, 2),
        "default_notes_per_cpu_second": round(len(test) / crf_cpu, 2),
        "params": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
        "variants": {name: scores(pairs) for name, pairs in variants.items()},
    }
    for name, rows in result["variants"].items():
        o = rows["overall"]
        print(f"{name:16s} recall {o['recall']} precision {o['precision']}")
    return result


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=("en",), default="en")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--fold", type=int, default=0)
    parser.add_argument("--epochs", type=float, default=TokenClassifierParams.epochs)
    parser.add_argument("--batch-size", type=int, default=TokenClassifierParams.batch_size)
    parser.add_argument("--lr", type=float, default=TokenClassifierParams.learning_rate)
    parser.add_argument("--max-steps", type=int, default=None)
    parser.add_argument("--phi-weight", type=float, default=TokenClassifierParams.phi_weight)
    parser.add_argument("--threads", type=int, default=TokenClassifierParams.threads)
    parser.add_argument(
        "--copies",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="train the transformer on the surrogate-filled copies too (as the CRF)",
    )
    parser.add_argument("--min-scores", type=float, nargs="*", default=[0.9, 0.97, 0.99])
    parser.add_argument(
        "--model", type=Path, default=None, help="evaluate this saved fold model (no training)"
    )
    parser.add_argument("--save", type=Path, default=None, help="write the fold's classifier folder here")
    parser.add_argument("--out", type=Path, default=None, help="write the figures as JSON here")
    args = parser.parse_args()
    result = run(args)
    if args.out is not None:
        args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
