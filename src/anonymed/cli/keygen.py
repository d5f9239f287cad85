"""``anonymed keygen``: write a new secret patient key file (for ``anonymed deid --patient-key-file``).

The key is ``--bytes`` random bytes from ``secrets`` (the operating system's CSPRNG), written as hex on
one line, to a new file created owner-only (0600) and never over an existing one: a lost or replaced key
changes every patient's surrogates, so overwriting one is always a mistake.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Annotated, Final

import typer

from anonymed.cli.common import console, handled_errors
from anonymed.errors import ConfigError, OutputError

#: random bytes of a new key unless told otherwise
KEY_BYTES: Final = 32
#: the fewest random bytes ``keygen`` writes (a key file must hold at least 16 bytes: ``read_patient_key``)
MIN_KEY_BYTES: Final = 16


def write_key(path: Path, size: int = KEY_BYTES) -> None:
    """Create ``path`` (0600, refused if it exists) holding ``size`` random bytes as hex and a newline."""
    if size < MIN_KEY_BYTES:
        raise ConfigError(f"--bytes must be at least {MIN_KEY_BYTES}, got {size}")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise ConfigError(f"{str(path)!r} exists: keygen never replaces a key (remove it first)") from None
    except OSError as exc:
        raise OutputError(f"cannot write {str(path)!r}: {exc.strerror}") from None
    try:
        with open(fd, "w", encoding="ascii") as handle:
            os.fchmod(handle.fileno(), 0o600)  # whatever the umask
            handle.write(secrets.token_hex(size) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as exc:
        path.unlink(missing_ok=True)
        raise OutputError(f"cannot write {str(path)!r}: {exc.strerror}") from None


def keygen(
    path: Annotated[Path, typer.Argument(help="Key file to create (refused if it exists).")],
    size: Annotated[
        int,
        typer.Option("--bytes", help=f"Random bytes in the key (at least {MIN_KEY_BYTES}); written as hex."),
    ] = KEY_BYTES,
) -> None:
    """Write a new secret key for patient-consistent surrogates (file mode 0600; keep it secret)."""
    with handled_errors():
        write_key(path, size)
    console.print(
        f"key written to {path} ({size} random bytes, mode 0600); use it with "
        f"`anonymed deid --patient-key-file {path}` and keep it secret, as long as surrogates must stay "
        "consistent"
    )


def register(app: typer.Typer) -> None:
    """Add the command of this module to the main app."""
    app.command("keygen")(keygen)
