"""Mail: addresses and their settings, the outgoing queue. Schema and blocking queries.

- ``mail_settings``: an account's address (verified or not), the SHA-256 of its
  verification token and when it expires, the SHA-256 of its one-click unsubscribe token,
  and which notification kinds it wants mailed (JSON list).
- ``mail_queue``: one row per mail to send, holding no secret: the links' tokens are drawn
  by the sender as it sends (``unsubscribe`` then holds the SHA-256 of the mail's one-click
  token; a verification's token is hashed into ``mail_settings``). ``state``: ``queued``
  (due at ``next_at``), ``sending`` (in flight: claimed, the attempt counted, by a sender
  until ``lease_until``), ``sent``, ``failed`` (given up) or ``uncertain`` (the sender
  stopped, or lost the server's answer, after handing the mail over: it may have gone, so
  it is never sent again). A sender claims a row by moving it from queued to sending in one
  UPDATE that names its old state, committed before the mail goes to the server: two
  senders never claim one row, and a row is handed to a mail server at most once.
- ``turn_mails``: (account, table) pairs that were mailed "your turn" and have not played
  since: at most one such mail per table until the player plays.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from coffeetable.store.db import metadata

mail_settings = sa.Table(
    "mail_settings",
    metadata,
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("email", sa.String(254), nullable=True),
    sa.Column("verified", sa.Boolean, nullable=False, default=False),
    sa.Column("verify_hash", sa.String(64), nullable=True),
    sa.Column("verify_expires", sa.Float, nullable=True),
    sa.Column("unsubscribe_hash", sa.String(64), nullable=True),
    sa.Column("notify", sa.Text, nullable=False),  # JSON: the kinds mailed
    sa.Column("updated", sa.Float, nullable=False),
    sa.UniqueConstraint("verify_hash", name="uq_mail_settings_verify_hash"),
    sa.UniqueConstraint("unsubscribe_hash", name="uq_mail_settings_unsubscribe_hash"),
)

mail_queue = sa.Table(
    "mail_queue",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
    sa.Column("address", sa.String(254), nullable=False),
    sa.Column("kind", sa.String(24), nullable=False),
    sa.Column("subject", sa.String(200), nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("unsubscribe", sa.Text, nullable=True),  # SHA-256 of the one-click token
    sa.Column("state", sa.String(12), nullable=False, index=True),
    sa.Column("attempts", sa.Integer, nullable=False, default=0),
    sa.Column("next_at", sa.Float, nullable=False),
    sa.Column("lease_until", sa.Float, nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("sent_at", sa.Float, nullable=True),
    sa.Column("error", sa.String(200), nullable=True),
)

turn_mails = sa.Table(
    "turn_mails",
    metadata,
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("created", sa.Float, nullable=False),
)

QUEUED, SENDING, SENT, FAILED = "queued", "sending", "sent", "failed"
UNCERTAIN = "uncertain"
#: States a mail is never sent from again.
_DONE = (SENT, FAILED, UNCERTAIN)


@dataclass(frozen=True)
class MailSettings:
    """An account's address and what it wants mailed."""

    email: str | None
    verified: bool
    notify: list[str]


@dataclass(frozen=True)
class Outgoing:
    """A claimed mail, ready to send."""

    id: int
    player_id: int
    address: str
    kind: str
    subject: str
    body: str
    attempts: int  # this one included
    created: float


def settings_of(conn: Connection, player_id: int, default: list[str]) -> MailSettings:
    row = conn.execute(mail_settings.select().where(mail_settings.c.player_id == player_id)).first()
    if row is None:
        return MailSettings(None, False, list(default))
    return MailSettings(row.email, bool(row.verified), json.loads(row.notify))


def _upsert(conn: Connection, player_id: int, default: list[str], **values: Any) -> None:
    values["updated"] = time.time()
    where = mail_settings.c.player_id == player_id
    if conn.execute(mail_settings.update().where(where).values(**values)).rowcount == 0:
        values.setdefault("notify", json.dumps(default))
        values.setdefault("verified", False)
        conn.execute(mail_settings.insert().values(player_id=player_id, **values))


def set_address(conn: Connection, player_id: int, email: str, default: list[str]) -> None:
    """A new address, unverified until the token of the mail that ``start_verification``
    sends comes back (an older token stops working)."""
    _upsert(
        conn, player_id, default, email=email, verified=False, verify_hash=None, verify_expires=None
    )


def start_verification(
    conn: Connection, player_id: int, email: str, verify_hash: str, expires: float
) -> bool:
    """The verification mail to ``email`` is being sent with the token of this hash (it
    replaces any earlier one); False if the account's address is another now, or verified."""
    result = conn.execute(
        mail_settings.update()
        .where(
            mail_settings.c.player_id == player_id,
            mail_settings.c.email == email,
            mail_settings.c.verified.is_(False),
        )
        .values(verify_hash=verify_hash, verify_expires=expires)
    )
    return result.rowcount == 1


def verify(conn: Connection, verify_hash: str, now: float) -> tuple[int, str] | None:
    """Verify the address whose token has this hash (once, before it expires): the account
    and address, or None."""
    row = conn.execute(
        sa.select(
            mail_settings.c.player_id, mail_settings.c.email, mail_settings.c.verify_expires
        ).where(mail_settings.c.verify_hash == verify_hash)
    ).first()
    if row is None or row.email is None or (row.verify_expires or 0) < now:
        return None
    conn.execute(
        mail_settings.update()
        .where(mail_settings.c.player_id == row.player_id)
        .values(verified=True, verify_hash=None, verify_expires=None, updated=now)
    )
    return int(row.player_id), str(row.email)


def set_notify(conn: Connection, player_id: int, kinds: list[str], default: list[str]) -> None:
    _upsert(conn, player_id, default, notify=json.dumps(kinds))


def enqueue(
    conn: Connection,
    player_id: int,
    address: str,
    kind: str,
    subject: str,
    body: str,
    now: float | None = None,
) -> int:
    """Queue a mail (its body holds no token: the sender adds the links)."""
    now = time.time() if now is None else now
    result = conn.execute(
        mail_queue.insert().values(
            player_id=player_id,
            address=address,
            kind=kind,
            subject=subject,
            body=body,
            state=QUEUED,
            attempts=0,
            next_at=now,
            created=now,
        )
    )
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


def sent_since(conn: Connection, player_id: int, since: float) -> int:
    """Mails queued for the account since ``since`` (its rate)."""
    query = sa.select(sa.func.count()).where(
        mail_queue.c.player_id == player_id, mail_queue.c.created >= since
    )
    return int(conn.execute(query).scalar_one())


def turn_mailed(conn: Connection, player_id: int, table_id: str, now: float) -> bool:
    """Record a "your turn" mail at the table; False if one went since the player last
    played there (then none is sent)."""
    where = sa.and_(turn_mails.c.player_id == player_id, turn_mails.c.table_id == table_id)
    if conn.execute(sa.select(turn_mails.c.created).where(where)).first() is not None:
        return False
    conn.execute(turn_mails.insert().values(player_id=player_id, table_id=table_id, created=now))
    return True


def played(conn: Connection, player_id: int, table_id: str) -> None:
    """The player played at the table: the next "your turn" there may be mailed."""
    conn.execute(
        turn_mails.delete().where(
            turn_mails.c.player_id == player_id, turn_mails.c.table_id == table_id
        )
    )


def due(conn: Connection, now: float, limit: int) -> list[int]:
    """Mails to claim: queued and due (never one that was in flight: see ``abandon``)."""
    query = (
        sa.select(mail_queue.c.id)
        .where(mail_queue.c.state == QUEUED, mail_queue.c.next_at <= now)
        .order_by(mail_queue.c.id)
        .limit(limit)
    )
    return [int(row.id) for row in conn.execute(query)]


def claim(conn: Connection, mail_id: int, now: float, lease: float) -> Outgoing | None:
    """Take the mail for sending until ``now + lease`` and count the attempt, if nobody else
    has it: one UPDATE that names the state it leaves, so two senders never both win. The
    caller commits this before handing the mail to a server."""
    result = conn.execute(
        mail_queue.update()
        .where(
            mail_queue.c.id == mail_id, mail_queue.c.state == QUEUED, mail_queue.c.next_at <= now
        )
        .values(
            state=SENDING,
            lease_until=now + lease,
            attempts=mail_queue.c.attempts + 1,
            unsubscribe=None,
        )
    )
    if result.rowcount != 1:
        return None
    row = conn.execute(mail_queue.select().where(mail_queue.c.id == mail_id)).one()
    return Outgoing(
        row.id,
        row.player_id,
        row.address,
        row.kind,
        row.subject,
        row.body,
        row.attempts,
        row.created,
    )


def set_unsubscribe(conn: Connection, mail_id: int, unsubscribe_hash: str) -> None:
    """The SHA-256 of the one-click token the mail in flight carries."""
    conn.execute(
        mail_queue.update().where(mail_queue.c.id == mail_id).values(unsubscribe=unsubscribe_hash)
    )


def abandon(conn: Connection, now: float) -> list[int]:
    """Mails whose sender stopped while they were in flight (the lease ran out): it may
    have handed them over, so they are marked uncertain, never sent again; their ids."""
    stale = sa.and_(mail_queue.c.state == SENDING, mail_queue.c.lease_until < now)
    ids = [int(row.id) for row in conn.execute(sa.select(mail_queue.c.id).where(stale))]
    error = "the sender stopped while sending: it may have gone, so not sent again"
    return [
        mail_id
        for mail_id in ids
        if conn.execute(
            mail_queue.update()
            .where(mail_queue.c.id == mail_id, stale)
            .values(state=UNCERTAIN, lease_until=None, error=error)
        ).rowcount
        == 1
    ]


# A sender that outlived its lease still tells what happened: from ``uncertain`` too.
_MINE = (SENDING, UNCERTAIN)


def mark_sent(conn: Connection, mail_id: int, now: float) -> None:
    """Sent: the body is emptied (only the one-click token's hash stays)."""
    conn.execute(
        mail_queue.update()
        .where(mail_queue.c.id == mail_id, mail_queue.c.state.in_(_MINE))
        .values(state=SENT, sent_at=now, body="", lease_until=None)
    )


def mark_uncertain(conn: Connection, mail_id: int, error: str) -> None:
    """The server's answer to the mail was lost: it may have gone; never sent again."""
    conn.execute(
        mail_queue.update()
        .where(mail_queue.c.id == mail_id, mail_queue.c.state.in_(_MINE))
        .values(state=UNCERTAIN, error=error[:200], lease_until=None)
    )


def mark_failed(conn: Connection, mail_id: int, error: str, retry_at: float | None) -> None:
    """The server refused the mail, or could not be reached: again at ``retry_at``, or
    failed for good (None). The attempt's link went nowhere: its hash is dropped."""
    values: dict[str, Any] = {"error": error[:200], "lease_until": None, "unsubscribe": None}
    if retry_at is None:
        values.update(state=FAILED, body="")
    else:
        values.update(state=QUEUED, next_at=retry_at)
    conn.execute(
        mail_queue.update()
        .where(mail_queue.c.id == mail_id, mail_queue.c.state.in_(_MINE))
        .values(**values)
    )


def unsubscribe(conn: Connection, unsubscribe_hash: str) -> int | None:
    """Mail nothing more to the account a mail's unsubscribe token names (a hash is kept
    only for a mail handed to a server); the account."""
    row = conn.execute(
        sa.select(mail_queue.c.player_id).where(mail_queue.c.unsubscribe == unsubscribe_hash)
    ).first()
    if row is None:
        return None
    conn.execute(
        mail_settings.update()
        .where(mail_settings.c.player_id == row.player_id)
        .values(notify="[]", updated=time.time())
    )
    return int(row.player_id)


def purge_sent(conn: Connection, before: float) -> int:
    """Forget mails sent, failed or uncertain before ``before``."""
    result = conn.execute(
        mail_queue.delete().where(mail_queue.c.state.in_(_DONE), mail_queue.c.created < before)
    )
    return int(result.rowcount or 0)
