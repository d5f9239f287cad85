"""An opening look-ahead on a pattern's first character only makes the scan faster: same matches."""

from __future__ import annotations

import random
import re

import pytest

from anonymed.detect.patterns.base import opening
from anonymed.detect.patterns.detector import all_patterns
from anonymed.train.recipe import training_root

#: an opening look-ahead on one character: ``(?=\d)``, ``(?=[\d+(])``
_LEAD = re.compile(r"^\(\?=(?:\\d|\[[^\]]+\])\)")
LEADING = [pattern for pattern in all_patterns() if _LEAD.match(pattern.pattern)]


def _texts() -> list[str]:
    """The shipped English development notes, hand-made contacts and dates, and digit-heavy noise."""
    notes = (training_root() / "physionet_deid" / "id.text").read_text(encoding="utf-8")
    written = (
        "Seen 12/03/2019 and 3.4.19, on 6-9 for repair; call (617) 555-1234, 555-1234 or +33 1 42 68 53 00, "
        "020 7946 0958, 0049 30 901820. MRN 12345678, SSN 078-05-1120, NIR 1 84 12 75 123 456 78, '92 and "
        "92', CABG 81, zip 02134, 75013 Paris, the 3rd, https://example.org/a and www.example.com, 10.0.0.1"
    )
    rnd = random.Random(5)
    alphabet = "0123456789" * 4 + " /.-:,+()'’|@%#xXhHwWaAT\n\t" + "the "
    noise = ["".join(rnd.choice(alphabet) for _ in range(5_000)) for _ in range(4)]
    return [notes, written, *noise]


def test_the_digit_led_patterns_open_with_a_look_ahead() -> None:
    assert len(LEADING) >= 30


@pytest.mark.parametrize("pattern", LEADING, ids=lambda pattern: pattern.pattern[:40])
def test_the_opening_look_ahead_keeps_every_match(pattern: re.Pattern[str]) -> None:
    bare = re.compile(_LEAD.sub("", pattern.pattern, count=1), pattern.flags)
    for text in _texts():
        found = [(match.span(), match.groups()) for match in pattern.finditer(text)]
        assert found == [(match.span(), match.groups()) for match in bare.finditer(text)]


def test_opening_takes_the_first_character_of_each_top_level_alternative() -> None:
    assert opening("mrn|medical record(?: number| no)?|mr ?#|#") == "(?=[\\#m])"
    # "|" inside a group, a character class or escaped does not start an alternative
    assert opening(r"a(?:b|c)|d[|x]|e\|f|g") == "(?=[adeg])"


@pytest.mark.parametrize("alternatives", ["(?:a|b)", "[ab]c|d", r"\dx", "a|.b"])
def test_opening_refuses_an_alternative_that_does_not_start_with_a_literal(alternatives: str) -> None:
    with pytest.raises(ValueError, match="regex character"):
        opening(alternatives)
