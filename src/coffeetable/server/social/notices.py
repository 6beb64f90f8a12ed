"""Notifying an account: the notifications it reads on the site, and its mail.

``Social.notify`` is what other code calls (a friend request, an invitation);
``Social.table_news`` is the tables' news writer (``tables/news.py``): "your turn",
"match over" with the result, "table full". Both write the ``notifications`` rows
(``store.social``); an account keeps its newest ``Limits.notifications_kept``.

Where the site sends mail (``mail.py``) and the account has a verified address that wants
the kind, the same transaction queues a mail: at most ``Limits.mails_per_hour`` an hour,
and one "your turn" per table until the player has played there.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from sqlalchemy.engine import Connection

from coffeetable.server.limits import Limits
from coffeetable.server.social.mail import MailConfig, Mailer, words
from coffeetable.server.tables.news import TableNews
from coffeetable.store import Store
from coffeetable.store import mail as mail_db
from coffeetable.store import social as db

log = logging.getLogger("coffeetable.server")

#: The kinds a new address gets by mail until its owner chooses (``PUT /api/me/notify``).
DEFAULT_MAILED = [db.YOUR_TURN, db.INVITED, db.FRIEND_REQUEST, db.MATCH_OVER]


class Social:
    """The site's notifications, over the ``Store``."""

    def __init__(
        self, store: Store, limits: Limits | None = None, mail: MailConfig | None = None
    ) -> None:
        self.store = store
        self.limits = limits or Limits()
        #: The site's mail (None: it sends none), and the sender (started by the app).
        self.mail = mail
        self.mailer: Mailer | None = None

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
        notice = db.add_notice(conn, user_id, kind, keep=keep, table_id=table_id, data=data)
        if self.mail is not None:
            self._mail(conn, user_id, kind, table_id, data or {})
        return notice

    def _mail(
        self, conn: Connection, user_id: int, kind: str, table_id: str | None, data: dict[str, Any]
    ) -> None:
        """Queue the notice's mail if the account wants it (see the module)."""
        assert self.mail is not None
        wanted = mail_db.settings_of(conn, user_id, DEFAULT_MAILED)
        if not wanted.verified or wanted.email is None or kind not in wanted.notify:
            return
        now = time.time()
        if mail_db.sent_since(conn, user_id, now - 3600) >= self.limits.mails_per_hour:
            log.info(
                "mail: account %d had its mails this hour; %s stays on the site", user_id, kind
            )
            return
        turn = kind == db.YOUR_TURN and table_id is not None
        if turn and not mail_db.turn_mailed(conn, user_id, table_id or "", now):
            return  # mailed already; not again until they play there
        site = self.mail.site_url
        link = f"{site}/#/table/{table_id}" if table_id else f"{site}/"
        subject = words(kind, data)
        body = f"{subject}.\n\n{link}\n"
        # The sender adds the one-click unsubscribe link (the queue holds no token).
        mail_db.enqueue(conn, user_id, wanted.email, kind, subject, body, now)
        if self.mailer is not None:
            self.mailer.wake()

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
            mail_db.played(conn, news.played, news.table_id)
        for user in news.full:
            self.add(conn, user, db.TABLE_FULL, news.table_id, title)
        for user in news.turn:
            self.add(conn, user, db.YOUR_TURN, news.table_id, title)
        for user, result in news.results:
            db.turn_done(conn, user, news.table_id)
            self.add(conn, user, db.MATCH_OVER, news.table_id, {**title, **result})
