"""atheris (libFuzzer) target: every reader, and the batch runner's shards, on arbitrary bytes.

    python fuzz/fuzz_readers.py -dict=fuzz/readers.dict -max_len=4096 fuzz/corpus/readers

(see SECURITY.md for the long run). The first byte picks the format, the rest is the file
(``fuzz_targets.py``).
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports(include=["anonymed"]):
    import fuzz_targets


def main() -> None:
    """Fuzz ``fuzz_targets.read_any``."""
    atheris.Setup(sys.argv, fuzz_targets.read_any)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
