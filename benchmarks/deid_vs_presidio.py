"""Detect-and-replace vs Presidio on the PhysioNet deid development notes: notes per second and recall.

Usage: python benchmarks/deid_vs_presidio.py [--data DIR] [--corpus physionet|presidio-synth] [--limit N]
[--repeat R]

Needs the ``bench`` extra (``pip install -e '.[bench]'``: presidio-analyzer). Presidio runs with its
predefined pattern recognizers behind its no-op NLP engine (no spaCy model is downloaded or loaded), and
with a spaCy model only if one is installed. Both systems see the same notes; recall is token-level and
label-blind (``evaluate_detection``), with strict entity recall beside it. Speed is given as wall-clock
notes/s and as notes per CPU-second of this process (the machine may be shared; CPU time is the fairer
per-core rate). Models are loaded before the clock starts. Figures on this split are development figures.
``--data`` is a folder holding ``physionet_deid/`` (default: the copy shipped in the package).
``--corpus presidio-synth`` reads ``presidio_synth/synth_dataset_v2.json`` under ``--data`` instead:
Presidio's own synthetic test sentences (general domain, international formats), never used to tune
anonymed. A second table gives each system's label-blind token recall per gold label. Everything runs on one
thread (threadpoolctl limits the BLAS and OpenMP pools); the systems run ``--repeat`` times in
turn and each one's fastest run counts (the machine may be shared).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from anonymed.config import PipelineConfig
from anonymed.document import Document, Span
from anonymed.evaluate.detection import DetectionReport, evaluate_detection
from anonymed.io.physionet import PhysionetReader
from anonymed.io.presidio import PresidioReader
from anonymed.labels import PRESIDIO_LABELS, Label
from anonymed.pipeline import Pipeline

Detect = Callable[[Document], Sequence[Span]]
HEADER = (
    "| system | notes/s (wall) | notes/CPU-s | token recall % | entity recall % | NAME recall % "
    "| token precision % |"
)


#: corpus name -> (path under ``--data``, reader, how the corpus is named in the output)
CORPORA: Final = {
    "physionet": ("physionet_deid", PhysionetReader, "PhysioNet deid dev notes"),
    "presidio-synth": (
        "presidio_synth/synth_dataset_v2.json",
        PresidioReader,
        "Presidio synthetic sentences",
    ),
}


def load_notes(data: Path, limit: int | None, corpus: str = "physionet") -> list[Document]:
    """The corpus's notes with their gold spans."""
    path, reader, _ = CORPORA[corpus]
    notes = [r for r in reader(data / path) if isinstance(r, Document)]
    return notes[:limit] if limit else notes


def measure(name: str, notes: list[Document], detect: Detect) -> dict[str, Any]:
    """Run ``detect`` over the notes; speed (wall and CPU) and the detection report."""
    wall, cpu = time.perf_counter(), time.process_time()
    predicted = [detect(doc) for doc in notes]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    report = evaluate_detection(zip(notes, predicted, strict=True))
    return {"system": name, "notes": len(notes), "wall": wall, "cpu": cpu, "report": report}


def fastest(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The run with the least CPU time (the same system's reports are identical)."""
    return min(runs, key=lambda run: run["cpu"])


def anonymed_detect() -> tuple[Detect, Callable[[Document], Document]]:
    """anonymed's default detectors, and the full detect-and-replace pipeline."""
    pipeline = Pipeline(PipelineConfig(seed=0))
    pipeline.run(Document("warm", "Seen by Dr Smith on 3/4/2020."))  # load lexicons and operators
    return (lambda doc: pipeline.detect(doc).spans), pipeline.run


def presidio_detect(model: str | None) -> Detect:
    """Presidio's predefined recognizers; with ``model`` None, behind the no-op NLP engine."""
    # its e-mail recognizer asks tldextract, which would fetch the public suffix list at the first e-mail
    # (no network here: a failed request inside the clock); an empty URL list makes it use its bundled copy
    os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")
    from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
    from presidio_analyzer.nlp_engine import NlpEngineProvider
    from presidio_analyzer.nlp_engine.no_op_nlp_engine import NoOpNlpEngine

    if model is None:
        engine: Any = NoOpNlpEngine(models=[{"lang_code": "en", "model_name": "none"}])
    else:
        config = {"nlp_engine_name": "spacy", "models": [{"lang_code": "en", "model_name": model}]}
        engine = NlpEngineProvider(nlp_configuration=config).create_engine()
    registry = RecognizerRegistry(supported_languages=["en"])
    registry.load_predefined_recognizers(languages=["en"], nlp_engine=engine)
    if model is None:
        registry.remove_recognizer("SpacyRecognizer")
    analyzer = AnalyzerEngine(registry=registry, nlp_engine=engine, supported_languages=["en"])
    analyzer.analyze("warm up 212-555-1234 or warm@example.com", language="en")

    def detect(doc: Document) -> Sequence[Span]:
        spans = []
        for hit in analyzer.analyze(doc.text, language="en"):
            label = PRESIDIO_LABELS.get(hit.entity_type, (Label.OTHER, None))[0]
            spans.append(Span.of(doc.text, hit.start, hit.end, label, source="presidio"))
        return spans

    return detect


def installed_spacy_model() -> str | None:
    """The first English spaCy model installed, if any (none is downloaded here)."""
    try:
        import spacy.util
    except ImportError:
        return None
    for name in ("en_core_web_lg", "en_core_web_md", "en_core_web_sm", "en_core_web_trf"):
        if spacy.util.is_package(name):
            return name
    return None


def row(result: dict[str, Any]) -> str:
    """One Markdown table row."""
    report: DetectionReport = result["report"]
    tokens, entities = report.overall.tokens, report.overall.entities
    names = next((r.tokens.recall for r in report.by_label if r.key == "NAME"), None)

    def pct(value: float | None) -> str:
        return "-" if value is None else f"{100 * value:.1f}"

    speed = f"{result['notes'] / result['wall']:,.0f} | {result['notes'] / result['cpu']:,.0f}"
    recall = f"{pct(tokens.recall)} | {pct(entities.recall)} | {pct(names)} | {pct(tokens.precision)}"
    return f"| {result['system']} | {speed} | {recall} |"


def label_table(results: list[dict[str, Any]]) -> list[str]:
    """Markdown lines: per gold label, each system's label-blind token recall (gold tokens in brackets)."""
    reports: list[DetectionReport] = [result["report"] for result in results]
    rows = {row.key: row for row in reports[0].by_label}
    lines = [
        "| gold label (tokens) | " + " | ".join(result["system"] for result in results) + " |",
        "|---|" + "---:|" * len(results),
    ]
    for key in sorted(key for key, row in rows.items() if row.tokens.support):
        cells = []
        for report in reports:
            found = next((r.tokens.recall for r in report.by_label if r.key == key), None)
            cells.append("-" if found is None else f"{100 * found:.1f}")
        lines.append(f"| {key} ({rows[key].tokens.support}) | " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    """Measure, then print the table and the conditions."""
    from threadpoolctl import threadpool_limits

    from anonymed.train.recipe import training_root

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data",
        type=Path,
        default=training_root(),
        help="data root with physionet_deid/ (default: the development notes shipped in the package)",
    )
    parser.add_argument("--corpus", choices=sorted(CORPORA), default="physionet")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=3, help="runs per system; the fastest counts")
    args = parser.parse_args()
    notes = load_notes(args.data, args.limit, args.corpus)
    load = os.getloadavg()[0]
    with threadpool_limits(limits=1):
        detect, deid = anonymed_detect()
        presidio = presidio_detect(None)
        systems: dict[str, Detect] = {
            "anonymed detect (default detectors)": detect,
            "anonymed deid (detect + replace)": lambda doc: deid(doc).spans,
            "Presidio, pattern recognizers (no-op NLP engine)": presidio,
        }
        model = installed_spacy_model()
        if model is not None:
            systems[f"Presidio + spaCy {model}"] = presidio_detect(model)
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name in systems}
        for _ in range(args.repeat):
            for name, system in systems.items():
                runs[name].append(measure(name, notes, system))
    results = [fastest(found) for found in runs.values()]
    cores = os.cpu_count()
    print(f"{len(notes)} {CORPORA[args.corpus][2]}; load average {load:.2f} on {cores} cores; one thread")
    print(HEADER)
    print("|---|---:|---:|---:|---:|---:|---:|")
    for result in results:
        print(row(result))
    anon, pres = results[0], results[2]
    print(
        f"speed ratio anonymed detect / Presidio patterns (CPU, fastest of {args.repeat}): "
        f"{pres['cpu'] / anon['cpu']:.2f}x"
    )
    print("\ntoken recall % per gold label (label-blind)")
    print("\n".join(label_table(results)))
    if model is None:
        print("Presidio with a spaCy model: not run (no English spaCy model installed; none downloaded)")


if __name__ == "__main__":
    main()
