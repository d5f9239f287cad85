"""The tagger's feature rows: their exact content and order, whatever the caches hold."""

from __future__ import annotations

import pytest

from anonymed.detect.tagger import features
from anonymed.detect.tagger.features import FeatureLexicons, Featurizer
from anonymed.detect.tokens import alnum_tokens

LEXICONS = FeatureLexicons({"last": frozenset({"smith"}), "common": frozenset({"seen"})})

#: the rows of "Dr. Smith\n12" as the per-token featurizer of c03a7ff wrote them (the CRF adds weights in
#: row order, so the order is part of the result)
ROWS = [
    ["w=dr", "case=title", "shape=Xx", "len=2", "1:w=smith", "1:case=title", "1:lex=last", "2:w=12",
     "2:case=digit", "bias", "doc=mixed", "doc=mixed|case=title", "gap<", "line_start", "gap>.", "1:gap<.",
     "bigram>w=dr|w=smith", "-1:pad", "-2:pad"],
    ["w=smith", "case=title", "shape=Xx", "len=5-6", "p3=smi", "s3=ith", "s2=th", "lex=last", "1:w=12",
     "1:case=digit", "-1:w=dr", "-1:case=title", "bias", "doc=mixed", "doc=mixed|case=title", "gap<.", "gap>",
     "line_end", "1:gap<", "bigram>w=smith|w=12", "2:pad", "-1:gap<", "bigram<w=dr|w=smith", "-2:pad"],
    ["w=12", "case=digit", "shape=d", "len=2", "nd=2", "num=month", "-1:w=smith", "-1:case=title",
     "-1:lex=last", "-2:w=dr", "-2:case=title", "bias", "doc=mixed", "doc=mixed|case=digit", "gap<",
     "line_start", "doc_end", "1:pad", "2:pad", "-1:gap<.", "bigram<w=smith|w=12"],
]  # fmt: skip
KNOWN = frozenset({"w=smith", "-1:w=dr", "1:lex=last", "bigram<w=dr|w=smith", "gap<.", "line_end", "bias"})

#: the same rows from a featurizer that knows only ``KNOWN``: unknown word features, neighbours' features and
#: bigrams are left out, the others (gaps, pads, case) stay
KNOWN_ROWS = [
    ["1:lex=last", "bias", "doc=mixed", "doc=mixed|case=title", "gap<", "line_start", "gap>.", "1:gap<.",
     "-1:pad", "-2:pad"],
    ["w=smith", "-1:w=dr", "bias", "doc=mixed", "doc=mixed|case=title", "gap<.", "gap>", "line_end",
     "1:gap<", "2:pad", "-1:gap<", "bigram<w=dr|w=smith", "-2:pad"],
    ["bias", "doc=mixed", "doc=mixed|case=digit", "gap<", "line_start", "doc_end", "1:pad", "2:pad",
     "-1:gap<."],
]  # fmt: skip

VARIED = (
    "SEEN BY DR SMITH ON 3/4/2020.\nPt: Smith, John -- MRN #12345; f/u w/ Dr. O'Brien 2-3 wks.\n\n"
    "x\tLives in Boston, MA 02134 (tel 617-555-1234).  Smith's daughter    called. é Ü 12ab 3x4x5 ...\nEnd"
)


class _KeepsNothing(dict[tuple[str, bool], object]):
    """A cache that stores nothing: every lookup computes afresh."""

    def __setitem__(self, key: tuple[str, bool], value: object) -> None:
        return None


def test_the_rows_keep_their_content_and_order() -> None:
    assert Featurizer(LEXICONS).featurize(alnum_tokens("Dr. Smith\n12")) == ROWS


def test_a_model_featurizer_keeps_only_the_word_features_it_knows_in_the_same_order() -> None:
    rows = Featurizer(LEXICONS, known=KNOWN).featurize(alnum_tokens("Dr. Smith\n12"))
    assert rows == KNOWN_ROWS


@pytest.mark.parametrize("known", [None, KNOWN])
@pytest.mark.parametrize("text", [VARIED, VARIED.upper(), "Smith", "", "12 Smith"])
def test_cached_and_uncached_gap_and_head_features_give_the_same_rows(
    text: str, known: frozenset[str] | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    tokens = alnum_tokens(text)
    warm = Featurizer(LEXICONS, known=known)
    warm.featurize(alnum_tokens(VARIED + " " + text.lower()))
    cached = warm.featurize(tokens)
    monkeypatch.setattr(features, "_GAP_PARTS", _KeepsNothing())
    monkeypatch.setattr(features, "_heads", features._heads.__wrapped__)
    assert Featurizer(LEXICONS, known=known).featurize(tokens) == cached
    assert len(cached) == len(tokens)
