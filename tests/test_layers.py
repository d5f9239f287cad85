"""Layers import downwards only (docs/architecture.md): a lower layer never imports a higher one.

model < parts < composition < work < faces. Every ``import``, ``from ... import`` (inside functions too:
a lazy import is still a dependency) and every string naming an anonymed module (``importlib``
targets, ``"module:Class"`` registry entries) counts. Within a layer, imports are free.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "anonymed"
LAYERS = ("model", "parts", "composition", "work", "faces")
#: top-level module or package of anonymed -> its layer (``anonymed`` itself: the Python API, a face)
PLACES = {
    "anonymed": "faces",
    "__main__": "faces",
    "cli": "faces",
    "service": "faces",
    "runner": "work",
    "evaluate": "work",
    "audit": "work",
    "train": "work",
    "review": "work",
    "fhir": "work",
    "sql": "work",
    "methods": "composition",
    "pipeline": "composition",
    "words": "composition",
    "sentences": "composition",
    "io": "parts",
    "detect": "parts",
    "substitute": "parts",
    "dates": "parts",
    "embeddings": "parts",
    "config": "parts",
    "effective": "parts",
    "profiles": "parts",
    "document": "model",
    "labels": "model",
    "params": "model",
    "randomness": "model",
    "errors": "model",
    "tomlfile": "model",
    "_lazy": "model",
    "known": "model",
    "redact": "model",
    "processes": "model",
}
#: documented exceptions (importer, imported); none since the embedding spaces became a part (``embeddings/``)
EXCEPTIONS: frozenset[tuple[str, str]] = frozenset()
MODULE_NAME = re.compile(r"anonymed(\.\w+)+(:\w+)?")
#: strings of that shape that name no module: the entry-point groups of plug-in detectors and operators
NOT_MODULES = frozenset({"anonymed.detectors", "anonymed.operators"})


def module_name(path: Path, root: Path) -> str:
    """``anonymed.io.jsonl`` for ``<root>/io/jsonl.py`` (a package: its ``__init__``'s folder)."""
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> str | None:
    """The layer of an anonymed module (None for other libraries); unknown places raise."""
    parts = module.split(".")
    if parts[0] != "anonymed":
        return None
    top = parts[1] if len(parts) > 1 else "anonymed"
    if top not in PLACES:
        raise AssertionError(f"{top!r} has no layer: add it to PLACES and to docs/architecture.md")
    return PLACES[top]


def _is_logger_name(node: ast.Constant, parents: dict[ast.AST, ast.AST]) -> bool:
    call = parents.get(node)
    return isinstance(call, ast.Call) and getattr(call.func, "attr", None) == "getLogger"


def imported(path: Path, name: str) -> Iterator[tuple[str, int]]:
    """The anonymed modules ``path`` (module ``name``) imports, with their line numbers."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            yield ".".join([*base, *([node.module] if node.module else [])]), node.lineno
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and MODULE_NAME.fullmatch(node.value)
            and node.value not in NOT_MODULES
            and not _is_logger_name(node, parents)
        ):
            yield node.value.partition(":")[0], node.lineno


def violations(root: Path) -> list[str]:
    """Every import of a higher layer by a module of the tree at ``root`` (an ``anonymed`` folder)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        name = module_name(path, root)
        own = layer(name)
        assert own is not None
        for target, line in imported(path, name):
            theirs = layer(target)
            if theirs is None or (name, target) in EXCEPTIONS:
                continue
            if LAYERS.index(theirs) > LAYERS.index(own):
                found.append(f"{name}:{line} ({own}) imports {target} ({theirs})")
    return found


def test_every_package_has_a_layer() -> None:
    packages = {p.name for p in SRC.iterdir() if (p / "__init__.py").exists()}
    tops = {p.stem for p in SRC.glob("*.py")} | packages
    assert sorted(tops - set(PLACES) - {"__init__"}) == []


def test_no_layer_imports_a_higher_one() -> None:
    assert violations(SRC) == []


def test_the_exception_is_still_needed() -> None:
    for importer, target in EXCEPTIONS:
        path = SRC.joinpath(*importer.split(".")[1:]).with_suffix(".py")
        assert target in {name for name, _ in imported(path, importer)}, "drop the exception"


@pytest.mark.parametrize(
    "planted",
    [
        "from anonymed.cli import app\n",  # a part importing a face
        "def later():\n    import anonymed.runner.batch\n",  # hidden in a function
        'REGISTRY = {"x": "anonymed.evaluate.report:Evaluation"}\n',  # a registry entry
        "from ..methods import base\n",  # a relative import
    ],
)
def test_a_planted_upward_import_fails(tmp_path: Path, planted: str) -> None:
    root = tmp_path / "anonymed"
    (root / "io").mkdir(parents=True)
    (root / "methods").mkdir()
    for package in (root, root / "io", root / "methods"):
        (package / "__init__.py").write_text("", encoding="utf-8")
    (root / "io" / "planted.py").write_text(planted, encoding="utf-8")
    (root / "io" / "fine.py").write_text("from anonymed.errors import ConfigError\n", encoding="utf-8")
    (root / "methods" / "base.py").write_text("from anonymed.io import fine\n", encoding="utf-8")
    found = violations(root)
    assert len(found) == 1 and found[0].startswith("anonymed.io.planted:")
