"""The server's refusals, for every layer to raise and the routes to answer.

- ``TableError``: a request the lobby or a table refuses (an HTTP status and a sentence);
- ``PlayersError``: the same for accounts, sessions and bots (``players/``);
- ``Elsewhere``, ``OwnerGone``: with several processes (``cluster/``), the table (or the
  matchmaker) is run by another live process, or its owner did not answer in time.
"""

from __future__ import annotations

import math


class TableError(Exception):
    """A request the lobby refuses: an HTTP status and a sentence, and for a rate the
    seconds after which asking again may succeed (sent as ``Retry-After``)."""

    def __init__(self, status: int, detail: str, retry_after: float | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.retry_after = retry_after


class PlayersError(Exception):
    """A refused request: HTTP status, a sentence, and seconds to wait (429)."""

    def __init__(self, status: int, detail: str, retry_after: float | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.retry_after = retry_after

    def headers(self) -> dict[str, str] | None:
        """``Retry-After`` for a 429."""
        if self.retry_after is None:
            return None
        return {"Retry-After": str(max(1, math.ceil(self.retry_after)))}


class Elsewhere(Exception):
    """The table (or the matchmaker) is run by another live process."""

    def __init__(self, owner: str) -> None:
        super().__init__(owner)
        self.owner = owner


class OwnerGone(Exception):
    """The owner did not answer in time (it died, or lost the table)."""
