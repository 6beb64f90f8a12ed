"""Server-side sessions in a cookie.

The cookie ``coffeetable_session`` holds a random secret (32 bytes,
URL-safe); the database keeps only its SHA-256, with a public id (to list and
revoke sessions), the times it was made and last used, and the browser's user
agent. The cookie is ``HttpOnly``, ``SameSite=Lax``, ``Path=/``, and
``Secure`` when the request came over https. A session ends when signed out
or revoked, after ``IDLE`` seconds unused, or ``MAX_AGE`` seconds after it
began.

Requests that change something and carry the cookie must come from this
site: ``same_origin`` compares the ``Origin`` header (when the browser sends
one) with the request's own host. The table socket must check it too before
trusting the cookie (a WebSocket is not covered by CORS).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.responses import Response

COOKIE = "coffeetable_session"
#: A session unused this long has ended (30 days).
IDLE = 30 * 24 * 3600.0
#: A session ends this long after it began, used or not (180 days); the cookie's Max-Age.
MAX_AGE = 180 * 24 * 3600
#: last_seen is written at most this often per session (seconds).
TOUCH_EVERY = 300.0


@dataclass(frozen=True)
class Account:
    """Who a request is signed in as: the account and the session it came with."""

    user_id: int
    username: str
    session_id: str


def new_secret() -> tuple[str, str, str]:
    """A fresh session: (public id, cookie secret, SHA-256 of the secret)."""
    secret = secrets.token_urlsafe(32)
    return secrets.token_urlsafe(12), secret, hash_secret(secret)


def hash_secret(secret: str) -> str:
    """The stored form of a cookie secret."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def is_https(connection: HTTPConnection) -> bool:
    """True when the request came over https (or wss)."""
    return connection.url.scheme in ("https", "wss")


def set_cookie(response: Response, secret: str, secure: bool) -> None:
    """Put the session cookie on ``response``."""
    response.set_cookie(
        COOKIE,
        secret,
        max_age=MAX_AGE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=secure,
    )


def clear_cookie(response: Response, secure: bool) -> None:
    """Tell the browser to forget the session cookie."""
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=secure)


def cookie_secret(cookies: Mapping[str, str]) -> str | None:
    """The session secret a request or socket carries, if it looks like one."""
    value = cookies.get(COOKIE)
    if not value or len(value) > 100:
        return None
    return value


def same_origin(headers: Mapping[str, str], host: str | None = None) -> bool:
    """True unless the ``Origin`` header names another site than ``Host``.

    No ``Origin`` (a same-origin GET, a non-browser client) passes: the
    cookie is ``SameSite=Lax``, so browsers send it cross-site only on
    top-level GET navigations, which change nothing here.
    """
    origin = headers.get("origin")
    if origin is None:
        return True
    if origin == "null":
        return False
    expected = host if host is not None else headers.get("host")
    return expected is not None and urlsplit(origin).netloc.lower() == expected.lower()
