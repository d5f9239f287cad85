"""``anonymed.dates`` is a library of the parts layer: it imports only the model layer and itself."""

from __future__ import annotations

import ast
from pathlib import Path

import anonymed.dates

#: what ``dates`` may import from anonymed (the model layer, and itself)
ALLOWED = ("anonymed.dates", "anonymed.document", "anonymed.labels", "anonymed.errors", "anonymed.randomness")


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_dates_imports_nothing_above_the_model_layer() -> None:
    folder = Path(anonymed.dates.__file__).parent
    modules = sorted(folder.glob("*.py"))
    assert len(modules) >= 8
    for module in modules:
        bad = [
            name for name in _imports(module) if name.startswith("anonymed") and not name.startswith(ALLOWED)
        ]
        assert not bad, (module.name, bad)
