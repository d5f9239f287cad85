"""A throwaway PostgreSQL server for the tests: Debian's ``postgresql`` binaries, a temporary cluster.

``.ci/run`` installs the package when missing. As root (CI containers) the server runs as the
``postgres`` system user the package creates, since PostgreSQL refuses to run as root.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def binary(name: str) -> str:
    """The path of a PostgreSQL server program (on PATH, else Debian's versioned folder)."""
    found = shutil.which(name) or next(
        iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None
    )
    if found is None:
        raise RuntimeError(f"PostgreSQL server program {name!r} not found: apt-get install postgresql")
    return found


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def postgres_server() -> Iterator[str]:
    """Start a fresh cluster on a free local port; yields its URL; stops and removes it after."""
    as_root = os.geteuid() == 0
    prefix = ["runuser", "-u", "postgres", "--"] if as_root else []
    root = Path(tempfile.mkdtemp(prefix="anonymed-pg-"))
    data = root / "data"
    if as_root:
        import pwd

        user = pwd.getpwnam("postgres")
        os.chown(root, user.pw_uid, user.pw_gid)
    port = _free_port()
    run = lambda *args: subprocess.run([*prefix, *args], check=True, capture_output=True)  # noqa: E731
    try:
        run(binary("initdb"), "-D", str(data), "-U", "anonymed", "--auth=trust", "-E", "UTF8", "--locale=C")
        options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
        run(binary("pg_ctl"), "-D", str(data), "-o", options, "-l", str(root / "log"), "-w", "start")
        url = f"postgresql://anonymed@127.0.0.1:{port}/postgres"
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield url
    finally:
        if data.exists():
            subprocess.run(
                [*prefix, binary("pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                capture_output=True,
                check=False,
            )
        shutil.rmtree(root, ignore_errors=True)
