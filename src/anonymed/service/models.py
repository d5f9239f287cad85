"""Request and response bodies of the REST API (pydantic models; they make the OpenAPI schema)."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from anonymed.detect.lists import MAX_TERM_CHARS, ListEntry, TermLists
from anonymed.errors import ConfigError
from anonymed.known import MAX_VALUE_CHARS, known_items
from anonymed.pipeline import DOCUMENT_LISTS
from anonymed.profiles import DEFAULT_PROFILE, profile_names

Method = Literal["replace", "words", "sentences", "hybrid"]
DOC_ID_PATTERN = r"^[A-Za-z0-9._:-]{1,64}$"


_SURROGATE = re.compile("[\ud800-\udfff]")


def _no_lone_surrogates(text: str) -> str:
    """Refuse lone UTF-16 surrogates (they cannot be written back as UTF-8); report the offset only."""
    found = _SURROGATE.search(text)
    if found is not None:
        raise ValueError(f"text holds a lone surrogate code point at offset {found.start()}")
    return text


#: the most known identifiers, and allowed or denied terms, one request may carry
MAX_REQUEST_KNOWN = 200
MAX_REQUEST_TERMS = 1_000


class KnownItem(BaseModel):
    """An identifier the note's record holds (the shared contract's ``{"kind", "value"}``); never logged."""

    model_config = ConfigDict(extra="forbid")

    kind: str = Field(description="LABEL or LABEL/subtype, e.g. NAME/patient, DATE/birth, ID/mrn.")
    value: str = Field(max_length=MAX_VALUE_CHARS, description="As written in the record.")


class ListItem(BaseModel):
    """An allowed or denied term (the allow/deny list contract's fields)."""

    model_config = ConfigDict(extra="forbid")

    term: str = Field(min_length=1, max_length=MAX_TERM_CHARS)
    label: str = Field("", description="Empty: every label (allow only); else LABEL or LABEL/subtype.")
    match: Literal["word", "exact"] = "word"
    case: Literal["insensitive", "sensitive"] = "insensitive"

    def entry(self) -> ListEntry:
        """The list entry."""
        return ListEntry.of(self.term, self.label, self.match, self.case)


def _value_error(exc: ConfigError) -> ValueError:
    """anonymed's check (its message names positions, never values) as pydantic's validation error."""
    return ValueError(str(exc))


class NoteRequest(BaseModel):
    """Fields shared by every request that carries a note."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(description="The note, as plain text. Offsets in responses count code points.")
    lang: str = Field("en", description="Language of the note: en or fr.")
    id: str = Field("note", pattern=DOC_ID_PATTERN, description="A document id (echoed; never logged).")
    detectors: list[str] | None = Field(None, description="Detector names; default: the configured set.")
    known: list[KnownItem] = Field(
        default_factory=list,
        max_length=MAX_REQUEST_KNOWN,
        description="The record's known identifiers (patient, relatives, numbers...), found in the note.",
    )
    allow: list[ListItem] = Field(
        default_factory=list, max_length=MAX_REQUEST_TERMS, description="Terms never flagged in this note."
    )
    deny: list[ListItem] = Field(
        default_factory=list, max_length=MAX_REQUEST_TERMS, description="Terms always flagged (need a label)."
    )

    _check_text = field_validator("text")(_no_lone_surrogates)

    @field_validator("known")
    @classmethod
    def _check_known(cls, items: list[KnownItem]) -> list[KnownItem]:
        try:
            known_items([item.model_dump() for item in items], owner="known")
        except ConfigError as exc:
            raise _value_error(exc) from None
        return items

    @field_validator("allow", "deny")
    @classmethod
    def _check_terms(cls, items: list[ListItem], info: ValidationInfo) -> list[ListItem]:
        try:
            entries = tuple(item.entry() for item in items)
            TermLists(deny=entries) if info.field_name == "deny" else TermLists(allow=entries)
        except ConfigError as exc:
            raise _value_error(exc) from None
        return items

    def site_metadata(self) -> dict[str, Any]:
        """The document metadata of the request's known identifiers and lists (none when not given)."""
        metadata: dict[str, Any] = {}
        if self.known:
            metadata["known"] = [item.model_dump() for item in self.known]
        if self.allow or self.deny:
            allow, deny = (tuple(item.entry() for item in items) for items in (self.allow, self.deny))
            metadata[DOCUMENT_LISTS] = TermLists(allow, deny)
        return metadata


class DeidRequest(NoteRequest):
    """Anonymize one note with a method and its parameters."""

    method: Method = Field("replace", description="replace (detect-and-replace), words, sentences, hybrid.")
    profile: str | None = Field(
        None,
        description=f"Privacy profile: {', '.join(profile_names())}; default {DEFAULT_PROFILE}.",
    )
    operators: dict[str, str] = Field(
        default_factory=dict, description="Operator per label, e.g. {'DATE': 'dp_date'}, over the profile's."
    )
    operator_params: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="Parameters per operator name."
    )
    epsilon: float | None = Field(None, gt=0, description="Per-document privacy budget (DP operators).")
    seed: int | None = Field(
        None, ge=0, description="Reproducible output (by anyone with the seed); default: secure randomness."
    )
    n: int | str = Field(5, description="Word substitution degree: 5, or a range such as '3-14'.")
    k: int = Field(5, ge=2, le=100, description="Sentence substitution: one of the k nearest sentences.")
    then: Literal["words", "sentences"] | None = Field(
        None, description="Hybrid: the second stage; default: the service configuration's, else words."
    )


class GoldSpan(BaseModel):
    """A reference span: offsets into the text and a label (``NAME`` or ``NAME/patient``)."""

    model_config = ConfigDict(extra="forbid")

    start: int = Field(ge=0)
    end: int = Field(gt=0)
    label: str


class EvaluateRequest(NoteRequest):
    """Score predicted spans against gold spans; without ``predicted`` the service detects them."""

    gold: list[GoldSpan]
    predicted: list[GoldSpan] | None = None


class SpanOut(BaseModel):
    """A detected span (the note's own text is returned to the caller, never logged)."""

    start: int
    end: int
    label: str
    text: str
    subtype: str | None = None
    source: str
    score: float


class ReplacementOut(BaseModel):
    """What replaced one span; offsets are into the original text."""

    start: int
    end: int
    label: str
    surrogate: str
    operator: str


class DetectResponse(BaseModel):
    """Spans found in a note."""

    id: str
    spans: list[SpanOut]
    elapsed_ms: float


class DeidResponse(BaseModel):
    """The anonymized note, what was found, what replaced it and the privacy report."""

    id: str
    method: Method
    output: str
    spans: list[SpanOut]
    replacements: list[ReplacementOut]
    privacy: dict[str, Any]
    seeded: bool
    elapsed_ms: float


class EvaluateResponse(BaseModel):
    """Detection metrics of one note (see anonymed.evaluate.detection) and the predicted spans."""

    id: str
    report: dict[str, Any]
    spans: list[SpanOut]
    elapsed_ms: float


class MethodInfo(BaseModel):
    """Whether an anonymization method can run here, and why not."""

    available: bool
    reason: str | None = None


class VersionResponse(BaseModel):
    """What this service runs and offers."""

    name: str
    version: str
    languages: list[str]
    methods: dict[str, MethodInfo]
    detectors: list[str]
    operators: list[str]
    profiles: list[str] = Field(default_factory=lambda: list(profile_names()))
    default_profile: str = DEFAULT_PROFILE
    labels: list[str]
    max_body_bytes: int
    timeout_seconds: float
    api_key_required: bool


class HealthResponse(BaseModel):
    """Liveness and readiness: ready when at least one worker can take a request."""

    status: Literal["ok"]
    ready: bool
    workers_ready: int = Field(description="Workers loaded and alive (a killed worker is being replaced).")
    workers: int = Field(description="Workers configured.")
