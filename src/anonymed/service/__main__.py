"""``python -m anonymed.service``: the ``serve`` command alone (for benchmarks and tests)."""

from __future__ import annotations

import typer

from anonymed.cli.serve import serve

if __name__ == "__main__":
    typer.run(serve)
