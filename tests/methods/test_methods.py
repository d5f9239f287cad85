"""The methods layer: typed configurations, fingerprints, availability, reseeding that shares resources."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from anonymed.config import PipelineConfig
from anonymed.document import Document, Span
from anonymed.embeddings.tokenize import split
from anonymed.errors import ConfigError, MethodUnavailable
from anonymed.labels import Label
from anonymed.methods import (
    METHODS,
    HybridConfig,
    ReplaceConfig,
    ReplaceMethod,
    SentencesConfig,
    SentencesMethod,
    WordsConfig,
    WordsMethod,
    build_method,
)
from anonymed.methods import sentences as sentences_module

NOTE = "Mr. John Smith, 58 years old, was seen on 03/14/2019 in Boston. The knee was examined."
FAKE = {Label.DATE: "fake", Label.AGE: "fake"}
KEY = b"PLANTED-patient-key-0123456789"


def doc(doc_id: str = "n1", text: str = NOTE) -> Document:
    return Document(doc_id, text, {"lang": "en"})


def configs(bank: Path) -> list[object]:
    pipeline = PipelineConfig(seed=4, operators=FAKE, patient_key=KEY)
    return [
        ReplaceConfig(pipeline),
        WordsConfig(n="3-6", seed=4),
        SentencesConfig(bank, 3, 4),
        HybridConfig(pipeline, "words", n="4"),
        HybridConfig(pipeline, "sentences", k=3, bank=bank),
    ]


def test_every_kind_is_registered_by_name(bank: Path) -> None:
    assert (
        {type(config).kind for config in configs(bank)}
        == set(METHODS)
        == {
            "replace",
            "words",
            "sentences",
            "hybrid",
        }
    )


def test_configurations_pickle_to_the_same_fingerprint(bank: Path) -> None:
    for config in configs(bank):
        again = pickle.loads(pickle.dumps(config))
        assert again == config and again.fingerprint() == config.fingerprint()  # type: ignore[attr-defined]


def test_fingerprints_tell_seeds_and_settings_apart_and_hide_the_patient_key(bank: Path) -> None:
    prints = [config.fingerprint() for config in configs(bank)]  # type: ignore[attr-defined]
    assert len(set(prints)) == len(prints)
    replace = ReplaceConfig(PipelineConfig(seed=4, operators=FAKE, patient_key=KEY))
    assert replace.reseeded(5).fingerprint() != replace.fingerprint()
    assert replace.reseeded(4).fingerprint() == replace.fingerprint()
    assert KEY.decode() not in str(replace.describe())


def test_reseeding_shares_what_was_loaded_and_equals_a_fresh_build(bank: Path) -> None:
    replace = build_method(ReplaceConfig(PipelineConfig(seed=1, operators=FAKE)))
    assert isinstance(replace, ReplaceMethod)
    other = replace.reseeded(2)
    assert other.pipeline.detectors_ is replace.pipeline.detectors_
    assert other.pipeline.substituter_ is replace.pipeline.substituter_
    fresh = build_method(ReplaceConfig(PipelineConfig(seed=2, operators=FAKE)))
    assert other(doc()).result == fresh(doc()).result != replace(doc()).result
    words = build_method(WordsConfig(seed=1))
    assert isinstance(words, WordsMethod)
    assert words.reseeded(2).obfuscator.space_ is words.obfuscator.space_
    assert words.reseeded(2)(doc()).result == build_method(WordsConfig(seed=2))(doc()).result
    assert words.reseeded(None).obfuscator.rng_.secure and not words.obfuscator.rng_.secure
    sentences = build_method(SentencesConfig(bank, 3, 1))
    assert isinstance(sentences, SentencesMethod)
    assert sentences.reseeded(2).obfuscator.bank_ is sentences.obfuscator.bank_


def test_a_bank_loads_once_per_process(bank: Path) -> None:
    first = build_method(SentencesConfig(bank, 3, 1))
    second = build_method(SentencesConfig(bank, 2, 9))
    assert isinstance(first, SentencesMethod) and isinstance(second, SentencesMethod)
    assert first.obfuscator.bank_ is second.obfuscator.bank_


def test_batches_give_the_outputs_of_single_documents(bank: Path) -> None:
    method = build_method(HybridConfig(PipelineConfig(seed=3, operators=FAKE), "sentences", k=3, bank=bank))
    docs = [doc(f"n{i}", NOTE if i % 2 else "The knee was examined. Pain was controlled.") for i in range(5)]
    assert [d.result for d in method.run_many(docs)] == [method(d).result for d in docs]


def test_a_missing_extra_makes_the_method_unavailable(monkeypatch: pytest.MonkeyPatch, bank: Path) -> None:
    monkeypatch.setattr(sentences_module, "MODULES", ("anonymed.no_such_module",))
    config = SentencesConfig(bank)
    reason = config.unavailable()
    assert reason is not None and "not available" in reason
    assert HybridConfig(then="sentences").unavailable() == reason
    with pytest.raises(MethodUnavailable, match="not available"):
        config.build()
    assert WordsConfig().unavailable() is None and ReplaceConfig().unavailable() is None


def test_stages_choose_detection_only_or_substitution_of_given_spans() -> None:
    detect = build_method(ReplaceConfig(PipelineConfig(stages=("detect",))))
    found = detect(doc())
    assert found.spans and found.output is None
    given = doc().with_spans([Span.of(NOTE, 4, 14, Label.NAME)])
    substitute = build_method(ReplaceConfig(PipelineConfig(seed=1, stages=("substitute",))))
    replaced = substitute(given)
    assert [r.original for r in replaced.replacements] == ["John Smith"]
    assert "John Smith" not in replaced.result and "03/14/2019" in replaced.result


def test_tallies_count_what_each_method_replaced(bank: Path) -> None:
    words = build_method(WordsConfig(seed=1))
    tally = words.tally(words(doc()))
    assert tally["tokens"] == len(split(NOTE).tokens) and set(tally) == {"tokens", "unseen", "numbers"}
    hybrid = build_method(HybridConfig(PipelineConfig(seed=1, operators=FAKE), "sentences", k=3, bank=bank))
    tally = hybrid.tally(hybrid(doc()))
    assert tally["sentences"] == 2  # the second stage's count, beside the first stage's substitution counts
    assert {key for key in tally if key != "sentences"} == {
        f"{label}|fake|replaced" for label in ("AGE", "DATE", "LOCATION", "NAME")
    }


@pytest.mark.parametrize(("n", "normal"), [(5, "5"), ("3-14", "3-14"), ("4-4", "4")])
def test_word_degrees_are_normalised(n: int | str, normal: str) -> None:
    assert WordsConfig(n=n).n == normal  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [{"n": "1"}, {"n": "five"}])
def test_bad_word_degrees_are_refused(bad: dict[str, str]) -> None:
    with pytest.raises(ConfigError):
        WordsConfig(**bad)  # type: ignore[arg-type]


def test_bad_sentence_options_are_refused() -> None:
    with pytest.raises(ConfigError, match="k"):
        SentencesConfig(k=1)
    with pytest.raises(ConfigError, match="unknown"):
        SentencesConfig.from_options({"colour": "blue"})
