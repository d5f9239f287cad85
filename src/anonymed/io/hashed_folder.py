"""Folders saved whole: built in a temporary sibling and renamed into place, with a JSON meta file that
names their format and version and may record the SHA-256 of every file (checked again at load).

Banks, embedding spaces and audit benchmarks are such folders.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from anonymed.errors import OutputError, ResourceError

META = "meta.json"


def save_folder(path: Path, write: Callable[[Path], None], what: str) -> Path:
    """Fill a temporary sibling of ``path`` with ``write``, then rename it into place (``what``: errors)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.", dir=path.parent))
    try:
        write(tmp)
        if path.exists():
            shutil.rmtree(path)
        os.replace(tmp, path)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise OutputError(f"cannot write {what} to {str(path)!r}: {exc.strerror}") from None
    return path


def sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, as hex."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_hashed_meta(folder: Path, meta: dict[str, Any]) -> None:
    """Write ``meta`` to ``folder/meta.json``, ``files`` set to the SHA-256 of each file already there."""
    files = {p.name: sha256(p) for p in sorted(folder.iterdir())}
    text = json.dumps({**meta, "files": files}, indent=2, ensure_ascii=False)
    (folder / META).write_text(text, encoding="utf-8")


def read_meta(
    folder: Path, fmt: str, version: int, *, what: str, verify: bool = True, name: str = META
) -> dict[str, Any]:
    """The folder's meta file, checked to be ``fmt`` ``version`` (and with ``verify``, its files' SHA-256)."""
    meta: dict[str, Any] = json.loads((folder / name).read_text(encoding="utf-8"))
    if meta.get("format") != fmt or meta.get("version") != version:
        raise ResourceError(f"{str(folder)!r} is not an {fmt} version {version} folder")
    if verify:
        for file, expected in meta.get("files", {}).items():
            if sha256(folder / file) != expected:
                raise ResourceError(f"{what} file {str(folder / file)!r} does not match its recorded SHA-256")
    return meta
