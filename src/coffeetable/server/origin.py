"""The WebSocket Origin check: other web pages may not open our sockets.

A browser sends ``Origin`` with every WebSocket handshake, and lets any page
open a socket to any site (no same-origin policy for WebSockets). So a
socket is accepted only from the site's own pages: the Origin's host and port
equal the request's ``Host`` header, with ``http`` for ``ws`` and ``https`` for
``wss``; or from an origin listed in ``Limits.allowed_origins`` (``"*"``: any).

A handshake without ``Origin`` is accepted: it comes from a program (a bot, a
test, a benchmark), not from a page, and Origin exists to stop pages.

Behind a proxy that ends TLS, run uvicorn with ``--proxy-headers`` (so the
scheme is ``wss``) or list the site's ``https://`` origin in ``allowed_origins``.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

_DEFAULT_PORTS = {"http": 80, "https": 443}


def normal_origin(origin: str) -> str:
    """``scheme://host:port``, lower case and with the port always written; an
    origin that is not http(s) (``null``, say) is only lower-cased."""
    text = origin.strip().lower()
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return text
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
        return text
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}:{port or _DEFAULT_PORTS[parts.scheme]}"


def own_origin(headers: Mapping[str, str], scheme: str) -> str | None:
    """The origin of the site's own pages for this request (None: no Host header)."""
    host = headers.get("host")
    if not host:
        return None
    return normal_origin(("https" if scheme == "wss" else "http") + "://" + host)


def origin_refusal(headers: Mapping[str, str], scheme: str, allowed: tuple[str, ...]) -> str | None:
    """Why a WebSocket handshake with these headers is refused, or None if it may open."""
    origin = headers.get("origin")
    if origin is None or "*" in allowed:
        return None
    given = normal_origin(origin)
    if given == own_origin(headers, scheme) or given in {normal_origin(a) for a in allowed}:
        return None
    shown = origin if len(origin) <= 60 else origin[:57] + "..."
    return f"this site's WebSockets are open to its own pages only, not to {shown!r}"
