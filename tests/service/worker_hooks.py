"""Engine hooks of the service tests: engines that spin, crash, sleep or fail on a marker in the note.

A hook reaches the engines through ``create_app(engine_hook=...)`` only (never through the API); in process
isolation it is pickled by reference, so it lives in this importable module.
"""

from __future__ import annotations

import os
import signal
import time
from typing import Any

from anonymed.service.engine import Engine

#: markers planted in a note's text, and what an engine changed by ``misbehave`` does on each
SPIN = "SPIN-FOREVER"  # burn CPU until killed
CRASH = "CRASH-NOW"  # the worker process dies (SIGKILL from itself)
SLEEP = "SLEEP-A-SECOND"  # one second of sleep, then the normal work
RAISE = "RAISE-KEYERROR"  # a KeyError whose message is the note's text


def _react(text: str) -> None:
    if SPIN in text:
        while True:
            pass
    if CRASH in text:
        os.kill(os.getpid(), signal.SIGKILL)
    if SLEEP in text:
        time.sleep(1.0)
    if RAISE in text:
        raise KeyError(text)


def misbehave(engine: Engine) -> None:
    """Make the engine's ``detect`` and ``deid`` react to the markers above, else work as usual."""
    detect, deid = engine.detect, engine.deid

    def marked_detect(text: str, *args: Any) -> Any:
        _react(text)
        return detect(text, *args)

    def marked_deid(request: Any) -> Any:
        _react(request.text)
        return deid(request)

    setattr(engine, "detect", marked_detect)  # noqa: B010 -- an instance attribute over the method
    setattr(engine, "deid", marked_deid)  # noqa: B010
