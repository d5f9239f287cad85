"""Plug-in detectors for models a user already has: a spaCy pipeline or a Hugging Face token classifier.

Their labels are mapped into anonymed's by a table: ``DEFAULT_LABEL_MAP`` (spaCy/OntoNotes, CoNLL, i2b2,
EDS-pseudo, Presidio names) with the user's ``labels`` entries on top. A model label maps to ``"LABEL"`` or
``"LABEL/subtype"``; mapping it to ``""`` drops it, and labels in neither table are dropped too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar, Final

from anonymed.detect.base import Detector, DetectorParams
from anonymed.document import Document, Span
from anonymed.errors import ConfigError, ResourceError
from anonymed.labels import LabelPair, parse_label

#: model label (upper case, without a B-/I-/E-/S-/L-/U- prefix) -> anonymed label or "" (dropped)
DEFAULT_LABEL_MAP: Final[Mapping[str, str]] = MappingProxyType(
    {
        # spaCy / OntoNotes and CoNLL / WikiANN
        "PERSON": "NAME",
        "PER": "NAME",
        "GPE": "LOCATION",
        "LOC": "LOCATION",
        "FAC": "LOCATION",
        "ORG": "ORGANIZATION",
        "DATE": "DATE",
        "TIME": "DATE/time",
        "NORP": "",
        "MISC": "",
        # i2b2 2006/2014 de-identification
        "PATIENT": "NAME/patient",
        "DOCTOR": "NAME/clinician",
        "NAME": "NAME",
        "USERNAME": "ID/other",
        "HOSPITAL": "LOCATION/hospital",
        "CITY": "LOCATION/city",
        "STATE": "LOCATION/state",
        "COUNTRY": "LOCATION/country",
        "STREET": "LOCATION/street",
        "ZIP": "LOCATION/zip",
        "LOCATION": "LOCATION",
        "LOCATION-OTHER": "LOCATION",
        "ORGANIZATION": "ORGANIZATION",
        "PHONE": "CONTACT/phone",
        "FAX": "CONTACT/fax",
        "EMAIL": "CONTACT/email",
        "URL": "CONTACT/url",
        "MEDICALRECORD": "ID/mrn",
        "IDNUM": "ID/other",
        "ID": "ID/other",
        "HEALTHPLAN": "ID/plan",
        "DEVICE": "ID/device",
        "BIOID": "ID/other",
        "AGE": "AGE",
        "PROFESSION": "PROFESSION",
        # anonymed's own labels (the tags of anonymed.train.token_classifier)
        "CONTACT": "CONTACT",
        "OTHER": "OTHER",
        # EDS-pseudo (French)
        "NOM": "NAME",
        "PRENOM": "NAME",
        "DATE_NAISSANCE": "DATE/birth",
        "TEL": "CONTACT/phone",
        "MAIL": "CONTACT/email",
        "SECU": "ID/nir",
        "IPP": "ID/mrn",
        "NDA": "ID/account",
        "VILLE": "LOCATION/city",
        "ADRESSE": "LOCATION/street",
        "HOPITAL": "LOCATION/hospital",
        # Presidio
        "PHONE_NUMBER": "CONTACT/phone",
        "EMAIL_ADDRESS": "CONTACT/email",
        "US_SSN": "ID/ssn",
        "DATE_TIME": "DATE",
        "IP_ADDRESS": "LOCATION/ip",
        "STREET_ADDRESS": "LOCATION/street",
    }
)

_PREFIXES: Final = ("B-", "I-", "E-", "S-", "L-", "U-")


def normalise_label(raw: str) -> str:
    """A model label without its BIO/BILOU prefix, in upper case (``b-per`` -> ``PER``)."""
    label = raw.strip().upper()
    return label[2:] if label[:2] in _PREFIXES else label


@dataclass(frozen=True)
class LabelMapper:
    """Maps model labels into anonymed's (label, subtype) pairs; unknown or emptied labels give None."""

    table: Mapping[str, str]

    @classmethod
    def with_overrides(cls, overrides: Mapping[str, str] | None = None) -> LabelMapper:
        """The default table with ``overrides`` on top (keys normalised, values checked)."""
        table = dict(DEFAULT_LABEL_MAP)
        table.update({normalise_label(k): v for k, v in (overrides or {}).items()})
        for key, value in table.items():
            if value:
                try:
                    parse_label(value)
                except ValueError:
                    raise ConfigError(
                        f"plug-in label map: {key!r} -> {value!r} is not an anonymed label"
                    ) from None
        return cls(MappingProxyType(table))

    def __call__(self, raw: str) -> LabelPair | None:
        """The anonymed pair of model label ``raw``, or None when it is not PHI for anonymed."""
        value = self.table.get(normalise_label(raw), "")
        return parse_label(value) if value else None


@dataclass(frozen=True)
class PluginParams(DetectorParams):
    """Options of a plug-in detector: the model (path or spaCy package name) and the label table."""

    model: str = ""
    labels: Mapping[str, str] = field(default_factory=dict)
    min_score: float = 0.0
    #: spaCy entities have no probability: they get this score
    default_score: float = 1.0
    #: a Hugging Face model reads the note in pieces of at most this many characters (cut after a space or a
    #: newline), each within one model window: its pipeline silently truncates longer input; 0 = whole note
    chunk_chars: int = 500

    def __post_init__(self) -> None:
        if not self.model:
            raise ConfigError("a plug-in detector needs option model (a path or a spaCy package name)")
        if not 0.0 <= self.min_score <= 1.0 or not 0.0 <= self.default_score <= 1.0:
            raise ConfigError("plug-in options min_score and default_score must be in [0, 1]")
        if self.chunk_chars < 0:
            raise ConfigError(f"plug-in option chunk_chars must be >= 0, got {self.chunk_chars!r}")


def chunks(text: str, size: int) -> list[tuple[int, int]]:
    """Consecutive (start, end) pieces of ``text``, at most ``size`` characters each, cut after a space."""
    if size <= 0:
        return [(0, len(text))]
    pieces, start = [], 0
    while start < len(text):
        end = min(len(text), start + size)
        if end < len(text):
            cut = max(text.rfind("\n", start, end), text.rfind(" ", start, end))
            end = cut + 1 if cut > start else end
        pieces.append((start, end))
        start = end
    return pieces


def to_spans(
    doc: Document,
    found: Iterable[tuple[int, int, str, float]],
    mapper: LabelMapper,
    source: str,
    min_score: float,
) -> list[Span]:
    """Spans from (start, end, model label, score) tuples: mapped, trimmed of spaces, checked."""
    spans = []
    text = doc.text
    for start, end, raw, score in found:
        pair = mapper(raw)
        if pair is None or score < min_score:
            continue
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if 0 <= start < end <= len(text):
            value = min(1.0, max(0.0, float(score)))
            spans.append(Span.of(text, start, end, pair[0], source=source, score=value, subtype=pair[1]))
    return spans


@lru_cache(maxsize=4)
def load_spacy(model: str) -> Any:
    """A spaCy pipeline by path or installed package name, loaded once per process."""
    try:
        import spacy
    except ImportError:
        raise ResourceError("the spacy plug-in needs spaCy: pip install 'anonymed[plugins]'") from None
    try:
        return spacy.load(model)
    except (OSError, ValueError) as exc:
        raise ResourceError(f"cannot load spaCy pipeline {model!r}: {type(exc).__name__}") from None


@lru_cache(maxsize=4)
def load_huggingface(model: str) -> Any:
    """A Hugging Face token-classification pipeline from a local folder, loaded once per process."""
    if not Path(model).is_dir():
        raise ResourceError(f"Hugging Face model folder not found: {model} (no download is attempted)")
    try:
        from transformers import pipeline
    except ImportError:
        raise ResourceError("the huggingface plug-in needs transformers and torch: see the README") from None
    try:
        return pipeline("token-classification", model=model, tokenizer=model, aggregation_strategy="simple")
    except (OSError, ValueError) as exc:
        raise ResourceError(f"cannot load Hugging Face model {model!r}: {type(exc).__name__}") from None


class SpacyDetector(Detector[PluginParams]):
    """Entities of a spaCy pipeline (path or package name), mapped into anonymed labels."""

    name: ClassVar[str] = "spacy"
    params_type = PluginParams

    def __init__(self, params: PluginParams | None = None) -> None:
        super().__init__(params)
        self.mapper = LabelMapper.with_overrides(self.params.labels)
        self._nlp: Any = None

    @classmethod
    def with_pipeline(cls, nlp: Any, params: PluginParams | None = None) -> SpacyDetector:
        """A detector over an already loaded spaCy pipeline (``params.model`` is then not loaded)."""
        detector = cls(params if params is not None else PluginParams(model="<given pipeline>"))
        detector._nlp = nlp
        return detector

    def detect(self, doc: Document) -> list[Span]:
        """Mapped entity spans of ``doc.text`` (source ``spacy``)."""
        nlp = self._nlp if self._nlp is not None else load_spacy(self.params.model)
        ents = nlp(doc.text).ents
        found = ((e.start_char, e.end_char, str(e.label_), self.params.default_score) for e in ents)
        return to_spans(doc, found, self.mapper, self.name, self.params.min_score)


class HuggingFaceDetector(Detector[PluginParams]):
    """Entities of a local Hugging Face token-classification model, mapped into anonymed labels."""

    name: ClassVar[str] = "huggingface"
    params_type = PluginParams

    def __init__(self, params: PluginParams | None = None) -> None:
        super().__init__(params)
        self.mapper = LabelMapper.with_overrides(self.params.labels)
        self._pipe: Any = None

    @classmethod
    def with_pipeline(cls, pipe: Any, params: PluginParams | None = None) -> HuggingFaceDetector:
        """A detector over an already built token-classification pipeline (``params.model`` is not loaded)."""
        detector = cls(params if params is not None else PluginParams(model="<given pipeline>"))
        detector._pipe = pipe
        return detector

    def detect(self, doc: Document) -> list[Span]:
        """Mapped entity spans of ``doc.text`` (source ``huggingface``)."""
        if not doc.text.strip():
            return []
        pipe = self._pipe if self._pipe is not None else load_huggingface(self.params.model)
        found = [
            (
                offset + int(e["start"]),
                offset + int(e["end"]),
                str(e.get("entity_group") or e.get("entity", "")),
                float(e["score"]),
            )
            for offset, end in chunks(doc.text, self.params.chunk_chars)
            for e in pipe(doc.text[offset:end])
            if e.get("start") is not None and e.get("end") is not None
        ]
        return to_spans(doc, found, self.mapper, self.name, self.params.min_score)
