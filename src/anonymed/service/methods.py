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
from anonymed.profiles import DEFAULT_PROFILE
from anonymed.service.models import DeidRequest
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

    def check(self, request: DeidRequest) -> None:
        """``MethodUnavailable`` when the request's method (or hybrid's second stage) is not offered."""
        method = request.then if request.method == "hybrid" else request.method
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


def request_config(request: DeidRequest, offers: Offers) -> MethodConfig:
    """The method configuration of a request, applied to a document whose spans are already detected."""
    pipeline = PipelineConfig(
        lang=request.lang,
        profile=request.profile or DEFAULT_PROFILE,
        operators=operator_labels(request.operators),
        operator_params=request.operator_params,
        epsilon=request.epsilon,
        seed=request.seed,
        stages=("substitute",),
    )
    settings = offers.settings
    if request.method == "replace":
        return ReplaceConfig(pipeline)
    if request.method == "words":
        return offers.words_config(request.n, request.seed)
    if request.method == "sentences":
        return SentencesConfig(settings.sentence_bank, request.k, request.seed)
    n = offers.words_config(request.n, None).n if request.then == "words" else "5"
    return HybridConfig(pipeline, request.then, request.k, n, settings.sentence_bank, settings.word_space)
