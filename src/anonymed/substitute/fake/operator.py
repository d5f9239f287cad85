"""The ``fake`` operator: realistic, locale-aware surrogates (Faker) in the shape of the original value."""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, cast

from faker import Faker

from anonymed.dates.over89 import OVER89, cached_reference, check_marker
from anonymed.dates.random_date import fake_date
from anonymed.detect.lexicons.resources import name_lists
from anonymed.detect.patterns.ids import reads_as_nir
from anonymed.detect.tokens import fold
from anonymed.document import Span, StateKey
from anonymed.errors import ConfigError
from anonymed.labels import Label
from anonymed.randomness import RandomSource
from anonymed.substitute.base import Context, Operator, OperatorParams
from anonymed.substitute.context import normalise_value
from anonymed.substitute.fake import places, towns
from anonymed.substitute.fake.names import (
    Piece,
    Role,
    age_after,
    ends_with_title,
    kin_after,
    kin_before,
    marital_before,
    name_layout,
    render_name,
    staff_before,
    title_gender,
)
from anonymed.substitute.fake.numbers import (
    fake_age,
    fake_measurement,
    fake_nir,
    fake_phone,
    fake_ssn,
    measurement_like,
)
from anonymed.substitute.invariant import identifying_words, leaks
from anonymed.substitute.shape import acceptable, apply_case, case_pattern, force_different, mask, random_like

#: Faker locale of each supported language (``FakeParams.locales`` merges over it)
DEFAULT_LOCALES: Final[Mapping[str, str]] = MappingProxyType({"en": "en_US", "fr": "fr_FR"})

#: labels whose low-confidence spans may be measurements or settings ("700x12x", "#30f/30cc")
_MEASURABLE = frozenset({Label.ID, Label.OTHER, Label.CONTACT, Label.LOCATION, Label.ORGANIZATION})
_EMAIL = re.compile(r"[^\s@]+@[^\s@]+\.[^\W\d_]{2,}")
_IP = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7}", re.I)
_WORDS = re.compile(r"[^\W\d_]{2,}")
#: the document's original values (normalised, and the words of names) and their identifying words
_AVOID: Final = StateKey[tuple[frozenset[str], frozenset[str]]]("fake:avoid")
_DOMAIN = re.compile(r"(?:[a-z]+://)?(?:[\w-]+\.)+[a-z]{2,}(?:/\S*)?", re.I)


@dataclass(frozen=True)
class FakeParams(OperatorParams):
    """``locales``: language -> Faker locale, over en_US/fr_FR; dates drawn in [min_year, max_year]
    (birth dates in [min_birth_year, max_birth_year]); ``max_tries`` redraws, then a shape-random fallback;
    ``over89``: what replaces a date indicative of an age over 89 (``over89`` module)."""

    locales: Mapping[str, str] = field(default_factory=dict)
    min_year: int = 1950
    max_year: int = 2030
    min_birth_year: int = 1920
    max_birth_year: int = 2010
    max_tries: int = 20
    over89: str = OVER89


@dataclass(frozen=True)
class _NameLists:
    first: frozenset[str]
    male: frozenset[str]
    female: frozenset[str]


class FakeOperator(Operator[FakeParams]):
    """Replace a span by a realistic surrogate of its label, drawn from the stream of its value.

    Equal values get equal surrogates (the stream is keyed on the normalised value); name words are
    keyed one by one, so ``Smith`` and ``John Smith`` share the surname. Faker instances are built once
    per locale and re-pointed at the value's stream before each draw (one operator per thread).
    """

    name = "fake"
    params_type = FakeParams

    def __init__(self, params: FakeParams | None = None) -> None:
        super().__init__(params)
        self._fakers: dict[str, Faker] = {}
        self._names: dict[str, _NameLists] = {}

    @property
    def locales(self) -> dict[str, str]:
        """Language -> Faker locale in effect."""
        return {**DEFAULT_LOCALES, **self.params.locales}

    def validate(self) -> None:
        """Check the year range and tries, and that every locale exists in Faker."""
        super().validate()
        params = self.params
        for low, high in (("min_year", "max_year"), ("min_birth_year", "max_birth_year")):
            years = (getattr(params, low), getattr(params, high))
            if not 1 <= years[0] <= years[1] <= 9999:
                raise ConfigError(f"fake needs 1 <= {low} <= {high} <= 9999, got {years[0]}..{years[1]}")
        if params.max_tries < 1:
            raise ConfigError(f"fake max_tries must be at least 1, got {params.max_tries!r}")
        check_marker(params.over89, "fake")
        for locale in self.locales.values():
            self._faker_for_locale(locale)

    def _faker_for_locale(self, locale: str) -> Faker:
        if locale not in self._fakers:
            try:
                self._fakers[locale] = Faker(locale)
            except (AttributeError, ImportError):
                raise ConfigError(f"unknown Faker locale {locale!r} in fake operator locales") from None
        return self._fakers[locale]

    def faker(self, lang: str, rng: RandomSource) -> Faker:
        """The Faker of ``lang`` (English's when unmapped), drawing from ``rng``."""
        locales = self.locales
        faker = self._faker_for_locale(locales.get(lang, locales["en"]))
        cast(Any, faker).random = rng.python  # Faker's stub omits the ``random`` property
        return faker

    def prepare(self, spans: Sequence[Span], context: Context) -> None:
        """Remember every original value of the document and its words: surrogates avoid them all.

        All of the document's spans count, not only this operator's: each label may have its own operator,
        and the first one to prepare computes the lists for all of them.
        """
        context.state.computed(_AVOID, lambda: _avoided(context.document.spans))

    def operate(self, span: Span, context: Context) -> str:
        """A surrogate in the span's shape that differs from its text (see ``shape.acceptable``).

        It also avoids every other original value of the document, so that no surrogate looks like a leak.
        """
        rng = context.value_rng(span)
        for _ in range(self.params.max_tries):
            candidate = self._draw(span, context, rng)
            if _usable(candidate, span.text, context):
                return candidate
        return force_different(random_like(span.text, rng), span.text, rng)

    def _draw(self, span: Span, context: Context, rng: RandomSource) -> str:
        if span.label is Label.NAME:
            return self._name(span, context)
        if span.label in _MEASURABLE and measurement_like(span.text):
            return fake_measurement(span.text, rng)  # a setting or size flagged by mistake: one of its kind
        faker = self.faker(context.lang, rng)
        text, case = span.text, case_pattern(span.text)
        if span.label is Label.DATE:
            params = self.params
            birth = span.subtype == "birth"
            years = (
                (params.min_birth_year, params.max_birth_year)
                if birth
                else (params.min_year, params.max_year)
            )
            reference = cached_reference(context.document, context.state)
            lang = _lang(context.lang)
            return fake_date(text, rng, lang, years, span.subtype, reference=reference, over89=params.over89)
        if span.label is Label.AGE:
            return fake_age(text, rng)
        if span.label is Label.LOCATION:
            return self._location(span, context, faker, rng, _lang(context.lang))
        if span.label is Label.ORGANIZATION:
            return apply_case(faker.company(), case)
        if span.label is Label.CONTACT:
            return _contact(span, faker, rng, _lang(context.lang))
        if span.label is Label.ID:
            return _identifier(span, rng, _lang(context.lang))
        if span.label is Label.PROFESSION:
            return apply_case(faker.job(), case)
        return random_like(text, rng)

    def _name(self, span: Span, context: Context) -> str:
        locale = self.locales.get(context.lang, self.locales["en"])
        lists = self._name_lists(locale)

        whole = identifying_words(span.text)  # no word may take another word's original either

        def draw(piece: Piece) -> str:
            start = span.start + piece.offset
            rng = context.value_rng(Span(start, start + len(piece.text), span.label, piece.text))
            faker = self.faker(context.lang, rng)
            for _ in range(self.params.max_tries):
                word = _name_word(piece, faker, lists, rng, gender)
                candidate = apply_case(word, case_pattern(piece.text))
                if _usable(candidate, piece.text, context) and whole.isdisjoint(identifying_words(candidate)):
                    return candidate
            return force_different(random_like(piece.text, rng), piece.text, rng)

        before = context.document.text[max(0, span.start - 16) : span.start]
        ahead = context.document.text[span.end : span.end + 24]
        after = ahead[:8]
        kin = kin_before(before) or kin_after(ahead)
        gender = title_gender(before, span.text, after, context.lang) or (kin if kin != "any" else None)
        # a listed first name after a staff role ("interpreter Olga") is one, though Faker's list lacks it
        # and so is one right before an age ("enfants (Léa 9 ans, Hugo 6 ans)")
        listed = fold(span.text) in name_lists().first
        aged = age_after(ahead[:12])
        staff = (staff_before(before) or aged) and listed
        layout = name_layout(
            span.text,
            lists.first,
            context.lang,
            after_title=ends_with_title(before, context.lang),
            after_kin=kin is not None or staff,
            after_marital=marital_before(before),
        )
        return render_name(layout, draw)

    def _name_lists(self, locale: str) -> _NameLists:
        if locale not in self._names:
            faker = self._faker_for_locale(locale)
            person = next((p for p in faker.providers if hasattr(p, "first_names")), None)

            def folded(attribute: str) -> frozenset[str]:
                return frozenset(n.casefold() for n in getattr(person, attribute, ()))

            self._names[locale] = _NameLists(
                folded("first_names"), folded("first_names_male"), folded("first_names_female")
            )
        return self._names[locale]

    def _location(self, span: Span, context: Context, faker: Faker, rng: RandomSource, lang: str) -> str:
        text = span.text
        subtype = span.subtype or _guess_location(text)
        if subtype == "zip" and any(ch.isalpha() for ch in text):
            subtype = _guess_location(text)  # an address holding a postal code, not a postal code
        document = context.document.text
        before, after = document[max(0, span.start - 30) : span.start], document[span.end : span.end + 30]
        if subtype == "zip":
            state = towns.state_before(before) if lang == "en" else None
            in_state = getattr(faker, "postcode_in_state", None) if state is not None else None
            if in_state is not None:  # "Dallas, TX 75201": a ZIP code of that state (USPS prefixes)
                return _code_like(text, lambda: in_state(state), rng)
            return _code_like(text, faker.postcode, rng)
        if subtype == "ip":
            return str(faker.ipv6() if ":" in text else faker.ipv4())
        kind = places.place_kind(text, before, after, lang)
        if subtype in ("street", "hospital") and kind in ("town", "state", "country"):
            kind = "address" if subtype == "street" else "hospital-name"
        pair = towns.town_and_state(text, lang, rng) if kind == "town" else None
        if pair is not None:  # "Dayton, Ohio": a town of another state, and that state
            return apply_case(pair, case_pattern(text))
        state = towns.state_after(after) if kind in ("town", "address") else None
        value = self._place(kind, text, lang, rng, state)
        return apply_case(value, case_pattern(text))

    @staticmethod
    def _place(kind: str, text: str, lang: str, rng: RandomSource, state: str | None = None) -> str:
        if kind == "hospital":
            return places.hospital(text, lang, rng)
        if kind == "hospital-name":
            return places.hospital_name(lang, rng)
        if kind == "abbreviation":
            return towns.abbreviation(text, rng)
        if kind == "address":
            return places.address(text, lang, rng, state=state)
        if kind == "state":
            return towns.state(text, rng)
        if kind == "country":
            return towns.country(rng)
        return towns.town(text, lang, rng, state=state).name


def _avoided(spans: Sequence[Span]) -> tuple[frozenset[str], frozenset[str]]:
    """The values to avoid (normalised, and every word of a name) and the identifying words of all."""
    avoid = {normalise_value(s.text) for s in spans}
    avoid.update(w.casefold() for s in spans if s.label is Label.NAME for w in _WORDS.findall(s.text))
    return frozenset(avoid), frozenset(w for s in spans for w in identifying_words(s.text))


def _usable(candidate: str, original: str, context: Context) -> bool:
    """Acceptable (``shape.acceptable``), no leak (``invariant``), and no value or word of the document."""
    avoid, words = context.state.get(_AVOID) or (frozenset(), frozenset())
    return (
        acceptable(candidate, original)
        and normalise_value(candidate) not in avoid
        and not leaks(candidate, original)
        and words.isdisjoint(identifying_words(candidate))
    )


def _lang(lang: str) -> str:
    return lang if lang in DEFAULT_LOCALES else "en"


def _name_word(
    piece: Piece, faker: Faker, lists: _NameLists, rng: RandomSource, gender: str | None = None
) -> str:
    """A Faker name for the piece: a first name of the title's gender, else of the original's."""
    if piece.role is Role.INITIAL:
        return rng.choice(string.ascii_uppercase) + piece.text[1:]
    if piece.role is Role.RANDOM:
        return random_like(piece.text, rng)
    if piece.role is Role.LAST:
        return str(faker.last_name())
    if gender is not None:
        return str(faker.first_name_male() if gender == "male" else faker.first_name_female())
    folded = piece.text.casefold()
    if folded in lists.male and folded not in lists.female:
        return str(faker.first_name_male())
    if folded in lists.female and folded not in lists.male:
        return str(faker.first_name_female())
    return str(faker.first_name())


def _guess_location(text: str) -> str:
    """``ip``, ``zip`` (digits only), else ``place`` (its kind is read by ``places.place_kind``)."""
    if _IP.fullmatch(text.strip()):
        return "ip"
    if any(ch.isdigit() for ch in text) and not any(ch.isalpha() for ch in text):
        return "zip"
    return "place"


def _code_like(text: str, generate: Callable[[], object], rng: RandomSource, tries: int = 5) -> str:
    """A generated code laid out like ``text`` if one comes quickly, else ``text``'s shape at random."""
    layout = mask(text)
    for _ in range(tries):
        candidate = str(generate())
        if mask(candidate) == layout:
            return candidate
    return random_like(text, rng)


def _contact(span: Span, faker: Faker, rng: RandomSource, lang: str) -> str:
    text = span.text
    subtype = span.subtype or _guess_contact(text)
    if subtype == "email":
        return apply_case(str(faker.email()), case_pattern(text))
    if subtype == "url":
        return _url(text, faker)
    if subtype == "handle":
        return "@" + str(faker.user_name())  # a social-media handle: another user name
    return fake_phone(text, rng, north_american=lang == "en")


def _guess_contact(text: str) -> str:
    if _EMAIL.search(text):
        return "email"
    return "url" if _DOMAIN.fullmatch(text.strip()) else "phone"


def _url(text: str, faker: Faker) -> str:
    lowered = text.lower()
    if "://" in text:
        url = str(faker.url())
        url = url if text.endswith("/") else url.rstrip("/")
        return url.replace("https://", "http://", 1) if lowered.startswith("http://") else url
    domain = str(faker.domain_name())
    return "www." + domain if lowered.startswith("www.") else domain


def _identifier(span: Span, rng: RandomSource, lang: str) -> str:
    surrogate: str | None = None
    # a French number in INSEE's layout is a NIR, its key mistyped or not ("1 47 02 69 123 456 78" had become
    # "0 23 60 83 481 096 44", a sex digit that does not exist)
    loose = lang == "fr" and span.subtype in (None, "other") and reads_as_nir(span.text, key=False)
    if span.subtype == "nir" or loose or (span.subtype is None and reads_as_nir(span.text)):
        surrogate = fake_nir(span.text, rng)
    elif span.subtype == "ssn":
        surrogate = fake_ssn(span.text, rng)
    return surrogate if surrogate is not None else random_like(span.text, rng)
