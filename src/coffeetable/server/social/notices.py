"""Notifying an account: the notifications it reads on the site (and, later, its mail).

``Social.notify`` is what other code calls (a friend request, an invitation);
``Social.table_news`` is the tables' news writer (``tables/news.py``): "your turn",
"match over" with the result, "table full". Both write the ``notifications`` rows
(``store.social``); an account keeps its newest ``Limits.notifications_kept``.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Connection

from coffeetable.server.limits import Limits
from coffeetable.server.tables.news import TableNews
from coffeetable.store import Store
from coffeetable.store import social as db


class Social:
    """The site's notifications, over the ``Store``."""

    def __init__(self, store: Store, limits: Limits | None = None) -> None:
        self.store = store
        self.limits = limits or Limits()

    def add(
        self,
        conn: Connection,
        user_id: int,
        kind: str,
        table_id: str | None = None,
        data: dict[str, Any] | None = None,
    ) -> int:
        """Notify ``user_id`` inside the caller's transaction; return the notice's id."""
        if kind not in db.KINDS:
            raise ValueError(f"no notification kind {kind!r}")
        keep = self.limits.notifications_kept
        return db.add_notice(conn, user_id, kind, keep=keep, table_id=table_id, data=data)

    async def notify(
        self,
        user_id: int,
        kind: str,
        table_id: str | None = None,
        data: dict[str, Any] | None = None,
    ) -> int:
        """Notify ``user_id`` (its own transaction); return the notice's id."""
        return await self.store.write(lambda conn: self.add(conn, user_id, kind, table_id, data))

    def table_news(self, conn: Connection, news: TableNews) -> None:
        """Write a table's news (``tables/news.py``), inside the store's transaction."""
        title = {"title": news.title}
        if news.played is not None:
            db.turn_done(conn, news.played, news.table_id)
        for user in news.full:
            self.add(conn, user, db.TABLE_FULL, news.table_id, title)
        for user in news.turn:
            self.add(conn, user, db.YOUR_TURN, news.table_id, title)
        for user, result in news.results:
            db.turn_done(conn, user, news.table_id)
            self.add(conn, user, db.MATCH_OVER, news.table_id, {**title, **result})
