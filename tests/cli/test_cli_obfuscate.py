"""``anonymed embed train`` and ``anonymed obfuscate words`` on a tiny JSONL corpus."""

from __future__ import annotations

import json
import lzma
import random
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from anonymed.cli import embed, obfuscate
from anonymed.embeddings import load_space
from anonymed.embeddings.tokenize import split

runner = CliRunner()
root = typer.Typer()
root.add_typer(embed.app, name="embed")
root.add_typer(obfuscate.app, name="obfuscate")

WORDS = [
    "the",
    "patient",
    "was",
    "seen",
    "today",
    "with",
    "chest",
    "pain",
    "she",
    "denies",
    "fever",
    "left",
    "knee",
    "hip",
    "mild",
    "severe",
    "exam",
    "normal",
]
TINY = ["--vector-size", "16", "--epochs", "2", "--bucket", "2000", "--n-max", "5", "--no-progress"]


def _write_corpus(path: Path, notes: int = 40) -> list[dict[str, str]]:
    rnd = random.Random(0)
    records = [
        {"id": f"n{i}", "text": " ".join(rnd.choice(WORDS) for _ in range(50)).capitalize() + "."}
        for i in range(notes)
    ]
    records.append({"id": "secret", "text": "Mr Qwertyson, MRN 445566, seen on 12/03/2019.\nPain: 7/10."})
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return records


@pytest.fixture(scope="module")
def space(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("cli")
    _write_corpus(folder / "corpus.jsonl")
    result = runner.invoke(
        root, ["embed", "train", str(folder / "corpus.jsonl"), "-o", str(folder / "space"), *TINY]
    )
    assert result.exit_code == 0, result.output
    return folder / "space"


def test_embed_train_writes_a_loadable_space(space: Path) -> None:
    loaded = load_space(space)
    assert loaded.n_max == 5 and "qwertyson" in loaded.index and "qwertyson" not in loaded.candidate_set


def test_embed_train_reads_compressed_corpora(tmp_path: Path) -> None:
    _write_corpus(tmp_path / "corpus.jsonl")
    (tmp_path / "corpus.jsonl.xz").write_bytes(lzma.compress((tmp_path / "corpus.jsonl").read_bytes()))
    args = [
        "embed",
        "train",
        str(tmp_path / "corpus.jsonl.xz"),
        "-o",
        str(tmp_path / "sp"),
        "--algorithm",
        "word2vec",
    ]
    result = runner.invoke(root, [*args, *TINY])
    assert result.exit_code == 0, result.output
    assert load_space(tmp_path / "sp").subwords is None


def test_obfuscate_words_replaces_every_token_of_every_record(space: Path, tmp_path: Path) -> None:
    records = _write_corpus(tmp_path / "in.jsonl", notes=5)
    out = tmp_path / "out.jsonl"
    args = [
        "obfuscate",
        "words",
        str(tmp_path / "in.jsonl"),
        "-o",
        str(out),
        "--space",
        str(space),
        "--n",
        "2-4",
    ]
    result = runner.invoke(root, [*args, "--seed", "3", "--no-progress"])
    assert result.exit_code == 0, result.output
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in written] == [r["id"] for r in records]
    for before, after in zip(records, written, strict=True):
        old, new = split(before["text"]), split(after["text"])
        assert new.layout == old.layout
        assert all(a.lower() != b.lower() for a, b in zip(old.tokens, new.tokens, strict=True))
    assert "Qwertyson" not in out.read_text(encoding="utf-8") and "445566" not in out.read_text(
        encoding="utf-8"
    )


def test_obfuscate_words_is_reproducible_with_a_seed(space: Path, tmp_path: Path) -> None:
    _write_corpus(tmp_path / "in.jsonl", notes=3)
    outputs = []
    for name in ("a.jsonl", "b.jsonl"):
        args = [
            "obfuscate",
            "words",
            str(tmp_path / "in.jsonl"),
            "-o",
            str(tmp_path / name),
            "--space",
            str(space),
        ]
        assert runner.invoke(root, [*args, "--seed", "9", "--no-progress"]).exit_code == 0
        outputs.append((tmp_path / name).read_text(encoding="utf-8"))
    assert outputs[0] == outputs[1]


def test_paper_preprocessing_writes_lowercase_words(space: Path, tmp_path: Path) -> None:
    _write_corpus(tmp_path / "in.jsonl", notes=2)
    out = tmp_path / "out.jsonl"
    args = ["obfuscate", "words", str(tmp_path / "in.jsonl"), "-o", str(out), "--space", str(space)]
    assert runner.invoke(root, [*args, "--paper-preprocessing", "--no-progress"]).exit_code == 0
    for line in out.read_text(encoding="utf-8").splitlines():
        text = json.loads(line)["text"]
        assert text == text.lower() and all(w.isalpha() for w in text.split())


@pytest.mark.parametrize("n", ["1", "0-3", "x"])
def test_a_degree_below_two_is_refused(space: Path, tmp_path: Path, n: str) -> None:
    _write_corpus(tmp_path / "in.jsonl", notes=1)
    args = [
        "obfuscate",
        "words",
        str(tmp_path / "in.jsonl"),
        "-o",
        str(tmp_path / "o.jsonl"),
        "--space",
        str(space),
    ]
    result = runner.invoke(root, [*args, "--n", n, "--no-progress"])
    assert result.exit_code == 2 and not (tmp_path / "o.jsonl").exists()


def test_a_missing_space_is_a_clear_error(tmp_path: Path) -> None:
    _write_corpus(tmp_path / "in.jsonl", notes=1)
    args = ["obfuscate", "words", str(tmp_path / "in.jsonl"), "-o", str(tmp_path / "o.jsonl")]
    result = runner.invoke(root, [*args, "--space", str(tmp_path / "nowhere"), "--no-progress"])
    assert result.exit_code == 2 and "cannot load space" in result.output
