"""Pure ASGI middleware: request ids and access logs without note text, body size limit, security headers."""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from collections.abc import Iterable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("anonymed.service")

REQUEST_ID_HEADER = "x-request-id"
_CLIENT_ID = re.compile(r"^[A-Za-z0-9-]{8,64}$")
#: sent with every response: the page loads nothing from elsewhere and runs no inline script
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


class RequestLog:
    """Give each request an id, add security headers, and log one line: id, method, path, sizes, time."""

    def __init__(self, app: ASGIApp, known_paths: Iterable[str]) -> None:
        self.app = app
        self.known_paths = frozenset(known_paths)

    def _path(self, scope: Scope) -> str:
        path = str(scope.get("path", ""))
        if path in self.known_paths:
            return path
        return "/static/*" if path.startswith("/static/") else "(other)"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = _header(scope, REQUEST_ID_HEADER.encode())
        request_id = given if given is not None and _CLIENT_ID.match(given) else uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id
        sizes = {"in": 0, "out": 0, "status": 0}
        started = time.perf_counter()

        async def counting_receive() -> Message:
            message = await receive()
            sizes["in"] += len(message.get("body", b""))
            return message

        async def tagging_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                sizes["status"] = int(message["status"])
                headers = list(message.get("headers", []))
                headers.append((REQUEST_ID_HEADER.encode(), request_id.encode()))
                headers.extend(SECURITY_HEADERS)
                message = {**message, "headers": headers}
            elif message["type"] == "http.response.body":
                sizes["out"] += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, counting_receive, tagging_send)
        finally:
            log.info(
                "request id=%s method=%s path=%s status=%d bytes_in=%d bytes_out=%d ms=%.1f",
                request_id,
                scope.get("method", "?"),
                self._path(scope),
                sizes["status"],
                sizes["in"],
                sizes["out"],
                (time.perf_counter() - started) * 1000,
            )


class BodyLimit:
    """Refuse bodies over ``max_bytes`` with 413: by Content-Length first, then by counting the stream."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _header(scope, b"content-length")
        if declared is not None and (not declared.strip().isdigit() or int(declared) > self.max_bytes):
            await self._refuse(send, 413 if declared.strip().isdigit() else 400)
            return
        chunks: list[bytes] = []
        total = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            total += len(chunk)
            if total > self.max_bytes:
                await self._refuse(send, 413)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send, status: int) -> None:
        detail = f"request body larger than {self.max_bytes} bytes" if status == 413 else "bad Content-Length"
        payload = json.dumps({"detail": detail}).encode()
        headers: list[Any] = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(payload)).encode()),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": payload})
