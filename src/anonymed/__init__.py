"""anonymed: de-identification of clinical notes, private, useful, fast and honest about its guarantees."""

from __future__ import annotations

from importlib import metadata

from anonymed.config import PipelineConfig
from anonymed.document import Document, Replacement, Span
from anonymed.errors import AnonymedError, ConfigError, InputError, OutputError, SpanError
from anonymed.labels import Label
from anonymed.pipeline import Pipeline

__version__ = metadata.version("anonymed")

__all__ = [
    "AnonymedError",
    "ConfigError",
    "Document",
    "InputError",
    "Label",
    "OutputError",
    "Pipeline",
    "PipelineConfig",
    "Replacement",
    "Span",
    "SpanError",
    "__version__",
    "deidentify",
]


def deidentify(text: str, *, lang: str = "en", seed: int | None = None, doc_id: str = "doc") -> Document:
    """Detect and replace the PHI of one note with the default pipeline; returns the processed Document."""
    from anonymed.methods import ReplaceConfig  # here: importing any submodule runs this file first

    method = ReplaceConfig(PipelineConfig(lang=lang, seed=seed)).build()
    return method(Document(doc_id, text, {"lang": lang}))
