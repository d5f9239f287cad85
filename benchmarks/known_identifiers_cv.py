"""Known identifiers and a clinician roster on the PhysioNet development notes, by patient-level folds.

    python benchmarks/known_identifiers_cv.py --folds 5 --out known_cv.json [--models DIR] [--data ROOT]
    python benchmarks/known_identifiers_cv.py --shipped     # the shipped tagger (trained on these notes)
    python benchmarks/known_identifiers_cv.py --models DIR --allow allow.txt   # one more row: + an allow list
    python benchmarks/known_identifiers_cv.py --models DIR --false-positive-words 20   # + the commonest words

This measures the site-configuration feature in a hospital that has such records, not the model. A stand-in
for the patient registry: each patient's own names and relatives' names are taken from the gold annotations
of that patient's notes (NAME/patient and NAME/relative spans; initials-only spans left out, as a registry
holds names, not initials) and given to every note of the patient as ``metadata["known"]``. A stand-in for
the staff roster: the clinician names (NAME/clinician gold spans) of the *training* folds only, so a
clinician who appears only in the test fold is not in it. Each fold's tagger is trained on the other
folds (as ``tagger_cv.py``; ``--shipped`` uses the shipped model, trained on all these notes: optimistic
baseline). Rows: the default detectors (tagger + patterns) alone, with the known identifiers, with the
roster, with both, the known detector alone (known identifiers and roster, no other detector), and the
patient memory (no registry: the names the default detectors found at ``--memory-min-score`` or more in
any note of the patient, given to all the patient's notes, as ``detect --memory`` then ``deid
--known-side-file`` do; its time counts both passes); with
``--allow FILE`` (an allow list in the contract's format), one more row: both, with that allow list.
Reported: token recall per name category (gold tokens found by a prediction of any label), token
precision over all labels, and detection time relative to the baseline row, measured in the same run.
With ``--false-positive-words N``, also each row's false-positive tokens (predicted, not gold-positive: the
precision's spurious tokens) counted by word, case-folded: the N commonest words and their counts (words
only, never the text around them).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from anonymed.config import PipelineConfig
from anonymed.detect.known.detector import KnownParams
from anonymed.detect.known.people import name_keys
from anonymed.detect.known.rosters import Clinician, Roster
from anonymed.detect.lists import TermLists, read_lists
from anonymed.detect.tokens import tokenize
from anonymed.document import Document, Span
from anonymed.evaluate.detection import DetectionReport, evaluate_detection
from anonymed.evaluate.tokens import TokenIndex
from anonymed.io.memory import DEFAULT_MIN_SCORE, PatientMemoryWriter
from anonymed.labels import Label
from anonymed.pipeline import Pipeline
from anonymed.train.recipe import (
    RecognizerRecipe,
    dev_documents,
    folds,
    group_of,
    recipe_clusters,
    recipe_lexicons,
    split_fold,
    train_with_recipe,
    training_documents,
    wikiann_documents,
)

CATEGORIES = ("NAME/patient", "NAME/relative", "NAME/clinician")
ROWS = ("default detectors", "+ known identifiers", "+ clinician roster", "+ both", "known detector alone")
MEMORY_ROW = "+ patient memory"
ALLOW_ROW = "+ both + allow list"
WITH_KNOWN = (ROWS[1], ROWS[3], ROWS[4], ALLOW_ROW)


def _full(span: Span) -> str:
    return span.full_label


def is_initials(text: str) -> bool:
    """Whether a gold name is initials only ("JS", "J.S.", "J"): a registry holds names, not initials."""
    words = tokenize(text)
    return all(len(w.text) <= 1 or (w.text.isupper() and len(w.text) <= 3) for w in words)


def registry(docs: Iterable[Document]) -> dict[str, list[dict[str, str]]]:
    """Patient -> the names of the patient and relatives in the gold of all their notes (contract items)."""
    known: dict[str, dict[tuple[str, str], None]] = defaultdict(dict)
    for doc in docs:
        for span in doc.gold:
            kind = _full(span)
            if kind in ("NAME/patient", "NAME/relative") and not is_initials(span.text):
                known[group_of(doc)][(kind, " ".join(span.text.split()))] = None
    return {patient: [{"kind": k, "value": v} for k, v in items] for patient, items in known.items()}


def clinician_roster(docs: Iterable[Document]) -> Roster:
    """The clinicians named in the gold of ``docs``: the first word as given name, the rest as family name."""
    found: dict[Clinician, None] = {}
    for doc in docs:
        for span in doc.gold:
            if _full(span) != "NAME/clinician":
                continue
            words = [w for w in span.text.split() if len(name_keys(w)) == 1 and len(name_keys(w)[0]) > 1]
            if len(words) >= 2:
                found[Clinician(words[0], " ".join(words[1:]))] = None
            elif words:
                found[Clinician("", words[0])] = None
    return Roster(clinicians=tuple(found))


def configs(model: Path | None, roster: Roster, allow: TermLists | None = None) -> dict[str, PipelineConfig]:
    """The configurations of the rows."""
    params = {} if model is None else {"tagger": {"model": str(model)}}
    base = PipelineConfig(detector_params=params)
    with_roster = KnownParams(roster=roster)
    rows = {
        ROWS[0]: base,
        ROWS[1]: base,
        ROWS[2]: base.replace(known_detector=with_roster),
        ROWS[3]: base.replace(known_detector=with_roster),
        ROWS[4]: PipelineConfig(detectors=(), known_detector=with_roster),
    }
    if allow is not None:
        rows[ALLOW_ROW] = base.replace(known_detector=with_roster, lists=allow)
    return rows


def detect(
    docs: Sequence[Document], config: PipelineConfig, known: dict[str, list[dict[str, str]]] | None
) -> tuple[list[tuple[Span, ...]], float]:
    """Predicted spans per note (with the patient's known identifiers when given) and the seconds taken."""
    pipeline = Pipeline(config)
    _ = pipeline.detectors_
    started = time.perf_counter()
    out = []
    for doc in docs:
        metadata = dict(doc.metadata)
        if known is not None:
            metadata["known"] = known.get(group_of(doc), [])
        out.append(pipeline.detect(doc.evolve(metadata=metadata, spans=())).spans)
    return out, time.perf_counter() - started


def patient_memory(
    docs: Sequence[Document], spans: Sequence[Sequence[Span]], min_score: float
) -> dict[str, list[dict[str, str]]]:
    """Patient -> the names found at ``min_score`` or more in any of their notes, as ``anonymed detect
    --memory`` writes them (``PatientMemoryWriter``, whose file ``deid --known-side-file`` reads)."""
    with tempfile.TemporaryDirectory() as tmp:
        writer = PatientMemoryWriter(Path(tmp) / "memory.jsonl", min_score=min_score)
        for doc, found in zip(docs, spans, strict=True):
            writer.write(
                doc.evolve(spans=tuple(found), metadata={**doc.metadata, "patient_id": group_of(doc)})
            )
        return {patient: writer.known_of(patient) for patient in writer.names}


def false_positive_words(pairs: Iterable[tuple[Document, Sequence[Span]]]) -> Counter[str]:
    """The predicted tokens that no gold span touches (the report's spurious tokens), counted by word
    (case-folded)."""
    counts: Counter[str] = Counter()
    for doc, spans in pairs:
        index = TokenIndex.of(doc.text)
        for i in index.positives(spans) - index.positives(doc.gold):
            counts[doc.text[index.starts[i] : index.ends[i]].casefold()] += 1
    return counts


def run(args: argparse.Namespace) -> dict[str, Any]:
    """The reports of every row over all folds' test notes."""
    recipe = RecognizerRecipe("en", data=args.data)
    dev = dev_documents(recipe)
    known = registry(dev)
    fold_of = folds(dev, args.folds)
    allow = read_lists(allow=[args.allow]) if args.allow is not None else None
    rows = (*ROWS, MEMORY_ROW, ALLOW_ROW) if allow is not None else (*ROWS, MEMORY_ROW)
    pairs: dict[str, list[tuple[Document, Sequence[Span]]]] = {row: [] for row in rows}
    seconds: dict[str, float] = dict.fromkeys(rows, 0.0)
    roster_sizes = []
    wiki = lexicons = clusters = None
    started = time.perf_counter()
    for k in range(args.folds):
        train, test = split_fold(dev, fold_of, k)
        roster = clinician_roster(train)
        roster_sizes.append(len(roster.clinicians))
        with tempfile.TemporaryDirectory() as tmp:
            model = None
            if not args.shipped:
                model = (args.models / f"fold-{k}") if args.models is not None else Path(tmp) / "model"
                if not model.exists() or not any(model.iterdir()):
                    if wiki is None:
                        wiki = wikiann_documents(recipe)
                        lexicons, clusters = recipe_lexicons(recipe, wiki), recipe_clusters(recipe)
                    docs = training_documents(recipe, train, wiki, seed=k)
                    train_with_recipe(recipe, docs, lexicons, model, clusters=clusters)
            for row, config in configs(model, roster, allow).items():
                spans, took = detect(test, config, known if row in WITH_KNOWN else None)
                pairs[row] += list(zip(test, spans, strict=True))
                seconds[row] += took
                if row == ROWS[0]:
                    first_pass, memory = took, patient_memory(test, spans, args.memory_min_score)
                    spans, took = detect(test, config, memory)
                    pairs[MEMORY_ROW] += list(zip(test, spans, strict=True))
                    seconds[MEMORY_ROW] += first_pass + took  # both passes
        print(f"fold {k + 1}/{args.folds} done ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    reports = {row: evaluate_detection(pairs[row]) for row in rows}
    table = markdown(reports, seconds)
    print(f"\nPhysioNet development notes, {len(dev)} notes, {args.folds} patient-level folds, "
          f"{'shipped tagger' if args.shipped else 'tagger trained per fold'}\n")  # fmt: skip
    print(table)
    words: dict[str, dict[str, Any]] = {}
    if args.false_positive_words:
        for row in rows:
            counts = false_positive_words(pairs[row])
            top = counts.most_common(args.false_positive_words)
            words[row] = {"total": counts.total(), "top": top}
            print(f"\n{row}: {counts.total()} false-positive tokens; commonest: "
                  + ", ".join(f"{word} {n}" for word, n in top))  # fmt: skip
    return {
        "notes": len(dev),
        "patients_with_known_names": len(known),
        "known_items": sum(len(items) for items in known.values()),
        "roster_clinicians_per_fold": roster_sizes,
        "folds": args.folds,
        "tagger": "shipped" if args.shipped else "per fold",
        "allow_list_terms": 0 if allow is None else len(allow.allow),
        "seconds": {row: round(s, 2) for row, s in seconds.items()},
        "reports": {row: report.to_json() for row, report in reports.items()},
        "table": table,
        **({"false_positive_words": words} if words else {}),
    }


def _recall(report: DetectionReport, key: str) -> str:
    rows = {row.key: row for row in (*report.by_full_label, *report.by_label)}
    row = rows.get(key)
    if row is None or row.tokens.recall is None:
        return "-"
    return f"{row.tokens.recall:.3f} ({row.tokens.found}/{row.tokens.support})"


def markdown(reports: dict[str, DetectionReport], seconds: dict[str, float]) -> str:
    """One row per configuration: token recall per name category, precision, time against the baseline."""
    names = " | ".join(f"{c} recall" for c in (*CATEGORIES, "NAME"))
    head = f"| configuration | {names} | precision | time |"
    lines = [head, "|---|" + "---:|" * (len(CATEGORIES) + 3)]
    baseline = seconds[ROWS[0]] or 1.0
    for row, report in reports.items():
        cells = [_recall(report, key) for key in (*CATEGORIES, Label.NAME.value)]
        precision = report.overall.tokens.precision
        cells.append("-" if precision is None else f"{precision:.3f}")
        cells.append(f"{seconds[row] / baseline:.2f}x")
        lines.append(f"| {row} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--data", type=Path, default=None, help="training data root (default: shipped notes)")
    parser.add_argument("--shipped", action="store_true", help="the shipped tagger (trained on these notes)")
    parser.add_argument("--models", type=Path, default=None, help="keep (and reuse) each fold's model here")
    parser.add_argument("--allow", type=Path, default=None, help="an allow list for one more row")
    parser.add_argument("--out", type=Path, default=None, help="write the reports as JSON here")
    parser.add_argument(
        "--memory-min-score", type=float, default=DEFAULT_MIN_SCORE,
        help="the patient memory row: the score a found name needs to be remembered",
    )  # fmt: skip
    parser.add_argument(
        "--false-positive-words", type=int, default=0, metavar="N",
        help="also count each row's false-positive tokens by word and report the N commonest",
    )  # fmt: skip
    args = parser.parse_args()
    result = run(args)
    if args.out is not None:
        args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
