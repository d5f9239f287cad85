"""``anonymed bank build`` and ``anonymed obfuscate sentences`` / ``hybrid`` on tiny corpora."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from anonymed.cli import bank, obfuscate
from anonymed.sentences.banks import load_bank, normalise
from anonymed.sentences.splitter import layout, split_sentences

runner = CliRunner()
root = typer.Typer()
root.add_typer(bank.app, name="bank")
root.add_typer(obfuscate.app, name="obfuscate")

PARTS = (
    ["The patient", "She", "He", "The wound", "The knee"],
    ["was examined", "was treated", "improved", "was dressed"],
    ["with mild pain.", "without complication.", "and went home.", "under anesthesia.", "in clinic."],
)
SECRET = "Mr. John Smith was seen on 03/14/2019 at 42 Elm Street."
TINY = ["--vector-size", "16", "--epochs", "5", "--infer-epochs", "5", "--no-progress"]


def _sentence(rnd: random.Random) -> str:
    return " ".join(rnd.choice(options) for options in PARTS)


def _write(path: Path, notes: int, seed: int = 0) -> list[dict[str, str]]:
    rnd = random.Random(seed)
    records = [
        {"id": f"n{i}", "text": f"ASSESSMENT:\n{_sentence(rnd)} {_sentence(rnd)}\n- {_sentence(rnd)}"}
        for i in range(notes)
    ]
    records.append({"id": "secret", "text": f"PLAN:\n{SECRET} {_sentence(rnd)}"})
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return records


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bank")
    _write(folder / "corpus.jsonl", 40)
    result = runner.invoke(
        root, ["bank", "build", str(folder / "corpus.jsonl"), "-o", str(folder / "bank"), *TINY]
    )
    assert result.exit_code == 0, result.output
    assert "dropped for PHI" in result.output
    return folder / "bank"


def test_bank_build_writes_a_scrubbed_loadable_bank(built: Path) -> None:
    loaded = load_bank(built)
    assert loaded.kind == "flat" and loaded.encoder.dim == 16
    assert not [s for s in loaded.sentences if "Smith" in s or "Elm" in s]


def test_obfuscate_sentences_replaces_every_sentence_and_keeps_layout(built: Path, tmp_path: Path) -> None:
    records = _write(tmp_path / "in.jsonl", 5, seed=1)
    out = tmp_path / "out.jsonl"
    args = [
        "obfuscate",
        "sentences",
        str(tmp_path / "in.jsonl"),
        "-o",
        str(out),
        "--bank",
        str(built),
        "--k",
        "3",
    ]
    result = runner.invoke(
        root, [*args, "--seed", "2", "--no-progress", "--summary", str(tmp_path / "s.json")]
    )
    assert result.exit_code == 0, result.output
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in written] == [r["id"] for r in records]
    for before, after in zip(records, written, strict=True):
        old, new = split_sentences(before["text"]), split_sentences(after["text"])
        assert layout(before["text"], old) == layout(after["text"], new)
        pairs = zip(old, new, strict=True)
        assert all(
            normalise(before["text"][a.start : a.end]) != normalise(after["text"][b.start : b.end])
            for a, b in pairs
        )
    assert "Smith" not in out.read_text(encoding="utf-8")
    assert json.loads((tmp_path / "s.json").read_text())["sentences"] == sum(
        len(split_sentences(r["text"])) for r in records
    )


def test_obfuscate_sentences_is_reproducible_with_a_seed(built: Path, tmp_path: Path) -> None:
    _write(tmp_path / "in.jsonl", 3, seed=2)
    outputs = []
    for name in ("a.jsonl", "b.jsonl"):
        args = ["obfuscate", "sentences", str(tmp_path / "in.jsonl"), "-o", str(tmp_path / name)]
        assert (
            runner.invoke(root, [*args, "--bank", str(built), "--seed", "5", "--no-progress"]).exit_code == 0
        )
        outputs.append((tmp_path / name).read_text(encoding="utf-8"))
    assert outputs[0] == outputs[1]


def test_hybrid_replaces_phi_then_sentences(built: Path, tmp_path: Path) -> None:
    _write(tmp_path / "in.jsonl", 2, seed=3)
    out = tmp_path / "out.jsonl"
    args = [
        "obfuscate",
        "hybrid",
        str(tmp_path / "in.jsonl"),
        "-o",
        str(out),
        "--bank",
        str(built),
        "--k",
        "2",
    ]
    result = runner.invoke(root, [*args, "--no-progress"])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert "Smith" not in text and "03/14/2019" not in text


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--k", "1"], "k"),  # too few neighbours
        (["--bank", "nowhere"], "cannot load bank"),  # missing bank
    ],
)
def test_bad_sentence_options_fail_cleanly(
    built: Path, tmp_path: Path, extra: list[str], message: str
) -> None:
    _write(tmp_path / "in.jsonl", 1)
    args = ["obfuscate", "sentences", str(tmp_path / "in.jsonl"), "-o", str(tmp_path / "o.jsonl")]
    if "--bank" not in extra:
        extra = [*extra, "--bank", str(built)]
    result = runner.invoke(root, [*args, *extra, "--no-progress"])
    assert result.exit_code == 2 and message in result.output and not (tmp_path / "o.jsonl").exists()


@pytest.mark.parametrize("what", [["c.jsonl"], ["--default"]])
def test_bank_build_needs_an_output(tmp_path: Path, what: list[str]) -> None:
    result = runner.invoke(root, ["bank", "build", *what, "--no-progress"])
    assert result.exit_code == 2 and "--output" in result.output
