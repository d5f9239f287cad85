"""The trained tagger: training on a tiny corpus, save/load, decoding, parameters, shipped models."""

from __future__ import annotations

from pathlib import Path

import pytest
from tagger_corpus import tiny_corpus, tiny_lexicons

from anonymed.detect.registry import build_detector, detector_class
from anonymed.detect.tagger.detector import TaggerDetector, TaggerParams, shipped_model_path
from anonymed.detect.tagger.model import TaggerModel, TrainingParams, token_labels, train_model
from anonymed.detect.tokens import TaggerToken
from anonymed.document import Document, Span
from anonymed.errors import ConfigError, ResourceError
from anonymed.labels import Label
from anonymed.pipeline import Pipeline


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> TaggerModel:
    folder = tmp_path_factory.mktemp("tagger")
    return train_model(
        tiny_corpus(), tiny_lexicons(), folder, params=TrainingParams(max_iterations=60), hints=()
    )


def _doc(text: str, lang: str = "en") -> Document:
    return Document("t", text, {"lang": lang})


def test_tiny_model_tags_an_unseen_name_after_a_title(tiny_model: TaggerModel) -> None:
    detector = TaggerDetector(TaggerParams(model=str(tiny_model.path.parent)))
    spans = detector.detect(_doc("Patient seen by Dr. Quinlan today."))
    assert [(s.text, s.label) for s in spans] == [("Quinlan", Label.NAME)]
    assert spans[0].source == "tagger" and 0.5 < spans[0].score <= 1.0


def test_tiny_model_tags_a_date(tiny_model: TaggerModel) -> None:
    detector = TaggerDetector(TaggerParams(model=str(tiny_model.path.parent)))
    spans = detector.detect(_doc("Follow up on 4/17 with labs."))
    assert ("4/17", Label.DATE) in [(s.text, s.label) for s in spans]


def test_saved_model_loads_with_the_same_probabilities(tiny_model: TaggerModel) -> None:
    again = TaggerModel.load(tiny_model.path.parent)
    doc = _doc("Called Dr. Brennan on 3/9, wife visited.")
    assert again.labels == tiny_model.labels
    assert again.marginals(doc)[1] == tiny_model.marginals(doc)[1]
    assert again.meta["sequences"] == len(tiny_corpus())


def test_empty_text_gives_no_span(tiny_model: TaggerModel) -> None:
    detector = TaggerDetector(TaggerParams(model=str(tiny_model.path.parent)))
    assert detector.detect(_doc(" \n ")) == []


def _tokens(text: str) -> list[TaggerToken]:
    from anonymed.detect.tokens import alnum_tokens

    return alnum_tokens(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Dr. O'Brien came", ["O'Brien"]),  # apostrophe joins the two tokens
        ("seen 12/03/2020 today", ["12/03/2020"]),  # slashes join date parts
        ("Mary\nSmith", ["Mary", "Smith"]),  # never across a line break
    ],
)
def test_decode_joins_neighbouring_tokens_of_one_label(text: str, expected: list[str]) -> None:
    tokens = _tokens(text)
    keep = {"O", "Brien", "12", "03", "2020", "Mary", "Smith"}
    label = "DATE" if "2020" in text else "NAME"
    marginals = [{"O": 0.01, label: 0.99} if t.text in keep else {"O": 0.99, label: 0.01} for t in tokens]
    spans = TaggerDetector(TaggerParams(propagate=False)).decode(text, tokens, marginals)
    assert [s.text for s in spans] == expected


@pytest.mark.parametrize(
    ("text", "label", "expected"),
    [
        ("Mr. Jones's class", "NAME", ["Jones"]),  # a possessive is no part of a name
        ("PER DR. SMITH’S NOTE", "NAME", ["SMITH"]),
        ("Dr. O's came", "NAME", ["O"]),
        ("at St. Mary's today", "LOCATION", ["St. Mary's"]),  # but of a place's name
    ],
)
def test_a_possessive_ending_is_left_out_of_a_name(text: str, label: str, expected: list[str]) -> None:
    tokens = _tokens(text)
    keep = {"Jones", "SMITH", "S", "s", "O", "St", "Mary"}
    marginals = [{"O": 0.01, label: 0.99} if t.text in keep else {"O": 0.99, label: 0.01} for t in tokens]
    spans = TaggerDetector(TaggerParams(propagate=False)).decode(text, tokens, marginals)
    assert [s.text for s in spans] == expected


def test_high_recall_tags_less_certain_tokens() -> None:
    text = "met Hope today"
    tokens = _tokens(text)
    marginals = [{"O": 0.99, "NAME": 0.01}, {"O": 0.9, "NAME": 0.1}, {"O": 0.99, "NAME": 0.01}]
    assert TaggerDetector(TaggerParams()).decode(text, tokens, marginals) == []
    found = TaggerDetector(TaggerParams(high_recall=True)).decode(text, tokens, marginals)
    assert [s.text for s in found] == ["Hope"]


def test_propagation_tags_other_mentions_of_a_confident_name() -> None:
    text = "daughter Suzette called. Suzette will visit."
    tokens = _tokens(text)
    marginals = [{"O": 0.99, "NAME": 0.01} for _ in tokens]
    marginals[1] = {"O": 0.05, "NAME": 0.95}
    on = TaggerDetector(TaggerParams()).decode(text, tokens, marginals)
    off = TaggerDetector(TaggerParams(propagate=False)).decode(text, tokens, marginals)
    assert [s.start for s in on] == [9, 25]
    assert [s.start for s in off] == [9]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("called J. Smith today", ["J. Smith"]),  # initial, period, tagged surname
        ("called J Smith today", ["Smith"]),  # no period: not taken as an initial
        ("see p.\nSmith today", ["Smith"]),  # a line break between them
    ],
)
def test_initials_before_a_tagged_name_join_it_in_english(text: str, expected: list[str]) -> None:
    tokens = _tokens(text)
    marginals = [{"O": 0.99, "NAME": 0.01} for _ in tokens]
    surname = next(i for i, t in enumerate(tokens) if t.text == "Smith")
    marginals[surname] = {"O": 0.1, "NAME": 0.9}
    on = TaggerDetector(TaggerParams()).decode(text, tokens, marginals, lang="en")  # English default
    off = TaggerDetector(TaggerParams()).decode(text, tokens, marginals, lang="fr")  # "M. Dupont": Monsieur
    assert [s.text for s in on] == expected
    assert [s.text for s in off] == ["Smith"]


@pytest.mark.parametrize(
    ("params", "lang", "starts"),
    [
        (TaggerParams(), "en", [5, 33]),  # English default: places are propagated too
        (TaggerParams(), "fr", [5]),  # French default: names only
        (TaggerParams(), None, [5]),  # no language: names only
        (TaggerParams(propagate_labels=("NAME", "LOCATION")), "fr", [5, 33]),  # asked for explicitly
    ],
)
def test_location_propagation_follows_the_language_default(
    params: TaggerParams, lang: str | None, starts: list[int]
) -> None:
    text = "from Quartermain to CCU. Back to Quartermain later."
    tokens = _tokens(text)
    marginals = [{"O": 0.99, "NAME": 0.005, "LOCATION": 0.005} for _ in tokens]
    marginals[1] = {"O": 0.1, "NAME": 0.1, "LOCATION": 0.8}
    spans = TaggerDetector(params).decode(text, tokens, marginals, lang=lang)
    assert [s.start for s in spans] == starts and {s.label for s in spans} == {Label.LOCATION}


def test_a_places_kind_words_are_not_propagated() -> None:
    """ "PSYCHIATRIC INTAKE" had become a place once "Creedmoor Psychiatric Center" was found."""
    text = (
        "PSYCHIATRIC INTAKE\nPrior stay at Creedmoor Psychiatric Center for two weeks, "
        "then Creedmoor again; center of care."
    )
    tokens = _tokens(text)
    marginals = [{"O": 0.99, "NAME": 0.005, "LOCATION": 0.005} for _ in tokens]
    for word in ("Creedmoor", "Psychiatric", "Center"):
        index = next(i for i, t in enumerate(tokens) if t.text == word and t.start > 20)
        marginals[index] = {"O": 0.02, "NAME": 0.01, "LOCATION": 0.97}
    spans = TaggerDetector(TaggerParams()).decode(text, tokens, marginals, lang="en")
    assert [s.text for s in spans] == ["Creedmoor Psychiatric Center", "Creedmoor"]


@pytest.mark.parametrize("field", ["threshold", "high_recall_threshold", "propagate_above"])
def test_out_of_range_probabilities_are_rejected(field: str) -> None:
    with pytest.raises(ConfigError, match=field):
        TaggerParams(**{field: 1.5})  # type: ignore[arg-type]


def test_token_labels_follow_gold_spans() -> None:
    text = "Dr. Jean-Luc Picard on 3/4"
    doc = Document("g", text, gold=(Span.of(text, 4, 19, "NAME"), Span.of(text, 23, 26, "DATE")))
    tokens = _tokens(text)
    assert token_labels(doc, tokens) == ["O", "NAME", "NAME", "NAME", "O", "DATE", "DATE"]


def test_tagger_is_registered_by_name() -> None:
    assert detector_class("tagger") is TaggerDetector
    built = build_detector("tagger", {"high_recall": True})
    assert isinstance(built, TaggerDetector) and built.params.high_recall


def test_missing_model_folder_is_a_resource_error(tmp_path: Path) -> None:
    detector = TaggerDetector(TaggerParams(model=str(tmp_path / "nowhere")))
    with pytest.raises(ResourceError, match="nowhere"):
        detector.detect(_doc("text"))


def test_unknown_language_has_no_shipped_model() -> None:
    with pytest.raises(ResourceError, match="'de'"):
        shipped_model_path("de")


def test_training_twice_on_the_same_data_gives_the_same_model(tmp_path: Path) -> None:
    params = TrainingParams(max_iterations=20)
    first = train_model(tiny_corpus(), tiny_lexicons(), tmp_path / "a", params=params, hints=())
    second = train_model(tiny_corpus(), tiny_lexicons(), tmp_path / "b", params=params, hints=())
    for name in ("model.crfsuite", "lexicons.json.gz", "meta.json"):
        assert (first.path.parent / name).read_bytes() == (second.path.parent / name).read_bytes()


@pytest.mark.parametrize(
    ("lang", "text", "expected"),
    [
        # title + surname, numeric date, relative's first name (English nursing-note style)
        ("en", "Seen by Dr. Kowalczyk on 3/14, wife Margaret at bedside.", {"Kowalczyk", "3/14", "Margaret"}),
        # notes written in capitals
        ("en", "PT TRANSFERRED FROM ST. ELSEWHERE. DR. OKONKWO AWARE.", {"OKONKWO"}),
        # French letter: first name + surname, written date, phone
        (
            "fr",
            "Vu par le Dr Jean-Pierre MARTIN le 12 mars 2021, tél 01 42 34 56 78.",
            {"Jean-Pierre MARTIN", "12 mars 2021", "01 42 34 56 78"},
        ),
    ],
)
def test_shipped_model_finds_typical_phi(lang: str, text: str, expected: set[str]) -> None:
    spans = TaggerDetector().detect(_doc(text, lang))
    assert expected <= {s.text for s in spans}
    assert all(s.source == "tagger" for s in spans)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_shipped_model_is_small_and_describes_its_recipe(lang: str) -> None:
    folder = shipped_model_path(lang)
    size = sum(p.stat().st_size for p in folder.iterdir())
    assert size < 30_000_000
    model = TaggerDetector().model_for(lang)
    assert model.meta["lang"] == lang and model.meta["hints"]


def test_a_name_found_by_a_trusted_context_rule_is_tagged_and_propagated_whatever_its_case() -> None:
    text = "Spoke with mrs. Kowalczyk today; KOWALCZYK'S son called, then kowalczyk aware."
    tokens = _tokens(text)
    marginals = [{"O": 0.99, "NAME": 0.01} for _ in tokens]  # the model saw no name at all
    start = text.index("Kowalczyk")
    hint = Span.of(text, start, start + 9, "NAME", source="contexts.title", score=0.7)
    other = Span.of(text, 0, 5, "NAME", source="contexts.speech", score=0.7)  # not a trusted rule
    spans = TaggerDetector(TaggerParams()).decode(text, tokens, marginals, lang="en", hints=[hint, other])
    assert [s.text for s in spans] == ["Kowalczyk", "KOWALCZYK", "kowalczyk"]
    untrusted = TaggerDetector(TaggerParams(trusted_hints=()))
    assert untrusted.decode(text, tokens, marginals, lang="en", hints=[hint]) == []


def test_a_name_in_quotes_after_its_cue_is_trusted_by_the_default_detectors() -> None:
    """'Infant "Aaliyah" per parents' had stayed: no list or model reads a quoted first name."""
    text = 'NICU note. Infant "Aaliyah" per parents; pt goes by "Bunny" at home.'
    doc = Document("d", text, {"lang": "en"})
    spans = Pipeline().detect(doc).spans
    assert {s.text for s in spans if s.label.value == "NAME"} >= {"Aaliyah", "Bunny"}
