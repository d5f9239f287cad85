"""The REST service and web page (``anonymed serve``); needs the ``service`` extra (FastAPI, uvicorn)."""

from __future__ import annotations

from anonymed.service.app import create_app
from anonymed.service.settings import ServiceSettings, read_api_key

__all__ = ["ServiceSettings", "create_app", "read_api_key"]
