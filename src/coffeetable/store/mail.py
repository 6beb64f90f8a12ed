"""Mail: addresses and their settings, the outgoing queue. Schema and blocking queries.

- ``mail_settings``: an account's address (verified or not), the SHA-256 of its
  verification token and when it expires, the SHA-256 of its one-click unsubscribe token,
  and which notification kinds it wants mailed (JSON list).
- ``mail_queue``: one row per mail to send. ``state``: ``queued`` (due at ``next_at``),
  ``sending`` (claimed by a sender until ``lease_until``), ``sent`` or ``failed``. A sender
  claims a row by moving it from queued (or from a sending row whose lease ran out) to
  sending in one UPDATE that names its old state: two senders never claim the same row.
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
    sa.Column("unsubscribe", sa.Text, nullable=True),  # the one-click link (None: none)
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
    unsubscribe: str | None
    attempts: int


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


def set_address(
    conn: Connection,
    player_id: int,
    email: str,
    verify_hash: str,
    expires: float,
    default: list[str],
) -> None:
    """A new address, unverified until its token comes back."""
    _upsert(
        conn,
        player_id,
        default,
        email=email,
        verified=False,
        verify_hash=verify_hash,
        verify_expires=expires,
    )


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
    unsubscribe: str | None,
    now: float | None = None,
) -> int:
    now = time.time() if now is None else now
    result = conn.execute(
        mail_queue.insert().values(
            player_id=player_id,
            address=address,
            kind=kind,
            subject=subject,
            body=body,
            unsubscribe=unsubscribe,
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
    """Mails to claim: queued and due, or claimed by a sender whose lease ran out."""
    query = (
        sa.select(mail_queue.c.id)
        .where(
            sa.or_(
                sa.and_(mail_queue.c.state == QUEUED, mail_queue.c.next_at <= now),
                sa.and_(mail_queue.c.state == SENDING, mail_queue.c.lease_until < now),
            )
        )
        .order_by(mail_queue.c.id)
        .limit(limit)
    )
    return [int(row.id) for row in conn.execute(query)]


def claim(conn: Connection, mail_id: int, now: float, lease: float) -> Outgoing | None:
    """Take the mail for sending until ``now + lease``, if nobody else has it: one UPDATE
    that names the state it leaves, so two senders never both win."""
    claimable = sa.or_(
        sa.and_(mail_queue.c.state == QUEUED, mail_queue.c.next_at <= now),
        sa.and_(mail_queue.c.state == SENDING, mail_queue.c.lease_until < now),
    )
    result = conn.execute(
        mail_queue.update()
        .where(mail_queue.c.id == mail_id, claimable)
        .values(state=SENDING, lease_until=now + lease)
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
        row.unsubscribe,
        row.attempts,
    )


def mark_sent(conn: Connection, mail_id: int, unsubscribe_hash: str | None, now: float) -> None:
    """Sent: the body (its links) is emptied; only the unsubscribe token's hash stays."""
    conn.execute(
        mail_queue.update()
        .where(mail_queue.c.id == mail_id, mail_queue.c.state == SENDING)
        .values(state=SENT, sent_at=now, body="", unsubscribe=unsubscribe_hash, lease_until=None)
    )


def mark_failed(
    conn: Connection, mail_id: int, error: str, retry_at: float | None, attempts: int
) -> None:
    """A failed attempt: again at ``retry_at``, or failed for good (None)."""
    values: dict[str, Any] = {"attempts": attempts, "error": error[:200], "lease_until": None}
    if retry_at is None:
        values.update(state=FAILED, body="", unsubscribe=None)
    else:
        values.update(state=QUEUED, next_at=retry_at)
    conn.execute(
        mail_queue.update()
        .where(mail_queue.c.id == mail_id, mail_queue.c.state == SENDING)
        .values(**values)
    )


def unsubscribe(conn: Connection, unsubscribe_hash: str) -> int | None:
    """Mail nothing more to the account a sent mail's unsubscribe token names; the account."""
    row = conn.execute(
        sa.select(mail_queue.c.player_id).where(
            mail_queue.c.unsubscribe == unsubscribe_hash, mail_queue.c.state == SENT
        )
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
    """Forget mails sent or failed before ``before``."""
    result = conn.execute(
        mail_queue.delete().where(
            mail_queue.c.state.in_((SENT, FAILED)), mail_queue.c.created < before
        )
    )
    return int(result.rowcount or 0)
