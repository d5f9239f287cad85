"""The composition of stages: the only place that knows their order (detect, then substitute)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any

from anonymed.config import PipelineConfig
from anonymed.detect.base import Detector
from anonymed.detect.known.detector import KnownDetector
from anonymed.detect.lists import TermLists, apply_lists
from anonymed.detect.merge import merge_spans
from anonymed.detect.registry import build_detector, detector_class
from anonymed.detect.view import NoteView
from anonymed.document import Document
from anonymed.io.known import attach_known, read_side_file
from anonymed.known import Known
from anonymed.labels import Label
from anonymed.randomness import RandomSource, check_random_state
from anonymed.substitute.checklist import safe_harbor_checklist
from anonymed.substitute.registry import build_operator
from anonymed.substitute.stage import Substituter
from anonymed.substitute.summary import substitution_summary

#: the metadata key of a document's own allow and deny lists (``TermLists``), added to the configuration's
DOCUMENT_LISTS = "term_lists"
#: metadata that is secret (known identifiers, deny terms) and leaves with no document ``run`` returns
SECRET_METADATA = ("known", DOCUMENT_LISTS)


class Pipeline:
    """The configured stages in order; heavy resources are built once and shared by reference."""

    def __init__(self, config: PipelineConfig | None = None) -> None:
        self.config = config if config is not None else PipelineConfig()

    @cached_property
    def detectors_(self) -> list[Detector[Any]]:
        """The configured detectors that support the configured language, then the ``known`` detector (the
        record's identifiers and the site's roster: always there, idle when there is nothing to find)."""
        names = [name for name in self.config.detectors if name != "known"]
        built = [build_detector(name, self._detector_params(name)) for name in names]
        known = KnownDetector(self.config.known_detector)
        return [d for d in built if d.supports(self.config.lang)] + [known]

    @cached_property
    def known_side_(self) -> Mapping[str, tuple[Known, ...]] | None:
        """The known identifiers of the side file by patient id (read once), if one is configured."""
        side = self.config.known.side_file
        return None if side is None else read_side_file(side, self.config.known)

    def prepare(self, doc: Document) -> Document:
        """``doc`` with its record's known identifiers in ``metadata["known"]`` (``[known]``)."""
        return attach_known(doc, self.config.known, self.known_side_) if self.config.known else doc

    def _detector_params(self, name: str) -> dict[str, Any]:
        """The configured parameters of a detector, with ``high_recall`` switched on where it exists."""
        params = dict(self.config.detector_params.get(name, {}))
        if self.config.high_recall and "high_recall" in detector_class(name).params_type.__dataclass_fields__:
            params.setdefault("high_recall", True)
        return params

    @cached_property
    def substituter_(self) -> Substituter:
        """The substitution stage of the configuration's profile and choices, one instance per operator."""
        plan = self.config.substitution
        instances = {
            name: build_operator(name, plan.operator_params.get(name))
            for name in set(plan.operators.values())
        }
        operators = {Label(label): instances[name] for label, name in plan.operators.items()}
        return Substituter(
            operators,
            patient_key=self.config.patient_key,
            epsilon=plan.epsilon,
            epsilon_weights=plan.epsilon_weights,
        )

    @cached_property
    def rng_(self) -> RandomSource:
        """The run's random source: secure unless the configuration carries a seed."""
        return check_random_state(self.config.seed)

    def detect(self, doc: Document) -> Document:
        """Run every detector, apply the allow and deny lists, merge overlaps, attach the spans."""
        doc = self.prepare(doc)
        lang_doc = (
            doc if "lang" in doc.metadata else doc.evolve(metadata={**doc.metadata, "lang": self.config.lang})
        )
        view = NoteView(lang_doc)  # tokens once per document; detectors reuse each other's spans
        found = [span for detector in self.detectors_ for span in view.spans_of(detector)]
        lists = self.config.lists
        extra = doc.metadata.get(DOCUMENT_LISTS)  # the lists of this document only (a service request's)
        if isinstance(extra, TermLists):
            lists = lists + extra
        if lists:
            found = apply_lists(doc.text, view.words, found, lists)
        return lang_doc.with_spans(merge_spans(doc.text, found))

    def substitute(self, doc: Document) -> Document:
        """Replace the document's spans with surrogates from a per-document random stream."""
        return self.substituter_(doc, self.rng_.spawn(f"doc:{doc.id}"))

    def run(self, doc: Document) -> Document:
        """Run the configured stages (``config.stages``) in order."""
        doc = self.prepare(doc)
        for stage in self.config.stages:
            doc = getattr(self, stage)(doc)
        if any(key in doc.metadata for key in SECRET_METADATA):  # never in a document the pipeline returns
            doc = doc.evolve(metadata={k: v for k, v in doc.metadata.items() if k not in SECRET_METADATA})
        return doc


def substitution_report(config: PipelineConfig, counters: Mapping[str, int]) -> dict[str, Any]:
    """The run summary's substitution part: profile, counts per label and operator, DP, checklist."""
    profile = config.substitution.profile
    report: dict[str, Any] = {"profile": profile.name, **substitution_summary(counters)}
    if profile.checklist == "hipaa-safe-harbor":
        report["checklist"] = safe_harbor_checklist(counters)
    return report
