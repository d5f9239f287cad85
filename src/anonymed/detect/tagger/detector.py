"""The trained PHI tagger: a CRF over word tokens, stacked on the pattern and lexicon detectors' hints."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import ClassVar, Final

from anonymed.detect.base import Detector, DetectorParams
from anonymed.detect.lexicons.resources import name_lists
from anonymed.detect.tagger.decode import (
    SOURCE,
    anchor_tokens,
    best_label,
    drop_field_labels,
    drop_foreign_months,
    drop_graded_numbers,
    drop_unlikely_common_words,
    drop_valedictions,
    extend_initials,
    propagate,
    spans_of,
    trust_hints,
    written_contact,
)
from anonymed.detect.tagger.family import Tagger, load_tagger
from anonymed.detect.tagger.model import OUTSIDE, SURE_OUTSIDE
from anonymed.detect.tagger.names import (
    bridge_particles,
    drop_common_headings,
    extend_names,
    join_breton_ch,
    join_hyphenated,
    lower_note_first_names,
    married_names,
    named_before_age,
    relatives_named,
    staff_named,
    titled_places_named,
    trim_lower_edges,
)
from anonymed.detect.tagger.places import (
    drop_clock_times,
    end_places_at_sentence_end,
    join_hyphenated_places,
    trim_before_streets,
)
from anonymed.detect.tagger.prune import prune_names
from anonymed.detect.tokens import TaggerToken
from anonymed.detect.view import NoteView
from anonymed.document import Document, Span
from anonymed.errors import ConfigError, ResourceError

#: the shipped model folder of each language, under ``anonymed/resources/models/``
SHIPPED_MODELS: Final = {"en": "tagger-en", "fr": "tagger-fr"}


@dataclass(frozen=True)
class LanguageDecoding:
    """How a language's notes are decoded by default (each field has a ``TaggerParams`` override)."""

    propagate_labels: tuple[str, ...] = ("NAME",)
    initials: bool = False
    names: bool = False
    prune: bool = False
    #: untag lower-case common words tagged as places that the model finds more likely outside
    unlikely_common: bool = False
    #: untag lower-case common words at the edges of a capitalised name ("voisin M. Lopez passe")
    lower_edges: bool = False
    #: tag a name right after a relation word ("sa fille, Aminata") without the other name rules of ``names``
    relatives: bool = False
    #: hint sources whose spans count as found (tagged, and propagated to the note's other mentions)
    trusted_hints: tuple[str, ...] = ()


#: per language (chosen by patient-level cross-validation; French "M. Dupont" is Monsieur, not an initial,
#: and the context rules and precision rules are English)
DECODE_DEFAULTS: Final[dict[str, LanguageDecoding]] = {
    "fr": LanguageDecoding(unlikely_common=True, lower_edges=True, relatives=True),
    "en": LanguageDecoding(
        ("NAME", "LOCATION"),
        initials=True,
        names=True,
        prune=True,
        lower_edges=True,
        trusted_hints=(
            "contexts.title",
            "contexts.credential",
            "contexts.initial",
            "contexts.subject",
            "contexts.patient",
            "contexts.county",
            "contexts.described",
            "contexts.institution",
            "contexts.kin",
            "contexts.residence",
            "contexts.caller",
            "contexts.area",
            "contexts.family",
            "contexts.region",
            "contexts.quoted",
            "lexicons.street",
        ),
    ),
}
_NEUTRAL: Final = LanguageDecoding()


@dataclass(frozen=True)
class TaggerParams(DetectorParams):
    """Options of the tagger.

    A token is PHI when the model's probability that it is outside any PHI, P(O), is below ``threshold``.
    ``high_recall`` raises that threshold to ``high_recall_threshold`` (more tokens tagged, lower
    precision). ``propagate`` also tags, anywhere in the note, the words the model tagged as a name with
    probability above ``propagate_above`` elsewhere in the same note, and likewise for the other labels of
    ``propagate_labels``. ``initials`` also tags a lone letter followed by a period and a tagged name ("J.
    Smith"). ``extend_names`` also tags a listed first name right before a tagged name and a listed last
    name right after one ("NORA QUELL" when "QUELL" was found). ``prune`` applies the precision rules of
    ``tagger.prune`` (role words, eponyms, doses, edge words). ``trusted_hints`` names hint sources
    (context rules) whose names are taken as found: tagged, and propagated like the model's own. All five
    default (None) to the note language's ``DECODE_DEFAULTS``. ``model`` is a model folder written by
    ``anonymed train recognizer``; by default
    the shipped model of the note's language.
    """

    #: chosen by patient-level cross-validation (docs/detection.md): English 0.971 / 0.905 at 0.9 against
    #: 0.968 / 0.910 at 0.8; French 0.996 / 0.961 against 0.994 / 0.964
    threshold: float = 0.9
    high_recall: bool = False
    high_recall_threshold: float = 0.95
    propagate: bool = True
    propagate_above: float = 0.5
    propagate_labels: tuple[str, ...] | None = None
    initials: bool | None = None
    extend_names: bool | None = None
    prune: bool | None = None
    trusted_hints: tuple[str, ...] | None = None
    model: str | None = None

    def __post_init__(self) -> None:
        for name, top in (
            ("threshold", SURE_OUTSIDE),
            ("high_recall_threshold", SURE_OUTSIDE),
            ("propagate_above", 1.0),
        ):
            value = getattr(self, name)
            if not 0.0 < value <= top:
                raise ConfigError(f"tagger option {name} must be in (0, {top}], got {value!r}")

    @property
    def cutoff(self) -> float:
        """The P(O) threshold in force."""
        return self.high_recall_threshold if self.high_recall else self.threshold


@lru_cache(maxsize=8)
def shipped_model_path(lang: str) -> Path:
    """The folder of the shipped model for ``lang`` (inside the installed package)."""
    try:
        name = SHIPPED_MODELS[lang]
    except KeyError:
        raise ResourceError(f"no shipped tagger model for language {lang!r}") from None
    return Path(str(resources.files("anonymed").joinpath("resources", "models", name)))


@lru_cache(maxsize=8)
def load_model(folder: str) -> Tagger:
    """The model in ``folder`` (CRF, CNN or ensemble), loaded once per process and shared."""
    return load_tagger(Path(folder))


class TaggerDetector(Detector[TaggerParams]):
    """PHI spans from the trained CRF tagger (scores are marginal probabilities of being PHI)."""

    name: ClassVar[str] = SOURCE
    params_type = TaggerParams

    def model_for(self, lang: str) -> Tagger:
        """The model used for notes in ``lang``."""
        folder = self.params.model or str(shipped_model_path(lang))
        return load_model(folder)

    def detect(self, doc: Document) -> list[Span]:
        """Tagged spans of ``doc.text`` (source ``tagger``)."""
        return self.detect_view(NoteView(doc))

    def detect_view(self, view: NoteView) -> list[Span]:
        """Tagged spans of the view's document, from its shared tokens and its detectors' spans."""
        model = self.model_for(view.lang)
        tokens, marginals = model.marginals(view)
        return self.decode(view.text, tokens, marginals, lang=view.lang, hints=model.hints(view))

    def decode(
        self,
        text: str,
        tokens: Sequence[TaggerToken],
        marginals: Sequence[dict[str, float]],
        *,
        lang: str | None = None,
        hints: Sequence[Span] = (),
    ) -> list[Span]:
        """Spans from per-token label probabilities, under this detector's threshold and propagation.

        ``lang`` chooses the defaults of ``propagate_labels`` and ``initials`` (None: names only, no
        initials). ``hints`` are the spans of the rule detectors: a confident format (``anchors``) gives
        its label to the tagged tokens inside it, and no tagged span crosses its edges.
        """
        labels = self._decide(text, tokens, marginals, lang, hints)
        groups = anchor_tokens(tokens, hints, labels)
        return [
            span for span in spans_of(text, tokens, marginals, labels, groups) if written_contact(text, span)
        ]

    def _decide(
        self,
        text: str,
        tokens: Sequence[TaggerToken],
        marginals: Sequence[dict[str, float]],
        lang: str | None,
        hints: Sequence[Span],
    ) -> list[str]:
        params = self.params
        defaults = DECODE_DEFAULTS.get(lang or "", _NEUTRAL)
        labels = [best_label(p) if p[OUTSIDE] < params.cutoff else OUTSIDE for p in marginals]
        trusted = params.trusted_hints if params.trusted_hints is not None else defaults.trusted_hints
        found = trust_hints(tokens, hints, labels, frozenset(trusted)) if trusted else {}
        names = params.extend_names if params.extend_names is not None else defaults.names
        if names or (params.extend_names is None and defaults.relatives):
            relatives = relatives_named(tokens, labels, name_lists(), lang or "en")
            found.setdefault("NAME", set()).update(relatives)
            found["NAME"].update(named_before_age(tokens, labels, name_lists(), lang or "en"))
            married_names(tokens, labels)
        if names:
            found.setdefault("NAME", set()).update(staff_named(tokens, labels, name_lists(), lang or "en"))
            found["NAME"].update(lower_note_first_names(tokens, labels, name_lists(), lang or "en"))
        if params.propagate:
            propagated = (
                params.propagate_labels if params.propagate_labels is not None else defaults.propagate_labels
            )
            for label in propagated:
                extra = found.get(label, set())
                propagate(tokens, marginals, labels, label, params.propagate_above, extra)
        if params.initials if params.initials is not None else defaults.initials:
            extend_initials(tokens, labels)
        if names:
            extend_names(tokens, labels, name_lists(), lang or "en")
            join_hyphenated(tokens, labels)
            bridge_particles(tokens, labels)
            titled_places_named(tokens, labels)
        if params.prune if params.prune is not None else defaults.prune:
            prune_names(text, tokens, labels)
        if defaults.unlikely_common:
            drop_unlikely_common_words(tokens, marginals, labels, name_lists(), lang or "en")
        if defaults.lower_edges:
            trim_lower_edges(tokens, labels, name_lists(), lang or "en")
        join_breton_ch(tokens, labels)
        drop_common_headings(tokens, labels, name_lists(), lang or "en")
        if lang == "fr":
            join_hyphenated_places(tokens, labels)
            trim_before_streets(tokens, labels, name_lists())
            end_places_at_sentence_end(tokens, labels, name_lists())
        drop_clock_times(tokens, labels)
        drop_field_labels(tokens, labels)
        drop_valedictions(tokens, labels)
        drop_graded_numbers(tokens, labels)
        if lang == "en":
            drop_foreign_months(tokens, labels)
        return labels
