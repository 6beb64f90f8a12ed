"""The site's HTTP API as a program sees it: JSON over the standard library.

``Site`` sends the bot's API key in the ``Authorization`` header of every
request (never in a URL) and turns an error answer into ``SiteError`` with
the server's sentence. Blocking calls run on a worker thread, so the event
loop of ``play`` keeps reading its table. A rate the site says when to ask
again about (429 with ``Retry-After``: ten new tables a minute, say) is waited
out and asked again, so a bot that plays many short matches only slows down.
"""

from __future__ import annotations

import asyncio
import json
import logging
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit, urlunsplit

log = logging.getLogger("coffeetable.client")

#: Seconds before an HTTP request gives up.
TIMEOUT = 30.0
#: How often one call waits out a 429 (``Retry-After``) and asks again.
RATE_RETRIES = 5


class SiteError(Exception):
    """The site refused a request: the HTTP status, its sentence, and for a rate the
    seconds after which asking again may succeed (``Retry-After``; else None)."""

    def __init__(self, status: int, detail: str, retry_after: float | None = None) -> None:
        super().__init__(f"{status}: {detail}")
        self.status = status
        self.detail = detail
        self.retry_after = retry_after


class Site:
    """One site (``http://127.0.0.1:8000``) and one bot's key."""

    def __init__(self, url: str, key: str) -> None:
        parts = urlsplit(url.rstrip("/"))
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"the site's address is http(s)://host[:port], not {url!r}")
        if not key.startswith("ctb_"):
            raise ValueError("an API key starts with ctb_ (make one on the site's Bots page)")
        self.url = urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))
        self.key = key

    @property
    def ws_url(self) -> str:
        """The site's WebSocket base (``ws://`` or ``wss://``)."""
        return "ws" + self.url[4:]

    def headers(self) -> dict[str, str]:
        """What every request and the table socket's handshake carry."""
        return {"Authorization": f"Bearer {self.key}", "User-Agent": "coffeetable.client"}

    def request(self, method: str, path: str, body: Any = None) -> Any:
        """One blocking request; its JSON answer, or ``SiteError``."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = self.headers()
        if data is not None:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(self.url + path, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:  # noqa: S310
                return json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            raise SiteError(error.code, _detail(error), _retry_after(error)) from None

    async def call(self, method: str, path: str, body: Any = None) -> Any:
        """``request`` off the event loop; a 429 with ``Retry-After`` is waited out and
        asked again (``RATE_RETRIES`` times): nothing was done, so asking again is safe."""
        retries = 0
        while True:
            try:
                return await asyncio.to_thread(self.request, method, path, body)
            except SiteError as error:
                wait = error.retry_after
                if error.status != 429 or wait is None or retries == RATE_RETRIES:
                    raise
                retries += 1
                log.info("%s %s: %s; asking again in %.0f s", method, path, error.detail, wait)
                await asyncio.sleep(wait)


def _retry_after(error: urllib.error.HTTPError) -> float | None:
    """The seconds of a ``Retry-After`` header (its date form is not used here)."""
    value = error.headers.get("Retry-After") if error.headers is not None else None
    try:
        return None if value is None else max(0.0, float(value))
    except ValueError:
        return None


def _detail(error: urllib.error.HTTPError) -> str:
    """The server's sentence for an error answer."""
    try:
        detail = json.loads(error.read()).get("detail", error.reason)
    except (ValueError, AttributeError):
        return str(error.reason)
    return detail if isinstance(detail, str) else json.dumps(detail)[:300]
