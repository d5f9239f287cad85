"""Per-value random streams: the mechanism behind memoization within a document and across a patient."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from anonymed.document import Document, Span
from anonymed.randomness import RandomSource

_SPACES = re.compile(r"\s+")


def normalise_value(text: str) -> str:
    """The memoization key of a surface string: case-folded, whitespace collapsed."""
    return _SPACES.sub(" ", text).strip().casefold()


class ValueStreams:
    """Gives every distinct (label, value) of a document its own deterministic random stream.

    Operators draw from the stream of the value they replace, so equal values get equal surrogates
    without storing any mapping. The stream key is, in order of precedence:
    HMAC(patient key, patient id, label, value) when a patient key is set and the document names a
    patient (consistent across that patient's documents); derived from the run's seed and the
    document id when seeded (reproducible); otherwise fresh secret bytes per value (secure).
    """

    def __init__(self, document: Document, rng: RandomSource, patient_key: bytes | None = None) -> None:
        self.document = document
        self.rng = rng
        self.patient_key = patient_key
        self._secret_keys: dict[tuple[str, str], bytes] = {}

    def key_for(self, label: str, text: str) -> bytes:
        """The stream key of a value (see class docstring)."""
        value = normalise_value(text)
        patient = self.document.patient_id
        if self.patient_key is not None and patient is not None:
            return patient_stream_key(self.patient_key, patient, label, text)
        if not self.rng.secure:
            doc_stream = self.rng.spawn(f"doc:{self.document.id}")
            data = f"{label}\x00{value}".encode(errors="surrogatepass")  # lone surrogates too (Python API)
            return hashlib.blake2b(data, key=doc_stream_key(doc_stream)).digest()
        return self._secret_keys.setdefault((label, value), secrets.token_bytes(32))

    def for_span(self, span: Span) -> RandomSource:
        """The random stream of the span's (label, value)."""
        return RandomSource.from_key(self.key_for(span.label.value, span.text))


def patient_stream_key(patient_key: bytes, patient: str, label: str, text: str) -> bytes:
    """HMAC(patient key, patient id, label, value): a value's stream key for a keyed, named patient."""
    message = "\x00".join((patient, label, normalise_value(text))).encode(errors="surrogatepass")
    return hmac.new(patient_key, message, hashlib.sha256).digest()


def doc_stream_key(stream: RandomSource) -> bytes:
    """32 bytes drawn from a (seeded) stream, used as a BLAKE2b key."""
    return stream.python.getrandbits(256).to_bytes(32, "big")
