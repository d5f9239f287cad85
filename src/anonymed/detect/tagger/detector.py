"""The trained PHI tagger: a CRF over word tokens, stacked on the pattern and lexicon detectors' hints."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, Final

from anonymed.detect.base import Detector
from anonymed.detect.lexicons.tokens import fold
from anonymed.detect.tagger.features import TaggerToken
from anonymed.detect.tagger.model import OUTSIDE, TaggerModel
from anonymed.document import LONE_SURROGATE, Document, Span
from anonymed.errors import ConfigError, ResourceError

SOURCE: Final = "tagger"

#: the shipped model folder of each language, under ``anonymed/resources/models/``
SHIPPED_MODELS: Final = {"en": "tagger-en", "fr": "tagger-fr"}

#: per language, the labels propagated to other mentions and whether initials join names, by default
#: (chosen by patient-level cross-validation; French "M. Dupont" is Monsieur, not an initial)
DECODE_DEFAULTS: Final[dict[str, tuple[tuple[str, ...], bool]]] = {"en": (("NAME", "LOCATION"), True)}
_NEUTRAL: Final[tuple[tuple[str, ...], bool]] = (("NAME",), False)

#: characters that may separate two tokens of one span ("J. Smith", "O'Brien", "12/03/2020", "Jean-Marc")
_JOINERS: Final = frozenset(" \t.'’-/,:")


@dataclass(frozen=True)
class TaggerParams:
    """Options of the tagger.

    A token is PHI when the model's probability that it is outside any PHI, P(O), is below ``threshold``.
    ``high_recall`` raises that threshold to ``high_recall_threshold`` (more tokens tagged, lower
    precision). ``propagate`` also tags, anywhere in the note, the words the model tagged as a name with
    probability above ``propagate_above`` elsewhere in the same note, and likewise for the other labels of
    ``propagate_labels``. ``initials`` also tags a lone letter followed by a period and a tagged name ("J.
    Smith"). Both default (None) to the note language's ``DECODE_DEFAULTS``. ``model`` is a model folder
    written by ``anonymed train recognizer``; by default the shipped model of the note's language.
    """

    threshold: float = 0.8
    high_recall: bool = False
    high_recall_threshold: float = 0.95
    propagate: bool = True
    propagate_above: float = 0.5
    propagate_labels: tuple[str, ...] | None = None
    initials: bool | None = None
    model: str | None = None

    def __post_init__(self) -> None:
        for name in ("threshold", "high_recall_threshold", "propagate_above"):
            value = getattr(self, name)
            if not 0.0 < value <= 1.0:
                raise ConfigError(f"tagger option {name} must be in (0, 1], got {value!r}")

    @property
    def cutoff(self) -> float:
        """The P(O) threshold in force."""
        return self.high_recall_threshold if self.high_recall else self.threshold


def shipped_model_path(lang: str) -> Path:
    """The folder of the shipped model for ``lang`` (inside the installed package)."""
    try:
        name = SHIPPED_MODELS[lang]
    except KeyError:
        raise ResourceError(f"no shipped tagger model for language {lang!r}") from None
    return Path(str(resources.files("anonymed").joinpath("resources", "models", name)))


@lru_cache(maxsize=8)
def load_model(folder: str) -> TaggerModel:
    """The model in ``folder``, loaded once per process and shared."""
    return TaggerModel.load(Path(folder))


class TaggerDetector(Detector):
    """PHI spans from the trained CRF tagger (scores are marginal probabilities of being PHI)."""

    name: ClassVar[str] = SOURCE
    params_type: ClassVar[type[Any]] = TaggerParams

    def __init__(self, params: TaggerParams | None = None) -> None:
        self.params = params if params is not None else TaggerParams()

    def model_for(self, lang: str) -> TaggerModel:
        """The model used for notes in ``lang``."""
        folder = self.params.model or str(shipped_model_path(lang))
        return load_model(folder)

    def detect(self, doc: Document) -> list[Span]:
        """Tagged spans of ``doc.text`` (source ``tagger``)."""
        tagged = doc
        # CRFsuite fails on lone surrogates (SystemError): tag a same-length copy with U+FFFD in their place
        if LONE_SURROGATE.search(doc.text):
            tagged = Document(doc.id, LONE_SURROGATE.sub("\ufffd", doc.text), doc.metadata)
        tokens, marginals = self.model_for(doc.lang).marginals(tagged)
        return self.decode(doc.text, tokens, marginals, lang=doc.lang)

    def decode(
        self,
        text: str,
        tokens: Sequence[TaggerToken],
        marginals: Sequence[dict[str, float]],
        *,
        lang: str | None = None,
    ) -> list[Span]:
        """Spans from per-token label probabilities, under this detector's threshold and propagation.

        ``lang`` chooses the defaults of ``propagate_labels`` and ``initials`` (None: names only, no
        initials).
        """
        return _spans(text, tokens, marginals, self._decide(tokens, marginals, lang))

    def _decide(
        self, tokens: Sequence[TaggerToken], marginals: Sequence[dict[str, float]], lang: str | None
    ) -> list[str]:
        params = self.params
        default_labels, default_initials = DECODE_DEFAULTS.get(lang or "", _NEUTRAL)
        labels = [_best(p) if p[OUTSIDE] < params.cutoff else OUTSIDE for p in marginals]
        if params.propagate:
            for label in params.propagate_labels if params.propagate_labels is not None else default_labels:
                _propagate(tokens, marginals, labels, label, params.propagate_above)
        if params.initials if params.initials is not None else default_initials:
            _extend_initials(tokens, labels)
        return labels


def _extend_initials(tokens: Sequence[TaggerToken], labels: list[str]) -> None:
    """Tag ``NAME`` on a one-letter token followed by ``.`` and a name on the same line ("J. Smith")."""
    for index in range(len(tokens) - 1, 0, -1):
        token, after = tokens[index - 1], tokens[index]
        if (
            labels[index] == "NAME"
            and labels[index - 1] == OUTSIDE
            and len(token.text) == 1
            and token.text.isalpha()
            and after.before == "."
            and not after.newline_before
        ):
            labels[index - 1] = "NAME"


def _propagate(
    tokens: Sequence[TaggerToken],
    marginals: Sequence[dict[str, float]],
    labels: list[str],
    label: str,
    above: float,
) -> None:
    """Tag ``label`` on the untagged mentions of words tagged ``label`` with probability above ``above``."""
    sure = {
        fold(t.text)
        for t, p in zip(tokens, marginals, strict=True)
        if len(t.text) > 2 and p.get(label, 0.0) > above
    }
    if sure:
        for index, token in enumerate(tokens):
            if labels[index] == OUTSIDE and fold(token.text) in sure:
                labels[index] = label


def _best(probabilities: dict[str, float]) -> str:
    return max((label for label in probabilities if label != OUTSIDE), key=probabilities.__getitem__)


def _spans(
    text: str, tokens: Sequence[TaggerToken], marginals: Sequence[dict[str, float]], labels: Sequence[str]
) -> list[Span]:
    """Join neighbouring tokens of one label into spans (across short punctuation, not line breaks)."""
    spans: list[Span] = []
    run: list[int] = []
    for index, label in enumerate(labels):
        if run and (label != labels[run[-1]] or not _joinable(text, tokens[run[-1]], tokens[index])):
            spans.append(_span(text, tokens, marginals, run, labels[run[0]]))
            run = []
        if label != OUTSIDE:
            run.append(index)
    if run:
        spans.append(_span(text, tokens, marginals, run, labels[run[0]]))
    return spans


def _joinable(text: str, left: TaggerToken, right: TaggerToken) -> bool:
    gap = text[left.end : right.start]
    return len(gap) <= 3 and all(char in _JOINERS for char in gap)


def _span(
    text: str,
    tokens: Sequence[TaggerToken],
    marginals: Sequence[dict[str, float]],
    run: list[int],
    label: str,
) -> Span:
    score = sum(1.0 - marginals[i][OUTSIDE] for i in run) / len(run)
    start, end = tokens[run[0]].start, tokens[run[-1]].end
    return Span.of(text, start, end, label, source=SOURCE, score=min(1.0, max(0.0, score)))
