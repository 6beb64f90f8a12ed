"""Security headers on every HTTP response.

Plain ASGI middleware (not Starlette's BaseHTTPMiddleware), so it costs one
function call per request and never buffers a response.

- Every HTTP response carries a strict Content-Security-Policy (no inline script,
  handlers or styles; nothing from other origins), ``X-Content-Type-Options``,
  ``Referrer-Policy`` and ``X-Frame-Options``. The interactive API docs
  (``/docs``: ``api/docs.py``) load their scripts from this site too, and no inline
  script; they alone may use inline styles and blob workers (Swagger UI's), and they
  show no one's data.

Request bodies are capped by FastAPI's own ``max_body_size`` (413), set from
``Limits.max_body_bytes`` in ``app.py``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
AsgiMessage = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[AsgiMessage]]
Send = Callable[[AsgiMessage], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'"
)
#: The Swagger UI page: scripts from this site only; inline styles and blob workers.
DOCS_CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src 'self' blob:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
_DOCS_PATHS = ("/docs",)

_COMMON_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


def _policy_for(path: str) -> bytes:
    docs = any(path == p or path.startswith(p + "/") for p in _DOCS_PATHS)
    return (DOCS_CONTENT_SECURITY_POLICY if docs else CONTENT_SECURITY_POLICY).encode()


class SecurityHeaders:
    """Add the security headers to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = _policy_for(scope.get("path", ""))

        async def send_with_headers(message: AsgiMessage) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                if b"content-security-policy" not in present:
                    headers.append((b"content-security-policy", policy))
                headers += [(n, v) for n, v in _COMMON_HEADERS if n not in present]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)
