"""The service's engine: pipelines and resources loaded once at start-up, shared by every request."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from anonymed.config import PipelineConfig
from anonymed.document import Document, Span
from anonymed.errors import ConfigError
from anonymed.evaluate.detection import DetectionReport, evaluate_detection
from anonymed.labels import Label, parse_label
from anonymed.methods import ReplaceConfig
from anonymed.methods.configure import Configured, configure
from anonymed.profiles import profile_names
from anonymed.service.methods import MethodCache, Offers, request_config, request_layer, second_stage
from anonymed.service.models import DeidRequest, EvaluateRequest, GoldSpan, NoteRequest
from anonymed.service.settings import ServiceSettings
from anonymed.substitute.registry import OPERATORS

#: synthetic notes run once per language at start-up so that lazy resources load before the first request
WARM_UP = {
    "en": "Mr. Adam Example, 47 years old, seen 03/04/2021 in Chicago. Call (555) 010-0199. MRN 1234567.",
    "fr": "M. Adam Exemple, 47 ans, vu le 03/04/2021 à Lyon. Tél. 01 02 03 04 05. IPP 1234567.",
}
DP_OPERATORS = {Label.DATE: "dp_date", Label.AGE: "dp_age", Label.LOCATION: "dp_location"}


class Engine:
    """Every method built once through ``anonymed.methods`` and shared by the requests."""

    def __init__(self, settings: ServiceSettings) -> None:
        self.settings = settings
        #: the service's configuration (``--config``), its site files read once; requests lay over it
        self.base = configure(settings.config_file)
        self.site = self.base.pipeline()
        self.methods_ = MethodCache()
        self.offers = Offers(settings)
        self.ready = False

    def load(self) -> None:
        """Build every language's detection, run it once (and the DP operators), load the offered methods."""
        for lang in self.settings.languages:
            doc = self.detect(WARM_UP[lang], lang, None, "warm-up")
            operators = {k: v for k, v in DP_OPERATORS.items() if v in OPERATORS}
            config = PipelineConfig(lang=lang, operators=operators, epsilon=1.0, stages=("substitute",))
            self.methods_(ReplaceConfig(config))(doc)
            for profile in profile_names():
                self.methods_(
                    ReplaceConfig(PipelineConfig(lang=lang, profile=profile, stages=("substitute",)))
                )(doc)
        self.offers.load(self.methods_)
        self.ready = True

    def methods(self) -> dict[str, str | None]:
        """Method name -> None if it can run, else the reason it cannot."""
        return self.offers.available()

    def detect(
        self,
        text: str,
        lang: str,
        detectors: Sequence[str] | None,
        doc_id: str,
        site: Mapping[str, Any] | None = None,
    ) -> Document:
        """The note as a document carrying its detected spans; ``site``: the request's known identifiers
        and lists (``NoteRequest.site_metadata``), which the pipeline drops from the document it returns."""
        if lang not in self.settings.languages:
            raise ConfigError(f"language {lang!r} is not loaded; loaded: {list(self.settings.languages)}")
        names = self.site.detectors if detectors is None else tuple(detectors)
        base = self.site
        config = PipelineConfig(
            lang=lang,
            detectors=names,
            detector_params=base.detector_params,
            high_recall=base.high_recall,
            known=base.known,
            known_detector=base.known_detector,
            lists=base.lists,
            stages=("detect",),
        )
        return self.methods_(ReplaceConfig(config))(Document(doc_id, text, {"lang": lang, **(site or {})}))

    def configured(self, request: NoteRequest) -> Configured:
        """The service's configuration with the fields the request set laid over it."""
        return self.base.with_request(request_layer(request))

    def detect_note(self, request: NoteRequest) -> Document:
        """The request's note with its detected spans (language and detectors: request < configuration)."""
        config = self.configured(request).pipeline(site=self.site)
        return self.detect(request.text, config.lang, config.detectors, request.id, request.site_metadata())

    def deid(self, request: DeidRequest) -> Document:
        """Run the requested method on the note (spans are always detected, to show them)."""
        chosen = self.configured(request)
        self.offers.check(request, second_stage(chosen))
        config = chosen.pipeline(site=self.site)
        doc = self.detect(request.text, config.lang, config.detectors, request.id, request.site_metadata())
        return self.methods_(request_config(request, self.offers, chosen, self.site))(doc)

    def evaluate(self, request: EvaluateRequest) -> tuple[DetectionReport, tuple[Span, ...]]:
        """Detection metrics of one note against its gold spans (detecting if no prediction is given)."""
        text, lang = request.text, self.configured(request).effective.get("pipeline", "lang")
        doc = Document(request.id, text, {"lang": lang}, gold=_spans(text, request.gold, "gold"))
        spans = (
            self.detect_note(request).spans
            if request.predicted is None
            else _spans(text, request.predicted, "request")
        )
        return evaluate_detection([(doc, spans)]), spans


def _spans(text: str, given: list[GoldSpan], source: str) -> tuple[Span, ...]:
    spans = []
    for item in given:
        label, subtype = parse_label(item.label)
        spans.append(Span.of(text, item.start, item.end, label, source=source, subtype=subtype))
    return tuple(spans)
