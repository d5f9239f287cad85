"""The methods the service offers, built through ``anonymed.methods``: once per configuration, shared.

Word substitution is offered when its space loads at start-up, sentence substitution when the service is
started with a bank that loads; each request becomes a method configuration (``request_config``) whose
method is built once (the seed aside: requests get cheap copies drawing from their own seed).
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from typing import Any

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.errors import AnonymedError, ConfigError, MethodUnavailable
from anonymed.labels import Label, label_key
from anonymed.methods import (
    HybridConfig,
    Method,
    MethodConfig,
    ReplaceConfig,
    SentencesConfig,
    WordsConfig,
    WordsMethod,
    build_method,
)
from anonymed.methods.configure import Configured, configure
from anonymed.service.models import DeidRequest, NoteRequest
from anonymed.service.settings import ServiceSettings

log = logging.getLogger("anonymed.service")

#: a note run once through each offered method at start-up, so that lazy parts load before any request
WARM_UP = "The patient was seen today. She is doing well."
#: how many built methods (distinct configurations, seeds aside) the service keeps
CACHED_METHODS = 32


class MethodCache:
    """Methods built and loaded once per configuration (seed aside), most recently used kept."""

    def __init__(self, size: int = CACHED_METHODS) -> None:
        self.size = size
        self._built: OrderedDict[str, Method[Any]] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, config: MethodConfig) -> Method[Any]:
        """The method of ``config``, drawing from its seed; built on first use."""
        unseeded = config.reseeded(None)
        key = unseeded.fingerprint()
        with self._lock:
            method = self._built.get(key)
            if method is None:
                method = build_method(unseeded)
                self._built[key] = method
                if len(self._built) > self.size:
                    self._built.popitem(last=False)
            self._built.move_to_end(key)
        return method.reseeded(config.seed)


class Offers:
    """Which methods this service offers, and why not: the word space and the bank, loaded at start-up."""

    def __init__(self, settings: ServiceSettings) -> None:
        self.settings = settings
        self.words: WordsMethod | None = None
        self.reasons: dict[str, str | None] = {
            "replace": None,
            "words": "word substitution has not been loaded",
            "sentences": "sentence substitution needs a bank (start the service with --sentence-bank)",
        }

    def load(self, methods: MethodCache) -> None:
        """Load the word space and the bank through ``methods``; remember why not on failure."""
        words = WordsConfig(self.settings.word_space)
        if self._offer("words", "word substitution", methods, words):
            method = methods(words)
            assert isinstance(method, WordsMethod)
            self.words = method
        bank = self.settings.sentence_bank
        if bank is not None:
            self._offer("sentences", "sentence substitution", methods, SentencesConfig(bank, k=2))

    def _offer(self, kind: str, name: str, methods: MethodCache, config: MethodConfig) -> bool:
        resource = "an embedding space" if kind == "words" else "a bank"
        try:
            methods(config)(Document("warm-up", WARM_UP))
        except MethodUnavailable as exc:
            log.warning("%s unavailable: %s", name, exc)
            self.reasons[kind] = f"{name} is not installed (install anonymed[embed])"
            return False
        except AnonymedError as exc:
            log.warning("%s unavailable: %s", name, exc)
            self.reasons[kind] = f"{name} needs {resource} and none could be loaded"
            return False
        self.reasons[kind] = None
        return True

    def available(self) -> dict[str, str | None]:
        """Method name -> None if it can run, else the reason it cannot."""
        words, sentences = self.reasons["words"], self.reasons["sentences"]
        hybrid = (
            None
            if words is None or sentences is None
            else "hybrid needs word or sentence substitution and neither is available"
        )
        return {**self.reasons, "hybrid": hybrid}

    def check(self, request: DeidRequest, then: str = "words") -> None:
        """``MethodUnavailable`` when the request's method (or the hybrid's stage ``then``) is not offered."""
        method = then if request.method == "hybrid" else request.method
        reason = self.available().get(method)
        if reason is not None:
            raise MethodUnavailable(f"method {request.method!r} is not available: {reason}")

    def words_config(self, n: int | str, seed: int | None) -> WordsConfig:
        """Word substitution of degree ``n``; a degree beyond the space's table is refused (not widened)."""
        config = WordsConfig(self.settings.word_space, str(n), seed)
        assert self.words is not None
        space = self.words.obfuscator.loaded_space()
        if config.degree.high > space.n_max:
            raise ConfigError(f"degree of obfuscation {config.n} exceeds this space's maximum {space.n_max}")
        return config


def operator_labels(chosen: dict[str, str]) -> dict[Label, str]:
    """Label names -> operator names, refusing unknown labels."""
    return {label_key(name, "operators"): operator for name, operator in chosen.items()}


#: request field -> the configuration key it overrides (the rest are the request's own: text, id, method...)
REQUEST_KEYS: dict[str, tuple[str, ...]] = {
    "lang": ("pipeline", "lang"),
    "detectors": ("pipeline", "detectors"),
    "profile": ("pipeline", "profile"),
    "epsilon": ("pipeline", "epsilon"),
    "seed": ("pipeline", "seed"),
    "operators": ("operators",),
    "operator_params": ("operator_params",),
    "then": ("hybrid", "then"),
}


def request_layer(request: NoteRequest) -> dict[str, Any]:
    """The fields the request set (never those left at their defaults) as a configuration document."""
    document: dict[str, Any] = {}
    for name, key in REQUEST_KEYS.items():
        value = getattr(request, name, None)
        if name not in request.model_fields_set or value is None:
            continue
        if name == "operators":
            value = {label.value: op for label, op in operator_labels(value).items()}
        *tables, last = key
        node = document
        for table in tables:
            node = node.setdefault(table, {})
        node[last] = value
    if isinstance(request, DeidRequest) and request.method == "hybrid":
        for name in ("n", "k"):
            if name in request.model_fields_set:
                document.setdefault("hybrid", {})[name] = str(request.n) if name == "n" else request.k
    return document


def second_stage(chosen: Configured) -> str:
    """The hybrid's second stage: the request's, the configuration's, else words (the service has a space)."""
    then = chosen.effective.get("hybrid", "then")
    return "words" if chosen.effective.source("hybrid", "then") == "default" else str(then)


def request_config(
    request: DeidRequest, offers: Offers, chosen: Configured | None = None, site: PipelineConfig | None = None
) -> MethodConfig:
    """The method configuration of a request, applied to a document whose spans are already detected.

    ``chosen``: the service's configuration with the request laid over it (default: the request alone).
    """
    chosen = chosen or configure(request=request_layer(request))
    pipeline = chosen.pipeline(site=site, stages=("substitute",))
    settings = offers.settings
    if request.method == "replace":
        return ReplaceConfig(pipeline)
    if request.method == "words":
        return offers.words_config(request.n, chosen.seed)
    if request.method == "sentences":
        return SentencesConfig(settings.sentence_bank, request.k, chosen.seed)
    then = second_stage(chosen)
    n = str(chosen.effective.get("hybrid", "n", default="5"))
    n = offers.words_config(n, None).n if then == "words" else n
    k = int(chosen.effective.get("hybrid", "k", default=5))
    return HybridConfig(pipeline, then, k, n, settings.sentence_bank, settings.word_space)
