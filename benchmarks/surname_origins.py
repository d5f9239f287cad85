"""Surname recall by the surname's origin: short sentences built from Faker's person providers.

    python benchmarks/surname_origins.py --per-locale 200 --seed 0

Each sentence puts a US first name and a surname of one Faker locale (romanised where the locale has
romanised names; one word of letters) into one of a few clinical templates ("Seen by Dr. {first} {last}
today."); the default detectors run on it and the surname counts as found when a NAME span covers it. No
name of the development notes is involved: the figures say whether a surname's origin changes its chance.
"""

from __future__ import annotations

import argparse
import importlib
import random

from anonymed.detect.registry import DEFAULT_DETECTORS, build_detector
from anonymed.detect.view import NoteView
from anonymed.document import Document, Label
from shared_detect import merged_spans

LOCALES = ("en_US", "en_GB", "es_MX", "fr_FR", "de_DE", "it_IT", "pl_PL", "zh_CN", "ja_JP", "en_IN", "vi_VN")
#: where Faker's person providers keep surnames (Polish ones by gender)
_LAST_NAMES = ("last_names", "male_last_names", "unisex_last_names")
TEMPLATES = (
    "Seen by Dr. {first} {last} today.",
    "Discussed with {first} {last}, RN, at the bedside.",
    "Pt's daughter {first} {last} called this afternoon.",
    "PCP: {first} {last}, MD",
)


def surnames(locale: str) -> list[str]:
    """The locale's one-word surnames (its romanised ones where the provider has them)."""
    provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
    attributes = ("last_romanized_names",) if hasattr(provider, "last_romanized_names") else _LAST_NAMES
    found = {n for a in attributes for n in getattr(provider, a, ()) if n.isalpha() and len(n) > 1}
    return sorted(found - {"Doe"})  # a placeholder of some providers


def main() -> None:
    """Print one row per locale: surnames tried, missed, and the share missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-locale", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    detectors = [build_detector(name) for name in DEFAULT_DETECTORS]
    firsts = sorted(importlib.import_module("faker.providers.person.en_US").Provider.first_names)
    print("| locale | surnames | missed | share missed |\n|---|---:|---:|---:|")
    for locale in LOCALES:
        names = surnames(locale)
        chosen = rng.sample(names, min(args.per_locale, len(names)))
        missed = 0
        for i, last in enumerate(chosen):
            first = rng.choice(firsts)
            text = TEMPLATES[i % len(TEMPLATES)].format(first=first, last=last)
            start = text.index(last, text.index(first) + len(first))
            spans = merged_spans(NoteView(Document("d", text, {"lang": "en"})), detectors)
            missed += not any(s.start <= start < s.end and s.label is Label.NAME for s in spans)
        print(f"| {locale} | {len(chosen)} | {missed} | {missed / max(1, len(chosen)):.1%} |")


if __name__ == "__main__":
    main()
