"""Known devices: browsers that signed in to an account before (blocking queries).

A row is the SHA-256 of a browser's device cookie (``server/players/devices.py``)
and an account it signed in to, with when that first and last happened. A sign-in
from a known device passes the limits that anyone may run up against a username
(``PlayersService.login``). Writes run inside the caller's transaction.
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from coffeetable.store.db import metadata

known_devices = sa.Table(
    "known_devices",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("last_used", sa.Float, nullable=False, index=True),
)


def is_known(conn: Connection, token_hash: str, player_id: int, since: float) -> bool:
    """Whether this device signed in to this account after ``since``."""
    row = conn.execute(
        sa.select(known_devices.c.last_used).where(
            known_devices.c.token_hash == token_hash, known_devices.c.player_id == player_id
        )
    ).first()
    return row is not None and row.last_used > since


def remember(
    conn: Connection, token_hash: str, player_id: int, keep: int, now: float | None = None
) -> None:
    """Record (or refresh) that this device signed in to this account; the account keeps
    its ``keep`` most recently used devices."""
    now = time.time() if now is None else now
    where = sa.and_(
        known_devices.c.token_hash == token_hash, known_devices.c.player_id == player_id
    )
    if conn.execute(known_devices.update().where(where).values(last_used=now)).rowcount == 0:
        conn.execute(
            known_devices.insert().values(
                token_hash=token_hash, player_id=player_id, created=now, last_used=now
            )
        )
    stale = (
        sa.select(known_devices.c.token_hash)
        .where(known_devices.c.player_id == player_id)
        .order_by(known_devices.c.last_used.desc())
        .offset(keep)
    )
    old = list(conn.execute(stale).scalars())
    if old:
        conn.execute(
            known_devices.delete().where(
                known_devices.c.player_id == player_id, known_devices.c.token_hash.in_(old)
            )
        )


def forget_older(conn: Connection, before: float) -> int:
    """Delete devices unused since ``before``; return how many."""
    result = conn.execute(known_devices.delete().where(known_devices.c.last_used < before))
    return int(result.rowcount or 0)
