"""Notifications, friends and blocks: schema and blocking queries.

Everything takes a ``Connection``; writes run inside the caller's transaction.

- ``notifications``: one row per notice to an account (``kind``: your_turn, invited,
  friend_request, match_over, table_full, warning), with the table it is about, a small JSON
  ``data`` (who, the game's title, the result) and whether it was read. An account keeps
  its newest ``keep`` (``add_notice``); an unread "your turn" at a table is one row,
  refreshed, never a pile.
- ``friend_requests``: (``player_id`` asked ``other_id``). Two players are friends when
  each asked the other; one row alone is a request, in or out.
- ``blocks``: (``player_id`` blocks ``blocked_id``).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from coffeetable.store.db import metadata
from coffeetable.store.players import players, sessions

YOUR_TURN = "your_turn"
INVITED = "invited"
FRIEND_REQUEST = "friend_request"
MATCH_OVER = "match_over"
TABLE_FULL = "table_full"
#: A moderator's warning (``server/moderation``).
WARNING = "warning"
TABLE_READY = "table_ready"  # a tournament's table is dealt: come and play
KINDS = (YOUR_TURN, INVITED, FRIEND_REQUEST, MATCH_OVER, TABLE_FULL, WARNING, TABLE_READY)

notifications = sa.Table(
    "notifications",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
    sa.Column("kind", sa.String(24), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("table_id", sa.String(32), nullable=True),
    sa.Column("data", sa.Text, nullable=False),  # JSON
    sa.Column("read", sa.Boolean, nullable=False, default=False),
)

friend_requests = sa.Table(
    "friend_requests",
    metadata,
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("other_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True, index=True),
    sa.Column("created", sa.Float, nullable=False),
)

blocks = sa.Table(
    "blocks",
    metadata,
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("blocked_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True, index=True),
    sa.Column("created", sa.Float, nullable=False),
)


@dataclass(frozen=True)
class Notice:
    """One notification as stored and shown."""

    id: int
    kind: str
    at: float
    table_id: str | None
    data: dict[str, Any]
    read: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "at": self.at,
            "table_id": self.table_id,
            "data": self.data,
            "read": self.read,
        }


# -- notifications ---------------------------------------------------------------


def add_notice(
    conn: Connection,
    player_id: int,
    kind: str,
    *,
    keep: int,
    table_id: str | None = None,
    data: dict[str, Any] | None = None,
    now: float | None = None,
) -> int:
    """Notify ``player_id``; return the notice's id. An unread "your turn" at the same
    table is refreshed rather than repeated; the account keeps its newest ``keep``."""
    now = time.time() if now is None else now
    text = json.dumps(data or {}, separators=(",", ":"))
    if kind == YOUR_TURN and table_id is not None:
        found = conn.execute(
            sa.select(notifications.c.id).where(
                notifications.c.player_id == player_id,
                notifications.c.kind == YOUR_TURN,
                notifications.c.table_id == table_id,
                notifications.c.read == sa.false(),
            )
        ).first()
        if found is not None:
            where = notifications.c.id == found.id
            conn.execute(notifications.update().where(where).values(at=now, data=text))
            return int(found.id)
    result = conn.execute(
        notifications.insert().values(
            player_id=player_id, kind=kind, at=now, table_id=table_id, data=text, read=False
        )
    )
    key = result.inserted_primary_key
    assert key is not None
    _prune(conn, player_id, keep)
    return int(key[0])


def _prune(conn: Connection, player_id: int, keep: int) -> None:
    """Delete the account's notices older than its newest ``keep``."""
    cutoff = conn.execute(
        sa.select(notifications.c.id)
        .where(notifications.c.player_id == player_id)
        .order_by(notifications.c.id.desc())
        .offset(keep)
        .limit(1)
    ).first()
    if cutoff is not None:
        conn.execute(
            notifications.delete().where(
                notifications.c.player_id == player_id, notifications.c.id <= cutoff.id
            )
        )


def notices(
    conn: Connection, player_id: int, limit: int, before: int | None = None
) -> list[Notice]:
    """The account's notices, newest first: ``limit`` of them, older than id ``before``."""
    query = sa.select(notifications).where(notifications.c.player_id == player_id)
    if before is not None:
        query = query.where(notifications.c.id < before)
    rows = conn.execute(query.order_by(notifications.c.id.desc()).limit(limit)).all()
    return [
        Notice(row.id, row.kind, row.at, row.table_id, json.loads(row.data), bool(row.read))
        for row in rows
    ]


def unread_count(conn: Connection, player_id: int) -> int:
    """How many of the account's notices are unread."""
    query = sa.select(sa.func.count()).where(
        notifications.c.player_id == player_id, notifications.c.read == sa.false()
    )
    return int(conn.execute(query).scalar_one())


def mark_read(conn: Connection, player_id: int, ids: list[int] | None) -> int:
    """Mark the account's notices ``ids`` read (None: all); return how many changed."""
    where = [notifications.c.player_id == player_id, notifications.c.read == sa.false()]
    if ids is not None:
        where.append(notifications.c.id.in_(ids))
    result = conn.execute(notifications.update().where(*where).values(read=True))
    return int(result.rowcount or 0)


def turn_done(conn: Connection, player_id: int, table_id: str) -> None:
    """The player played at the table: their "your turn" there is read."""
    conn.execute(
        notifications.update()
        .where(
            notifications.c.player_id == player_id,
            notifications.c.kind == YOUR_TURN,
            notifications.c.table_id == table_id,
            notifications.c.read == sa.false(),
        )
        .values(read=True)
    )


# -- friends ---------------------------------------------------------------------


def ask_friend(conn: Connection, player_id: int, other_id: int, now: float | None = None) -> bool:
    """``player_id`` asks ``other_id`` (or accepts their request); False if it already had."""
    if has_asked(conn, player_id, other_id):
        return False
    now = time.time() if now is None else now
    conn.execute(
        friend_requests.insert().values(player_id=player_id, other_id=other_id, created=now)
    )
    return True


def has_asked(conn: Connection, player_id: int, other_id: int) -> bool:
    """Whether ``player_id`` asked ``other_id`` to be friends."""
    row = conn.execute(
        sa.select(friend_requests.c.created).where(
            friend_requests.c.player_id == player_id, friend_requests.c.other_id == other_id
        )
    ).first()
    return row is not None


def unfriend(conn: Connection, player_id: int, other_id: int) -> bool:
    """End a friendship or a request either way; False if there was none."""
    result = conn.execute(
        friend_requests.delete().where(
            sa.or_(
                sa.and_(
                    friend_requests.c.player_id == player_id,
                    friend_requests.c.other_id == other_id,
                ),
                sa.and_(
                    friend_requests.c.player_id == other_id,
                    friend_requests.c.other_id == player_id,
                ),
            )
        )
    )
    return bool(result.rowcount)


@dataclass(frozen=True)
class Relations:
    """An account's friends and requests in and out: (players.id, name, since) each."""

    friends: list[tuple[int, str, float]]
    incoming: list[tuple[int, str, float]]
    outgoing: list[tuple[int, str, float]]


def relations(conn: Connection, player_id: int) -> Relations:
    """The account's friends (both asked) and the requests in and out, by name."""
    asked = {
        row.other_id: row.created
        for row in conn.execute(
            sa.select(friend_requests.c.other_id, friend_requests.c.created).where(
                friend_requests.c.player_id == player_id
            )
        )
    }
    asking = {
        row.player_id: row.created
        for row in conn.execute(
            sa.select(friend_requests.c.player_id, friend_requests.c.created).where(
                friend_requests.c.other_id == player_id
            )
        )
    }
    names = _names(conn, set(asked) | set(asking))
    both = set(asked) & set(asking)

    def listed(ids: set[int], since: dict[int, float]) -> list[tuple[int, str, float]]:
        return sorted(((i, names[i], since[i]) for i in ids if i in names), key=lambda r: r[1])

    merged = {i: max(asked[i], asking[i]) for i in both}
    return Relations(
        friends=listed(both, merged),
        incoming=listed(set(asking) - both, asking),
        outgoing=listed(set(asked) - both, asked),
    )


def friend_count(conn: Connection, player_id: int) -> int:
    """How many players ``player_id`` asked (friends and requests out)."""
    query = sa.select(sa.func.count()).where(friend_requests.c.player_id == player_id)
    return int(conn.execute(query).scalar_one())


def are_friends(conn: Connection, a: int, b: int) -> bool:
    return has_asked(conn, a, b) and has_asked(conn, b, a)


# -- blocks ----------------------------------------------------------------------


def block(conn: Connection, player_id: int, blocked_id: int, now: float | None = None) -> bool:
    """``player_id`` blocks ``blocked_id`` (ending any friendship); False if it already had."""
    unfriend(conn, player_id, blocked_id)
    if is_blocked_by(conn, blocked_id, player_id):
        return False
    now = time.time() if now is None else now
    conn.execute(blocks.insert().values(player_id=player_id, blocked_id=blocked_id, created=now))
    return True


def unblock(conn: Connection, player_id: int, blocked_id: int) -> bool:
    result = conn.execute(
        blocks.delete().where(blocks.c.player_id == player_id, blocks.c.blocked_id == blocked_id)
    )
    return bool(result.rowcount)


def is_blocked_by(conn: Connection, player_id: int, by: int) -> bool:
    """Whether ``by`` blocked ``player_id``."""
    row = conn.execute(
        sa.select(blocks.c.created).where(
            blocks.c.player_id == by, blocks.c.blocked_id == player_id
        )
    ).first()
    return row is not None


def blocked(conn: Connection, player_id: int) -> list[tuple[int, str, float]]:
    """Whom ``player_id`` blocked: (players.id, name, since), by name."""
    rows = conn.execute(
        sa.select(blocks.c.blocked_id, blocks.c.created).where(blocks.c.player_id == player_id)
    ).all()
    names = _names(conn, {row.blocked_id for row in rows})
    found = [(r.blocked_id, names[r.blocked_id], r.created) for r in rows if r.blocked_id in names]
    return sorted(found, key=lambda r: r[1])


def block_count(conn: Connection, player_id: int) -> int:
    query = sa.select(sa.func.count()).where(blocks.c.player_id == player_id)
    return int(conn.execute(query).scalar_one())


def blocks_among(conn: Connection, ids: list[int]) -> set[tuple[int, int]]:
    """The blocks between any two of ``ids``: (who blocked, whom) pairs."""
    if len(ids) < 2:
        return set()
    rows = conn.execute(
        sa.select(blocks.c.player_id, blocks.c.blocked_id).where(
            blocks.c.player_id.in_(ids), blocks.c.blocked_id.in_(ids)
        )
    ).all()
    return {(row.player_id, row.blocked_id) for row in rows}


def _names(conn: Connection, ids: set[int]) -> dict[int, str]:
    if not ids:
        return {}
    rows = conn.execute(sa.select(players.c.id, players.c.name).where(players.c.id.in_(ids)))
    return {row.id: row.name for row in rows}


def avoided(conn: Connection, player_id: int) -> set[int]:
    """The accounts ``player_id`` blocked or is blocked by (never seated together)."""
    rows = conn.execute(
        sa.select(blocks.c.player_id, blocks.c.blocked_id).where(
            sa.or_(blocks.c.player_id == player_id, blocks.c.blocked_id == player_id)
        )
    ).all()
    return {row.blocked_id if row.player_id == player_id else row.player_id for row in rows}


def blockers_of(conn: Connection, sender: int, readers: set[int]) -> set[int]:
    """Which of ``readers`` blocked ``sender``."""
    if not readers:
        return set()
    rows = conn.execute(
        sa.select(blocks.c.player_id).where(
            blocks.c.blocked_id == sender, blocks.c.player_id.in_(readers)
        )
    )
    return {int(row.player_id) for row in rows}


def last_seen(conn: Connection, ids: list[int]) -> dict[int, float]:
    """When each account's sessions were last used (accounts with none are left out)."""
    if not ids:
        return {}
    rows = conn.execute(
        sa.select(sessions.c.player_id, sa.func.max(sessions.c.last_seen).label("seen"))
        .where(sessions.c.player_id.in_(ids))
        .group_by(sessions.c.player_id)
    )
    return {int(row.player_id): float(row.seen) for row in rows}
