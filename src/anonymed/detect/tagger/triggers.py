"""Context-word classes for the tagger: titles, kin, communication and place words near a token.

General clinical English (not drawn from any corpus's names): a name after "wife", "spoke with" or "Dr", a
place before "hospital" or after "transferred from". The CRF learns how much each class weighs; the class
generalises the few contexts the training notes show (a kin word seen rarely still counts as kin).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from anonymed.detect.tokens import fold, word_set

#: how many tokens on each side a trigger word reaches
REACH: Final = 3

TRIGGERS: Final[Mapping[str, frozenset[str]]] = {
    "title": word_set(
        "dr drs doctor md mds do rn rns np nps pa pac cnp crnp aprn lpn lnp rt rrt pt ot slp cm sw lcsw msw "
        "mr mrs ms miss prof attending resident fellow intern hospitalist intensivist nurse np's pcp "
        "cardiologist surgeon neurologist oncologist nephrologist physician chaplain pharmacist"
    ),
    "kin": word_set(
        "wife husband spouse partner son sons daughter daughters mother mom mum father dad sister sisters "
        "brother brothers friend friends niece nephew grandson granddaughter grandchild grandchildren aunt "
        "uncle cousin fiance fiancee girlfriend boyfriend stepson stepdaughter inlaw law hcp proxy guardian "
        "family neighbor neighbour companion daughterinlaw soninlaw sil dil"
    ),
    "speech": word_set(
        "called call calls spoke spoken speak talked talk paged page notified aware informed discussed "
        "updated update met visited visit visiting contacted phoned told asked per consulted reached "
        "explained via says said states stated request requested"
    ),
    "place": word_set(
        "hospital hosp medical center centre clinic rehab rehabilitation nursing home manor house "
        "facility institute infirmary hospice village court lodge healthcare health memorial general "
        "county street st avenue ave road rd"
    ),
    "move": word_set(
        "transferred transfer transferring from admitted admit discharged discharge sent arrived arrival "
        "returned return returning lives living resides moved flown airlifted ems ambulance osh"
    ),
}


def trigger_classes(word: str) -> tuple[str, ...]:
    """The trigger classes of ``word`` (usually none)."""
    key = fold(word)
    return tuple(name for name, words in TRIGGERS.items() if key in words)


def context_features(classes: Sequence[tuple[str, ...]], i: int, case_key: str) -> list[str]:
    """``trig<class`` / ``trig>class`` for trigger words up to ``REACH`` tokens before / after token ``i``,
    alone and crossed with the token's case."""
    found: list[str] = []
    for direction, offsets in (("<", range(1, REACH + 1)), (">", range(1, REACH + 1))):
        seen: set[str] = set()
        for offset in offsets:
            j = i - offset if direction == "<" else i + offset
            if 0 <= j < len(classes):
                seen.update(classes[j])
        for name in sorted(seen):
            found.append(f"trig{direction}{name}")
            found.append(f"trig{direction}{name}|{case_key}")
    return found
