"""``anonymed evaluate report``: run the configured methods on the corpora, measure, write HTML/Markdown/JSON.

Sections (each run only when configured): anonymity on an annotated corpus (SMR, ALID, LR, LRDI, LRQI, and
detection scores for detect-and-replace methods), information retention (JSC, NSDCG) on the MTSamples test
split, extrinsic utility (specialty macro-F1, K folds) and intrinsic utility (embeddings vs human term-pair
scores, several runs with a confidence interval). The library reports progress through a callback and
never prints.
"""

from __future__ import annotations

import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from anonymed.document import Document
from anonymed.errors import ConfigError, OutputError, ResourceError
from anonymed.evaluate.anonymity import evaluate_anonymity
from anonymed.evaluate.classifier import load_classifier
from anonymed.evaluate.detection import evaluate_detection
from anonymed.evaluate.extrinsic import evaluate_extrinsic
from anonymed.evaluate.intrinsic import evaluate_corpus, load_benchmarks, summarise_runs
from anonymed.evaluate.methods import Detections, EvaluatedMethod, build_method
from anonymed.evaluate.mtsamples import load_task
from anonymed.evaluate.overlap import training_overlaps
from anonymed.evaluate.report_config import ReportConfig
from anonymed.evaluate.retention import evaluate_retention
from anonymed.io.registry import open_reader

#: progress(stage, done, total): called as work advances (total None when unknown)
Progress = Callable[[str, int, int | None], None]


class _Stage:
    """Counts the work of one stage and forwards it to the progress callback."""

    def __init__(self, progress: Progress | None, name: str, total: int | None) -> None:
        self.progress, self.name, self.total, self.done = progress, name, total, 0
        self.tick(0)

    def tick(self, count: int = 1) -> None:
        self.done += count
        if self.progress is not None:
            self.progress(self.name, self.done, self.total)


class Evaluation:
    """One report's worth of measurements; ``run()`` returns them as JSON-ready data."""

    def __init__(self, config: ReportConfig, progress: Progress | None = None) -> None:
        self.config = config
        self.progress = progress
        self.notes: list[str] = []
        self.timings: dict[str, float] = {}
        self.detections = Detections(config.pipeline)
        self.methods = self._methods(config.methods)
        self._mtsamples: list[Document] | None = None
        self._anonymized: dict[str, list[str]] = {}

    def _methods(self, specs: Sequence[str]) -> list[EvaluatedMethod]:
        methods: list[EvaluatedMethod] = []
        for spec in specs:
            method = build_method(
                spec, space=self.config.space, sentences=self.config.sentences, detections=self.detections
            )
            reason = method.unavailable()
            if reason is None:
                methods.append(method)
            else:
                self.notes.append(f"method {method.name!r} skipped: {reason}")
        return methods

    def run(self) -> dict[str, Any]:
        """Run every configured section; the result is plain JSON data."""
        config = self.config
        data: dict[str, Any] = {
            "title": config.title,
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
            "versions": _versions(),
            "seed": config.seed,
            "methods": [{"name": m.name, "kind": m.kind, "degree": m.degree} for m in self.methods],
        }
        sections: list[tuple[str, Callable[[], dict[str, Any]]]] = [
            ("anonymity", self.anonymity),
            ("retention", self.retention),
            ("extrinsic", self.extrinsic),
            ("intrinsic", self.intrinsic),
        ]
        for name, section in sections:
            if getattr(config, name) is not None:
                start = time.perf_counter()
                data[name] = section()
                self.timings[name] = round(time.perf_counter() - start, 1)
        data["notes"] = self.notes
        data["timings"] = self.timings
        return data

    def anonymity(self) -> dict[str, Any]:
        """Anonymity metrics of every method (and of the untouched notes) on the annotated corpus."""
        section = self.config.anonymity
        assert section is not None
        if not section.corpus.exists():
            raise ConfigError(f"[anonymity] corpus {str(section.corpus)!r} does not exist")
        records = list(open_reader(section.corpus, section.format))
        docs = [r for r in records if isinstance(r, Document)]
        if section.limit:
            docs = docs[: section.limit]
        failed = len(records) - sum(isinstance(r, Document) for r in records)
        trained_on = {found.model.name: len(found.ids) for found in training_overlaps(docs)}
        for model, count in trained_on.items():
            self.notes.append(
                f"anonymity: {count} of {len(docs)} notes are training notes of the shipped model "
                f"{model!r}: the detection-based rows (replace, hybrid) measure memory there, "
                "not detection on unseen notes"
            )
        results: dict[str, Any] = {
            "none": evaluate_anonymity(((d, d.text) for d in docs), section.params).to_json()
        }
        stage = _Stage(self.progress, "anonymity", len(docs) * len(self.methods))
        for method in self.methods:
            out = method.anonymize(docs, self.config.seed, stage.tick)
            report = evaluate_anonymity(
                zip(docs, (d.result for d in out), strict=True), section.params
            ).to_json()
            if method.kind in ("replace", "hybrid"):
                report["detection"] = evaluate_detection((d, d.spans) for d in out).to_json()
            results[method.name] = report
        return {
            "corpus": section.corpus.name,
            "documents": len(docs),
            "read_failures": failed,
            "entities": sum(len(d.gold) for d in docs),
            "trained_on_gold": trained_on,
            "methods": results,
        }

    def mtsamples(self) -> list[Document]:
        """The MTSamples task notes (loaded once)."""
        if self._mtsamples is None:
            self._mtsamples = load_task(self.config.mtsamples, self.config.task)
            if not self._mtsamples:
                raise ResourceError("the MTSamples corpus holds no note")
        return self._mtsamples

    def anonymized(self, method: EvaluatedMethod) -> list[str]:
        """The method's anonymization of every MTSamples note with the report's seed (computed once)."""
        if method.name not in self._anonymized:
            notes = self.mtsamples()
            stage = _Stage(self.progress, f"anonymize MTSamples: {method.name}", len(notes))
            self._anonymized[method.name] = [
                d.result for d in method.anonymize(notes, self.config.seed, stage.tick)
            ]
        return self._anonymized[method.name]

    def retention(self) -> dict[str, Any]:
        """JSC and NSDCG of every method on the test split (notes the classifier never saw)."""
        params = self.config.retention
        classifier = load_classifier(self.config.classifier)
        notes = self.mtsamples()
        test = [i for i, n in enumerate(notes) if n.metadata["split"] == "test"]
        originals = [notes[i].text for i in test]
        results = {}
        for method in self.methods:
            texts = self.anonymized(method)
            results[method.name] = evaluate_retention(
                classifier, originals, [texts[i] for i in test], params
            ).to_json()
        meta = classifier.meta or {}
        return {
            "documents": len(test),
            "classifier": {"classes": len(classifier.classes), "test_macro_f1": meta.get("test_macro_f1")},
            "methods": results,
        }

    def extrinsic(self) -> dict[str, Any]:
        """Specialty macro-F1 on original vs anonymized labelled notes, K-fold."""
        params = self.config.extrinsic
        assert params is not None
        notes = self.mtsamples()
        index = [i for i, n in enumerate(notes) if n.metadata["label"] is not None]
        labels = [str(notes[i].metadata["label"]) for i in index]
        versions = {m.name: [self.anonymized(m)[i] for i in index] for m in self.methods}
        stage = _Stage(
            self.progress, "extrinsic (fits)", params.folds * len(params.models) * (len(versions) + 1)
        )
        report = evaluate_extrinsic([notes[i].text for i in index], labels, versions, params, stage.tick)
        data = report.to_json()
        data["degrees"] = {m.name: m.degree for m in self.methods if m.kind == "words"}
        return data

    def intrinsic(self) -> dict[str, Any]:
        """Pearson / Spearman of embeddings trained on the original and on anonymized MTSamples."""
        section = self.config.intrinsic
        assert section is not None
        benchmarks = load_benchmarks(section.benchmarks)
        methods = self._methods(section.methods)
        texts = [n.text for n in self.mtsamples()]
        settings: list[tuple[str, EvaluatedMethod | None]] = [("original", None)]
        settings.extend((m.name, m) for m in methods)
        stage = _Stage(self.progress, "intrinsic (embeddings)", section.runs * len(settings))
        results = {}
        for name, method in settings:
            runs = []
            for run in range(section.runs):
                seed = self.config.seed + run
                corpus = texts if method is None else self._intrinsic_corpus(method, run, seed)
                runs.append(evaluate_corpus(corpus, benchmarks, section.embedding, seed=seed + 1))
                stage.tick()
            results[name] = summarise_runs(runs, section.level)
        return {
            "runs": section.runs,
            "level": section.level,
            "embedding": asdict(section.embedding),
            "documents": len(texts),
            "settings": results,
        }

    def _intrinsic_corpus(self, method: EvaluatedMethod, run: int, seed: int) -> list[str]:
        if run == 0:
            return self.anonymized(method)
        return [d.result for d in method.anonymize(self.mtsamples(), seed)]


def _versions() -> dict[str, str]:
    versions = {"anonymed": metadata.version("anonymed"), "python": platform.python_version()}
    for name in ("numpy", "sklearn", "gensim", "rapidfuzz", "matplotlib"):
        try:
            module = __import__(name)
            versions[name] = str(module.__version__)
        except ImportError:
            continue
    return versions


def build_report(config: ReportConfig, output: Path, progress: Progress | None = None) -> dict[str, Any]:
    """Run the evaluation; write ``report.json``, ``report.md``, ``report.html`` and figures to ``output``."""
    from anonymed.evaluate.figures import draw_figures
    from anonymed.evaluate.render import write_outputs

    data = Evaluation(config, progress).run()
    output = Path(output)
    try:
        output.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create the report folder {str(output)!r}: {exc.strerror}") from None
    data["figures"] = draw_figures(data, output)
    write_outputs(data, output)
    return data
