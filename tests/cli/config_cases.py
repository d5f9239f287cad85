"""The precedence matrix's cases (tests/cli/test_cli_config*.py): every option with a configuration key,
its value from a file, from the option, from both and from neither, and the check of what a run recorded."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from anonymed.effective import SECRET_KEYS
from anonymed.embeddings.spaces import DEFAULT_SPACE
from anonymed.sentences.bank_build import DEFAULT_BANK


@dataclass(frozen=True)
class Case:
    """An option with a configuration key: the file's value, the option's, and the default if any."""

    option: str
    key: tuple[str, ...]
    file_toml: str  # the line under the key's table
    file_value: Any
    args: tuple[str, ...]
    option_value: Any
    default: Any = None  # None: not set unless asked
    default_source: str = "default"
    additive: bool = False


def cases(tmp: Path) -> list[Case]:
    a, b = tmp / "allow-a.txt", tmp / "allow-b.txt"
    c, d = tmp / "deny-c.csv", tmp / "deny-d.csv"
    banks, spaces = (tmp / "bank-1", tmp / "bank-2"), (tmp / "space-1", tmp / "space-2")
    sides = (tmp / "side-1.jsonl", tmp / "side-2.jsonl")
    return [
        Case("lang", ("pipeline", "lang"), 'lang = "fr"', "fr", ("--lang", "en"), "en", "en"),
        Case("detectors", ("pipeline", "detectors"), 'detectors = ["patterns"]', ["patterns"],
             ("--detectors", "patterns,lexicons"), ["patterns", "lexicons"], ["tagger", "patterns"]),
        Case("high_recall", ("pipeline", "high_recall"), "high_recall = true", True,
             ("--no-high-recall",), False, False),
        Case("allow_list", ("lists", "allow"), f"allow = {json.dumps(a.name)}", [str(a)],
             ("--allow-list", str(b)), [str(b)], additive=True),
        Case("deny_list", ("lists", "deny"), f"deny = [{json.dumps(c.name)}]", [str(c)],
             ("--deny-list", str(d)), [str(d)], additive=True),
        Case("known_field", ("known", "fields", "mrn"), 'fields = { mrn = "ID/mrn" }', "ID/mrn",
             ("--known-field", "mrn=ID"), "ID"),
        Case("known_side_file", ("known", "side_file"), f"side_file = {json.dumps(sides[0].name)}",
             str(sides[0]), ("--known-side-file", str(sides[1])), str(sides[1])),
        Case("profile", ("pipeline", "profile"), 'profile = "dp"', "dp",
             ("--profile", "hipaa-safe-harbor"), "hipaa-safe-harbor", "pseudonymise"),
        Case("seed", ("pipeline", "seed"), "seed = 3", 3, ("--seed", "5"), 5),
        Case("operator", ("operators", "NAME"), 'NAME = "tag"', "tag", ("--operator", "NAME=redact"),
             "redact", "fake", "profile"),
        Case("epsilon", ("pipeline", "epsilon"), "epsilon = 2.0", 2.0, ("--epsilon", "3"), 3.0),
        Case("epsilon_weight", ("epsilon_weights", "LOCATION"), "LOCATION = 2.0", 2.0,
             ("--epsilon-weight", "LOCATION=3"), 3.0),
        Case("then", ("hybrid", "then"), 'then = "words"', "words", ("--then", "sentences"), "sentences",
             "sentences"),
        Case("k", ("hybrid", "k"), "k = 3", 3, ("--k", "4"), 4, 5),
        Case("n", ("hybrid", "n"), 'n = "3"', "3", ("--n", "4"), "4", "5"),
        Case("bank", ("hybrid", "bank"), f"bank = {json.dumps(banks[0].name)}", str(banks[0]),
             ("--bank", str(banks[1])), str(banks[1])),
        Case("space", ("hybrid", "space"), f"space = {json.dumps(spaces[0].name)}", str(spaces[0]),
             ("--space", str(spaces[1])), str(spaces[1])),
    ]  # fmt: skip


DETECTION = ("lang", "detectors", "high_recall", "allow_list", "deny_list", "known_field", "known_side_file")
PIPELINE = (*DETECTION, "profile", "seed", "operator", "epsilon", "epsilon_weight")
HYBRID = (*PIPELINE, "then", "k", "n", "bank", "space")
WAYS = ("file", "option", "both", "neither")


def make_files(tmp: Path) -> None:
    (tmp / "allow-a.txt").write_text("Babinski\n", encoding="utf-8")
    (tmp / "allow-b.txt").write_text("Homans\n", encoding="utf-8")
    (tmp / "deny-c.csv").write_text("term,label\nQuackenbush,NAME\n", encoding="utf-8")
    (tmp / "deny-d.csv").write_text("term,label\nFlimflam,NAME\n", encoding="utf-8")
    for name in ("bank-1", "bank-2"):
        (tmp / name).symlink_to(DEFAULT_BANK, target_is_directory=True)
    for name in ("space-1", "space-2"):
        (tmp / name).symlink_to(DEFAULT_SPACE, target_is_directory=True)
    for name in ("side-1.jsonl", "side-2.jsonl"):
        (tmp / name).write_text("", encoding="utf-8")
    (tmp / "notes.jsonl").write_text("", encoding="utf-8")


def config_file(cases: list[Case], path: Path) -> None:
    tables: dict[tuple[str, ...], list[str]] = {}
    for case in cases:
        table = ("known",) if case.key[0] == "known" else case.key[:-1]
        tables.setdefault(table, []).append(case.file_toml)
    text = "\n".join(f"[{'.'.join(table)}]\n" + "\n".join(lines) for table, lines in tables.items())
    path.write_text(text + "\n", encoding="utf-8")


def lookup(values: dict[str, Any], key: tuple[str, ...]) -> Any:
    node: Any = values
    for part in key:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def source_of(sources: dict[str, str], key: tuple[str, ...]) -> str | None:
    if key[:2] == ("known", "fields"):  # config show writes fields as one inline table
        return sources.get("known.fields", sources.get(".".join(key)))
    return sources.get(".".join(key))


def check(case: Case, run: dict[str, Any], way: str, *, written: bool = True) -> None:
    """Assert the value and source ``run`` (``{"values", "sources"}``) recorded for ``case`` run ``way``.

    ``written``: a run summary or manifest, where a secret (the seed) appears only as its source, under
    ``secrets``; ``config show`` (not written for others) prints its value.
    """
    value, source = lookup(run["values"], case.key), source_of(run["sources"], case.key)
    if written and case.key in SECRET_KEYS:
        expected = {"file": "file", "option": "option", "both": "option"}.get(way)
        assert (value, source) == (None, None)
        assert run.get("secrets", {}).get(case.key[-1]) == (
            None if expected is None else {"source": expected}
        )
        return
    if way == "file":
        assert (value, source) == (case.file_value, "file")
    elif way == "option":
        assert (value, source) == (case.option_value, "option")
    elif way == "both":
        expected = [*case.file_value, *case.option_value] if case.additive else case.option_value
        assert (value, source) == (expected, "option")
    else:
        default_source = None if case.default is None else case.default_source
        assert (value, source) == (case.default, default_source)
