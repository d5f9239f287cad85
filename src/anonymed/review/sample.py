"""``anonymed review sample``: read the input, stratify and flag its notes, draw, detect, write a folder.

The first pass runs the configured detection over every note (to flag notes with many detected spans,
low-confidence spans and detectors that disagree) and keeps only sizes, strata and flags; the second
pass reads the drawn notes again and writes them with their detected spans. With ``oversample = 1``
nothing is flagged and the first pass only counts tokens (cheap on very large inputs).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path, PurePosixPath
from typing import Any, ClassVar

from anonymed.config import PipelineConfig
from anonymed.detect.base import Detector
from anonymed.detect.view import NoteView
from anonymed.document import Document, Span
from anonymed.errors import ConfigError
from anonymed.evaluate.tokens import tokenize
from anonymed.io.atomic import AtomicDir
from anonymed.io.base import Reader
from anonymed.methods import ReplaceConfig
from anonymed.pipeline import Pipeline
from anonymed.randomness import RandomSource
from anonymed.review.folder import (
    FORMAT,
    MANIFEST,
    NOTES,
    SAMPLE,
    VERSION,
    fingerprint,
    note_line,
    sample_csv,
)
from anonymed.review.sampling import Draw, Frame, band_of, draw_sample, length_bands, stratum_name


@dataclass(frozen=True)
class SampleOptions:
    """How to draw: sample size, over-sampling of flagged notes, what is flagged, how to stratify."""

    n: int = 200
    oversample: float = 3.0
    low_confidence: float = 0.75
    length_bands: int = 3
    strata_field: str | None = None
    many_spans: int = 3

    def __post_init__(self) -> None:
        if self.n < 1:
            raise ConfigError(f"--n must be at least 1, got {self.n}")
        if not self.oversample >= 1:
            raise ConfigError(f"--oversample must be at least 1, got {self.oversample}")
        if not 0 <= self.low_confidence <= 1:
            raise ConfigError(f"--low-confidence must be in [0, 1], got {self.low_confidence}")
        if self.length_bands < 1:
            raise ConfigError(f"--length-bands must be at least 1, got {self.length_bands}")
        if self.many_spans < 0:
            raise ConfigError(f"--many-spans must be at least 0 (0: off), got {self.many_spans}")


class _Recording(Detector[Any]):
    """Passes a detector's spans through and keeps a copy, to see what each detector said before merging."""

    name: ClassVar[str] = "recording"

    def __init__(self, inner: Detector[Any], sink: list[Span]) -> None:
        self.inner = inner
        self.sink = sink
        # the note view caches spans by (class, name, params): each wrapper must have its own key, or every
        # wrapper after the first would be served the first detector's spans
        self.params = (type(inner).__qualname__, inner.name, getattr(inner, "params", None))

    def supports(self, lang: str) -> bool:
        """As the wrapped detector."""
        return self.inner.supports(lang)

    def detect(self, doc: Document) -> list[Span]:
        """The wrapped detector's spans, recorded."""
        found = self.inner.detect(doc)
        self.sink.extend(found)
        return found

    def detect_view(self, view: NoteView) -> list[Span]:
        """The wrapped detector's spans over the shared view (its tokens, spans found before), recorded."""
        found = view.spans_of(self.inner)
        self.sink.extend(found)
        return found


class FlaggingDetection:
    """The configured pipeline's detection, plus whether a note deserves over-sampling."""

    def __init__(self, config: PipelineConfig, low_confidence: float, many_spans: int = 0) -> None:
        self.pipeline = Pipeline(config)
        self.low_confidence = low_confidence
        self.many_spans = many_spans
        self._raw: list[Span] = []
        self.pipeline.detectors_ = [_Recording(d, self._raw) for d in self.pipeline.detectors_]

    def __call__(self, doc: Document) -> tuple[Document, bool]:
        """The document with its (merged) spans, and its flag."""
        self._raw.clear()
        done = self.pipeline.detect(doc)
        return done, self.flagged(done.spans, self._raw)

    def flagged(self, merged: Sequence[Span], raw: Sequence[Span]) -> bool:
        """At least ``many_spans`` detected spans (when > 0), a span under the confidence threshold, or
        detectors disagreeing on a span's label or bounds."""
        if 0 < self.many_spans <= len(merged):
            return True
        if any(span.score < self.low_confidence for span in merged):
            return True
        for span in merged:
            members = [r for r in raw if r.start < span.end and span.start < r.end]
            if len({r.source for r in members}) > 1 and len({(r.start, r.end, r.label) for r in members}) > 1:
                return True
        return False


@dataclass
class _Pass:
    frame: list[tuple[int, str | None, int, bool]]
    failed: int = 0
    tokens: int = 0


def _first_pass(reader: Reader, detection: FlaggingDetection | None, field: str | None) -> _Pass:
    seen = _Pass([])
    for index, record in enumerate(reader):
        if not isinstance(record, Document):
            seen.failed += 1
            continue
        tokens = len(tokenize(record.text))
        seen.tokens += tokens
        flag = detection(record)[1] if detection is not None else False
        value = None if field is None else str(record.metadata.get("record", {}).get(field) or "(none)")
        seen.frame.append((index, value, tokens, flag))
    return seen


def _frames(seen: _Pass, options: SampleOptions) -> tuple[list[Frame], list[int]]:
    if options.strata_field is not None:
        return [
            Frame(i, stratum_name(f"{options.strata_field}={v}", f), t, f) for i, v, t, f in seen.frame
        ], []
    bounds = length_bands([t for _, _, t, _ in seen.frame], options.length_bands)
    return [Frame(i, stratum_name(band_of(t, bounds), f), t, f) for i, _, t, f in seen.frame], bounds


def _chosen(reader: Reader, draw: Draw) -> Iterator[Document]:
    wanted = {note.index for note in draw.order}
    for index, record in enumerate(reader):
        if index in wanted and isinstance(record, Document):
            yield record.evolve(metadata={**record.metadata, "review_key": str(index)})


def build_review(
    reader: Reader,
    config: PipelineConfig,
    options: SampleOptions,
    output: Path,
    rng: RandomSource,
    *,
    command: Sequence[str] = (),
    configuration: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Draw the sample from ``reader``'s input and write the review folder ``output``; returns the manifest
    (``configuration``: the run's effective configuration as JSON, recorded in it).

    Refuses an ``output`` that exists and is not empty (it may hold decisions).
    """
    if output.exists() and (not output.is_dir() or any(output.iterdir())):
        raise ConfigError(f"{str(output)!r} exists and is not an empty folder: choose a new review folder")
    detection = FlaggingDetection(config, options.low_confidence, options.many_spans)
    seen = _first_pass(reader, detection if options.oversample > 1 else None, options.strata_field)
    frames, bounds = _frames(seen, options)
    draw = draw_sample(frames, options.n, options.oversample, rng)
    order = {note.index: position for position, note in enumerate(draw.order)}
    lines: list[str] = [""] * len(order)
    for doc in _chosen(reader, draw):
        done, _ = detection(doc)
        lines[order[int(doc.metadata["review_key"])]] = note_line(
            doc.metadata["review_key"], doc.id, doc.lang, doc.text, done.spans
        )
    if any(not line for line in lines):
        raise ConfigError("the input changed between its two readings: draw the sample again")
    rows = [
        {
            "key": str(n.index),
            "stratum": n.stratum,
            "flagged": int(n.flagged),
            "tokens": n.tokens,
            "inclusion_probability": f"{1 / draw.weight(n.stratum):.12g}",
            "weight": f"{draw.weight(n.stratum):.12g}",
        }
        for n in draw.order
    ]
    manifest = _manifest(reader, config, options, draw, (seen, frames, bounds), rng, command)
    if configuration is not None:
        manifest["configuration"] = dict(configuration)
    folder = AtomicDir(output)
    try:
        folder.write_file(PurePosixPath(NOTES), "".join(lines).encode("utf-8"))
        folder.write_file(PurePosixPath(SAMPLE), sample_csv(rows).encode("utf-8"))
        folder.write_file(
            PurePosixPath(MANIFEST), json.dumps(manifest, indent=2, ensure_ascii=False).encode()
        )
        for name in (NOTES, SAMPLE, MANIFEST):  # note text and PHI: owner-only, as the folder
            (folder.root / name).chmod(0o600)
        folder.commit()
    except BaseException:
        folder.abort()
        raise
    return manifest


def detection_fingerprint(config: PipelineConfig) -> str:
    """A digest of what detection does; it draws nothing at random, so the seed (a secret) is left out."""
    return ReplaceConfig(dataclasses.replace(config, stages=("detect",), seed=None)).fingerprint()


def _manifest(
    reader: Reader,
    config: PipelineConfig,
    options: SampleOptions,
    draw: Draw,
    frame_info: tuple[_Pass, list[Frame], list[int]],
    rng: RandomSource,
    command: Sequence[str],
) -> dict[str, Any]:
    seen, frames, bounds = frame_info
    tokens: dict[str, int] = {}
    for frame in frames:
        tokens[frame.stratum] = tokens.get(frame.stratum, 0) + frame.tokens
    strata = {
        h: {
            "population": draw.population[h],
            "sample": draw.allocation[h],
            "weight": draw.weight(h),
            "tokens": tokens[h],
        }
        for h in sorted(draw.population)
    }
    return {
        "format": FORMAT,
        "version": VERSION,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "anonymed": metadata.version("anonymed"),
        "command": list(command),
        "input": {
            "path": str(reader.path),
            "format": reader.format,
            "fingerprint": fingerprint(reader.path),
            "notes": len(seen.frame),
            "failed": seen.failed,
            "tokens": seen.tokens,
        },
        "detection": {
            "lang": config.lang,
            "detectors": list(config.detectors),
            "detector_params": {k: dict(v) for k, v in config.detector_params.items()},
            "high_recall": config.high_recall,
            "fingerprint": detection_fingerprint(config),
        },
        "design": {
            **asdict(options),
            "length_bounds": bounds,
            "seeded": rng.seed is not None,  # the seed itself is a secret: give it again to redraw
            "strata": strata,
        },
    }
