"""Request and response bodies of the REST API (pydantic models; they make the OpenAPI schema)."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

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


class NoteRequest(BaseModel):
    """Fields shared by every request that carries a note."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(description="The note, as plain text. Offsets in responses count code points.")
    lang: str = Field("en", description="Language of the note: en or fr.")
    id: str = Field("note", pattern=DOC_ID_PATTERN, description="A document id (echoed; never logged).")
    detectors: list[str] | None = Field(None, description="Detector names; default: the configured set.")

    _check_text = field_validator("text")(_no_lone_surrogates)


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
    then: Literal["words", "sentences"] = Field("words", description="Hybrid: the second stage.")


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
