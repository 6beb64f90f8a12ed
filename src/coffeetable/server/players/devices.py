"""The device cookie: how the server knows a browser signed in to an account before.

``coffeetable_device`` holds 32 random bytes (URL-safe), set on every successful
sign-up and sign-in and kept for ``MAX_AGE`` (a year), through sign-outs: it is
no session and signs nobody in. The database keeps only its SHA-256, beside each
account the browser signed in to (``store/devices.py``, the ``KEEP`` most recently
used per account, each forgotten after ``MAX_AGE`` unused). A sign-in that carries
a device known to that account passes the limits a stranger can run up against a
username (the failures per name from everywhere, and the site's failures a
minute), so nobody can lock a person out of the browsers they use. It is
``HttpOnly``, ``SameSite=Strict``, ``Path=/api/auth`` (only sign-in routes see it),
and ``Secure`` over https.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping

from starlette.responses import Response

COOKIE = "coffeetable_device"
PATH = "/api/auth"
#: A device unused this long is forgotten; the cookie's Max-Age (a year).
MAX_AGE = 365 * 24 * 3600
#: Known devices kept per account (the most recently used).
KEEP = 20


def new_device() -> str:
    """A fresh device secret."""
    return secrets.token_urlsafe(32)


def device_secret(cookies: Mapping[str, str]) -> str | None:
    """The device secret a request carries, if it looks like one."""
    value = cookies.get(COOKIE)
    if not value or len(value) > 100:
        return None
    return value


def set_device_cookie(response: Response, secret: str, secure: bool) -> None:
    """Put the device cookie on ``response``."""
    response.set_cookie(
        COOKIE, secret, max_age=MAX_AGE, path=PATH, httponly=True, samesite="strict", secure=secure
    )
