"""The service's engine: pipelines and resources loaded once at start-up, shared by every request."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from anonymed.config import PipelineConfig
from anonymed.detect.registry import DEFAULT_DETECTORS
from anonymed.document import Document, Span
from anonymed.errors import ConfigError
from anonymed.evaluate.detection import DetectionReport, evaluate_detection
from anonymed.labels import Label, parse_label
from anonymed.pipeline import Pipeline
from anonymed.profiles import DEFAULT_PROFILE, profile_names
from anonymed.randomness import check_random_state
from anonymed.service.methods import MethodUnavailable, SentenceMethod, WordMethod
from anonymed.service.models import DeidRequest, EvaluateRequest, GoldSpan
from anonymed.service.settings import ServiceSettings
from anonymed.substitute.registry import OPERATORS

#: synthetic notes run once per language at start-up so that lazy resources load before the first request
WARM_UP = {
    "en": "Mr. Adam Example, 47 years old, seen 03/04/2021 in Chicago. Call (555) 010-0199. MRN 1234567.",
    "fr": "M. Adam Exemple, 47 ans, vu le 03/04/2021 à Lyon. Tél. 01 02 03 04 05. IPP 1234567.",
}
DP_OPERATORS = {Label.DATE: "dp_date", Label.AGE: "dp_age", Label.LOCATION: "dp_location"}


class Engine:
    """Detection pipelines per language and the optional obfuscation methods, built once."""

    def __init__(self, settings: ServiceSettings) -> None:
        self.settings = settings
        self.words = WordMethod(settings.word_space)
        self.sentences = SentenceMethod(settings.sentence_bank)
        self.ready = False
        self._pipelines: dict[tuple[str, tuple[str, ...]], Pipeline] = {}
        self._lock = threading.Lock()

    def load(self) -> None:
        """Build every language's pipeline, run it once (and the DP operators), load the methods."""
        for lang in self.settings.languages:
            doc = self.pipeline(lang, None).detect(Document("warm-up", WARM_UP[lang], {"lang": lang}))
            operators = {k: v for k, v in DP_OPERATORS.items() if v in OPERATORS}
            self.substitute(doc, PipelineConfig(lang=lang, operators=operators, epsilon=1.0), None)
            for profile in profile_names():
                self.substitute(doc, PipelineConfig(lang=lang, profile=profile), None)
        self.words.load()
        self.sentences.load()
        self.ready = True

    def methods(self) -> dict[str, str | None]:
        """Method name -> None if it can run, else the reason it cannot."""
        hybrid = (
            None
            if self.words.available or self.sentences.available
            else "hybrid needs word or sentence substitution and neither is available"
        )
        return {
            "replace": None,
            "words": self.words.reason,
            "sentences": self.sentences.reason,
            "hybrid": hybrid,
        }

    def pipeline(self, lang: str, detectors: Sequence[str] | None) -> Pipeline:
        """The detection pipeline of a loaded language with these detectors (built once)."""
        if lang not in self.settings.languages:
            raise ConfigError(f"language {lang!r} is not loaded; loaded: {list(self.settings.languages)}")
        names = DEFAULT_DETECTORS if detectors is None else tuple(detectors)
        with self._lock:
            pipeline = self._pipelines.get((lang, names))
            if pipeline is None:
                pipeline = Pipeline(PipelineConfig(lang=lang, detectors=names))
                self._pipelines[(lang, names)] = pipeline
        return pipeline

    def detect(self, text: str, lang: str, detectors: Sequence[str] | None, doc_id: str) -> Document:
        """The note as a document carrying its detected spans."""
        return self.pipeline(lang, detectors).detect(Document(doc_id, text, {"lang": lang}))

    @staticmethod
    def substitute(doc: Document, config: PipelineConfig, seed: int | None) -> Document:
        """Detect-and-replace's second half, with the request's profile, operators and budget."""
        rng = check_random_state(seed).spawn(f"doc:{doc.id}")
        return Pipeline(config).substituter_(doc, rng)

    def deid(self, request: DeidRequest) -> Document:
        """Run the requested method on the note (spans are always detected, to show them)."""
        self._check_available(request)
        doc = self.detect(request.text, request.lang, request.detectors, request.id)
        base = check_random_state(request.seed)
        second = request.then if request.method == "hybrid" else request.method
        if request.method in ("replace", "hybrid"):
            config = PipelineConfig(
                lang=request.lang,
                profile=request.profile or DEFAULT_PROFILE,
                operators=_operators(request.operators),
                operator_params=request.operator_params,
                epsilon=request.epsilon,
            )
            doc = self.substitute(doc, config, request.seed)
        key = f"doc:{doc.id}" if request.method != "hybrid" else f"doc:{doc.id}:{second}"
        if second == "words":
            doc = self.words.apply(doc, request.n, base.spawn(key))
        elif second == "sentences":
            doc = self.sentences.apply(doc, request.k, base.spawn(key))
        return doc

    def _check_available(self, request: DeidRequest) -> None:
        method = request.then if request.method == "hybrid" else request.method
        reason = self.methods().get(method)
        if reason is not None:
            raise MethodUnavailable(f"method {request.method!r} is not available: {reason}")

    def evaluate(self, request: EvaluateRequest) -> tuple[DetectionReport, tuple[Span, ...]]:
        """Detection metrics of one note against its gold spans (detecting if no prediction is given)."""
        text, lang = request.text, request.lang
        doc = Document(request.id, text, {"lang": lang}, gold=_spans(text, request.gold, "gold"))
        spans = (
            self.detect(text, lang, request.detectors, request.id).spans
            if request.predicted is None
            else _spans(text, request.predicted, "request")
        )
        return evaluate_detection([(doc, spans)]), spans


def _operators(chosen: dict[str, str]) -> dict[Label, str]:
    """Label names -> operator names, refusing unknown labels."""
    operators = {}
    for name, operator in chosen.items():
        if name.upper() not in Label.__members__:
            raise ConfigError(f"unknown label {name!r} in operators; known: {[m.value for m in Label]}")
        operators[Label(name.upper())] = operator
    return operators


def _spans(text: str, given: list[GoldSpan], source: str) -> tuple[Span, ...]:
    spans = []
    for item in given:
        label, subtype = parse_label(item.label)
        spans.append(Span.of(text, item.start, item.end, label, source=source, subtype=subtype))
    return tuple(spans)
