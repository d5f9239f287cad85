"""atheris (libFuzzer) target: detection, merging and replacement on arbitrary text.

    python fuzz/fuzz_pipeline.py -dict=fuzz/pipeline.dict -max_len=2048 fuzz/corpus/pipeline

(see SECURITY.md for the long run). The first byte picks language, operator and options (``fuzz_targets.py``).
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports(include=["anonymed"]):
    import fuzz_targets


def main() -> None:
    """Fuzz ``fuzz_targets.deid_any``."""
    atheris.Setup(sys.argv, fuzz_targets.deid_any)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
