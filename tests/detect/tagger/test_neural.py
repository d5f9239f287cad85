"""The convolutional tagger: NumPy inference equals the torch network, training is reproducible, and the
tagger detector runs CNN and ensemble folders like CRF ones."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
from tagger_corpus import tiny_corpus, tiny_lexicons

from anonymed.detect.tagger.detector import TaggerDetector, TaggerParams
from anonymed.detect.tagger.family import EnsembleTagger, load_tagger, write_ensemble
from anonymed.detect.tagger.model import TrainingParams, train_model
from anonymed.detect.tagger.neural import NeuralTagger
from anonymed.detect.view import NoteView
from anonymed.document import Document
from anonymed.labels import Label
from anonymed.train.neural import NeuralParams, _network, train_neural

PARAMS = NeuralParams(hidden=16, char_dim=4, char_filters=8, dilations=(1, 2), epochs=25, batch=8, window=64)


@pytest.fixture(scope="module")
def cnn(tmp_path_factory: pytest.TempPathFactory) -> NeuralTagger:
    folder = tmp_path_factory.mktemp("cnn")
    return train_neural(tiny_corpus(), tiny_lexicons(), folder, params=PARAMS, hints=())


def test_the_cnn_learns_the_tiny_corpus(cnn: NeuralTagger) -> None:
    detector = TaggerDetector(TaggerParams(model=str(cnn.path), prune=False))
    spans = detector.detect(
        Document("t", "BP stable overnight. Seen by Dr. Garcia on 3/12. Daughter Anna visited.")
    )
    found = {(s.text, s.label) for s in spans}
    assert ("Garcia", Label.NAME) in found and ("Anna", Label.NAME) in found


def test_numpy_inference_equals_the_torch_network(cnn: NeuralTagger) -> None:
    net = _network(cnn.encoder.width, cnn.vocab, PARAMS)
    weights = cnn.weights
    state = {
        "char_embedding.weight": weights["char_embedding"],
        "char_conv.weight": weights["char_conv"].T,
        "char_conv.bias": weights["char_bias"],
        "input.weight": weights["input"].T,
        "input.bias": weights["input_bias"],
        "output.weight": weights["output"].T,
        "output.bias": weights["output_bias"],
    }
    for layer in range(len(PARAMS.dilations)):
        state[f"convs.{layer}.weight"] = weights[f"conv{layer}"].T
        state[f"convs.{layer}.bias"] = weights[f"conv{layer}_bias"]
    net.load_state_dict(
        {name: torch.from_numpy(np.ascontiguousarray(value)) for name, value in state.items()}
    )
    net.eval()
    doc = tiny_corpus()[3]
    tokens, numpy_probs = cnn.probabilities(NoteView(doc))
    encoded = cnn.encoder.encode(tokens, {})
    with torch.no_grad():
        logits = net(
            torch.from_numpy(encoded.dense[None]),
            torch.from_numpy(encoded.chars[None]),
            torch.ones((1, len(tokens), 1)),
        )
    torch_probs = torch.softmax(logits[0], dim=-1).numpy()
    assert np.allclose(numpy_probs, torch_probs, atol=1e-5)


def test_training_is_reproducible(cnn: NeuralTagger, tmp_path: Path) -> None:
    again = train_neural(tiny_corpus(), tiny_lexicons(), tmp_path, params=PARAMS, hints=())
    assert (tmp_path / "weights.npz").read_bytes() == (cnn.path / "weights.npz").read_bytes()
    assert again.vocab == cnn.vocab


def test_an_ensemble_averages_its_members(cnn: NeuralTagger, tmp_path: Path) -> None:
    crf_folder, cnn_folder = tmp_path / "crf", tmp_path / "cnn"
    train_model(
        tiny_corpus(), tiny_lexicons(), crf_folder, params=TrainingParams(max_iterations=30), hints=()
    )
    train_neural(tiny_corpus(), tiny_lexicons(), cnn_folder, params=PARAMS, hints=())
    write_ensemble(tmp_path, {"crf": 1.0, "cnn": 3.0})
    ensemble = load_tagger(tmp_path)
    assert isinstance(ensemble, EnsembleTagger)
    doc = Document("t", "Seen by Dr. Nguyen on 7/23/2019.")
    _, mixed = ensemble.marginals(doc)
    _, first = load_tagger(crf_folder).marginals(doc)
    _, second = load_tagger(cnn_folder).marginals(doc)
    for row, a, b in zip(mixed, first, second, strict=True):
        # the CRF leaves out the other labels of tokens it is sure are outside (P(O) >= 0.999)
        assert row["NAME"] == pytest.approx(0.25 * a.get("NAME", 0.0) + 0.75 * b["NAME"], abs=1e-6)
        assert row["O"] == pytest.approx(0.25 * a["O"] + 0.75 * b["O"], abs=1e-6)
        assert sum(row.values()) == pytest.approx(1.0, abs=1e-3)
