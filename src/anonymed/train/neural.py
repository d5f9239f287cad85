"""Train the convolutional PHI tagger of ``anonymed.detect.tagger.neural`` with torch (the ``neural`` extra).

The network mirrors the NumPy forward pass exactly (a window of three neighbours concatenated, then a
linear layer, is the convolution both sides compute), so the exported weights run without torch. Training
is seeded and single-threaded by default: the same recipe and data give the same weights.
"""

from __future__ import annotations

import io
import json
import random
import zipfile
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from anonymed.detect.tagger.features import FeatureLexicons, hint_marks
from anonymed.detect.tagger.model import (
    DEFAULT_HINTS,
    META_FILE,
    OUTSIDE,
    HintRunner,
    save_lexicons,
    token_labels,
)
from anonymed.detect.tagger.neural import (
    FAMILY,
    WEIGHTS_FILE,
    Encoded,
    Encoder,
    NeuralTagger,
    Vocabularies,
)
from anonymed.detect.view import NoteView
from anonymed.document import Document
from anonymed.errors import ResourceError


@dataclass(frozen=True)
class NeuralParams:
    """Sizes and training settings of the convolutional tagger."""

    hidden: int = 128
    char_dim: int = 16
    char_filters: int = 32
    dilations: tuple[int, ...] = (1, 2, 4)
    epochs: int = 8
    batch: int = 16
    learning_rate: float = 2e-3
    dropout: float = 0.25
    word_dropout: float = 0.1
    phi_weight: float = 3.0
    window: int = 256
    seed: int = 0
    threads: int = 1


@dataclass(frozen=True)
class _Example:
    encoded: Encoded
    labels: np.ndarray[Any, np.dtype[np.int64]]


def _collect(
    docs: Iterable[Document], hints: HintRunner, on_document: Callable[[], None] | None
) -> list[tuple[list[Any], dict[int, list[str]], list[str]]]:
    """Per note: tokens, hint marks and gold labels (the hint detectors run once per note)."""
    rows = []
    for doc in docs:
        view = NoteView(doc)
        tokens = view.tokens
        if tokens:
            rows.append((tokens, hint_marks(tokens, hints(view)), token_labels(doc, tokens)))
        if on_document is not None:
            on_document()
    return rows


Rows = Sequence[tuple[list[Any], dict[int, list[str]], list[str]]]


def _vocabularies(rows: Rows, lexicons: FeatureLexicons) -> Vocabularies:
    chars: Counter[str] = Counter()
    marks: set[str] = set()
    labels: set[str] = set()
    for tokens, hint, gold in rows:
        for token in tokens:
            chars.update(token.text[:16])
        for found in hint.values():
            marks.update(found)
        labels.update(gold)
    alphabet = "".join(sorted(char for char, count in chars.items() if count >= 2))
    ordered = (OUTSIDE, *sorted(labels - {OUTSIDE}))
    return Vocabularies(ordered, alphabet, tuple(sorted(marks)), tuple(sorted(lexicons.sets)))


def _network(width: int, vocab: Vocabularies, params: NeuralParams) -> Any:
    import torch
    from torch import nn

    class Net(nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.char_embedding = nn.Embedding(len(vocab.chars) + 2, params.char_dim, padding_idx=0)
            self.char_conv = nn.Linear(3 * params.char_dim, params.char_filters)
            self.input = nn.Linear(width + params.char_filters, params.hidden)
            self.convs = nn.ModuleList(nn.Linear(3 * params.hidden, params.hidden) for _ in params.dilations)
            self.output = nn.Linear(params.hidden, len(vocab.labels))
            self.drop = nn.Dropout(params.dropout)

        def forward(self, dense: Any, chars: Any, mask: Any) -> Any:
            emb = self.char_embedding(chars)  # batch x tokens x chars x dim
            pad = torch.zeros_like(emb[:, :, :1])
            padded = torch.cat([pad, emb, pad], dim=2)
            length = emb.shape[2]
            windows = torch.cat(
                [padded[:, :, :length], padded[:, :, 1 : length + 1], padded[:, :, 2:]], dim=3
            )
            conv = torch.relu(self.char_conv(windows)) * (chars > 0).unsqueeze(-1)
            x = torch.cat([dense, conv.max(dim=2).values], dim=2)
            h = torch.relu(self.input(self.drop(x))) * mask
            for layer, dilation in zip(self.convs, params.dilations, strict=True):
                zeros = torch.zeros_like(h[:, :dilation])
                padded_h = torch.cat([zeros, h, zeros], dim=1)
                size = h.shape[1]
                shifted = torch.cat(
                    [
                        padded_h[:, :size],
                        padded_h[:, dilation : dilation + size],
                        padded_h[:, 2 * dilation :],
                    ],
                    dim=2,
                )
                h = (h + torch.relu(layer(self.drop(shifted)))) * mask
            return self.output(self.drop(h))

    return Net()


def _windows(examples: Sequence[_Example], size: int) -> list[tuple[Encoded, np.ndarray[Any, Any]]]:
    pieces = []
    for example in examples:
        total = len(example.labels)
        for start in range(0, total, size):
            stop = min(total, start + size)
            encoded = Encoded(example.encoded.dense[start:stop], example.encoded.chars[start:stop])
            pieces.append((encoded, example.labels[start:stop]))
    return pieces


Piece = tuple[Encoded, np.ndarray[Any, Any]]


def _batch(pieces: Sequence[Piece], word_dropout: float, rng: random.Random) -> tuple[Any, ...]:
    import torch

    longest = max(len(labels) for _, labels in pieces)
    width = pieces[0][0].dense.shape[1]
    dense = np.zeros((len(pieces), longest, width), np.float32)
    chars = np.zeros((len(pieces), longest, pieces[0][0].chars.shape[1]), np.int64)
    labels = np.full((len(pieces), longest), -100, np.int64)
    for row, (encoded, gold) in enumerate(pieces):
        size = len(gold)
        dense[row, :size] = encoded.dense
        chars[row, :size] = encoded.chars
        labels[row, :size] = gold
        for i in range(size):
            if rng.random() < word_dropout:
                dense[row, i, :100] = 0.0  # a word never seen: rely on its shape and its context
    mask = torch.from_numpy((labels != -100).astype(np.float32)).unsqueeze(-1)
    return torch.from_numpy(dense), torch.from_numpy(chars), mask, torch.from_numpy(labels)


def train_neural(
    docs: Iterable[Document],
    lexicons: FeatureLexicons,
    folder: Path,
    *,
    params: NeuralParams | None = None,
    hints: Sequence[tuple[str, dict[str, Any]]] = DEFAULT_HINTS,
    meta: dict[str, Any] | None = None,
    on_document: Callable[[], None] | None = None,
    on_epoch: Callable[[int, float], None] | None = None,
) -> NeuralTagger:
    """Train the convolutional tagger on ``docs`` and write it with its lexicons into ``folder``."""
    try:
        import torch
    except ImportError:
        raise ResourceError("training the neural tagger needs torch (pip install torch)") from None
    settings = params or NeuralParams()
    torch.manual_seed(settings.seed)
    torch.set_num_threads(settings.threads)
    runner = HintRunner(hints)
    rows = _collect(docs, runner, on_document)
    vocab = _vocabularies(rows, lexicons)
    encoder = Encoder(vocab, lexicons)
    index = {label: i for i, label in enumerate(vocab.labels)}
    examples = [
        _Example(encoder.encode(tokens, marks), np.array([index[g] for g in gold], np.int64))
        for tokens, marks, gold in rows
    ]
    net = _network(encoder.width, vocab, settings)
    weights = torch.full((len(vocab.labels),), settings.phi_weight)
    weights[0] = 1.0
    loss_fn = torch.nn.CrossEntropyLoss(weight=weights, ignore_index=-100)
    optimizer = torch.optim.Adam(net.parameters(), lr=settings.learning_rate)
    pieces = _windows(examples, settings.window)
    rng = random.Random(settings.seed)  # the order of training windows, not a privacy-relevant draw
    net.train()
    for epoch in range(settings.epochs):
        rng.shuffle(pieces)
        total = 0.0
        for start in range(0, len(pieces), settings.batch):
            dense, chars, mask, labels = _batch(
                pieces[start : start + settings.batch], settings.word_dropout, rng
            )
            optimizer.zero_grad()
            logits = net(dense, chars, mask)
            loss = loss_fn(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1))
            loss.backward()
            optimizer.step()
            total += loss.item()
        if on_epoch is not None:
            on_epoch(epoch, total)
    _save(net, folder, vocab, settings, runner, lexicons, meta)
    return NeuralTagger(folder, json.loads((folder / META_FILE).read_text(encoding="utf-8")), lexicons)


def _write_npz(path: Path, arrays: dict[str, Any]) -> None:
    """An ``.npz`` file with fixed timestamps (np.savez stamps the time: the bytes would differ per run)."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(arrays):
            buffer = io.BytesIO()
            np.save(buffer, np.ascontiguousarray(arrays[name], dtype=np.float32), allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, buffer.getvalue())


def _save(
    net: Any,
    folder: Path,
    vocab: Vocabularies,
    settings: NeuralParams,
    runner: HintRunner,
    lexicons: FeatureLexicons,
    meta: dict[str, Any] | None,
) -> None:
    """Weights as float32 NumPy arrays laid out for the NumPy forward pass, the vocabularies and lexicons."""
    folder.mkdir(parents=True, exist_ok=True)
    state = {name: value.detach().numpy() for name, value in net.state_dict().items()}
    arrays = {
        "char_embedding": state["char_embedding.weight"],
        "char_conv": state["char_conv.weight"].T,
        "char_bias": state["char_conv.bias"],
        "input": state["input.weight"].T,
        "input_bias": state["input.bias"],
        "output": state["output.weight"].T,
        "output_bias": state["output.bias"],
    }
    for layer in range(len(settings.dilations)):
        arrays[f"conv{layer}"] = state[f"convs.{layer}.weight"].T
        arrays[f"conv{layer}_bias"] = state[f"convs.{layer}.bias"]
    _write_npz(folder / WEIGHTS_FILE, arrays)
    save_lexicons(folder, lexicons)
    info = {
        "family": FAMILY,
        "training": asdict(settings),
        "dilations": list(settings.dilations),
        "vocabularies": vocab.to_json(),
        "hints": runner.specs,
        **(meta or {}),
    }
    (folder / META_FILE).write_text(json.dumps(info, indent=2, sort_keys=True) + "\n", encoding="utf-8")
