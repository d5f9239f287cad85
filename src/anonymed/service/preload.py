"""Imported once by the fork server before it forks any worker: imports and read-only caches made warm.

Every worker forked from that server then starts with the libraries imported and the default models,
lexicons and tables already in memory (shared copy-on-write), so its own ``Engine.load`` takes well under
a second and a worker killed at a timeout is replaced quickly. The fork server is a fresh single-threaded
interpreter (never a fork of the threaded server). A failure here only makes workers load more slowly.
The warmed objects are then frozen out of the garbage collector, whose full passes in a worker would
otherwise touch (and so copy) every shared page.
"""

from __future__ import annotations

import gc
import logging


def warm() -> None:
    """Load the engine with the default settings once, silently; every error is left to the workers."""
    logger = logging.getLogger("anonymed")
    quiet = logging.NullHandler()
    logger.addHandler(quiet)  # warnings (a missing space) are the workers' to log
    try:
        from anonymed.service.engine import Engine
        from anonymed.service.settings import ServiceSettings

        Engine(ServiceSettings()).load()
    except Exception:  # each worker loads (and reports) what it needs anyway
        pass
    finally:
        logger.removeHandler(quiet)
    gc.collect()
    gc.freeze()


warm()
