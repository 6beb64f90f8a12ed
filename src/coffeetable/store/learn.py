"""Tutorials finished: which games' guided first match an account played to its end
(blocking queries; ``server/learn`` calls them through the store's threads).

One row per account and game, kept from the first time it was finished: finishing
again changes nothing. Guests keep theirs in their browser, not here.
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from coffeetable.store.db import metadata

learned = sa.Table(
    "learned",
    metadata,
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("game", sa.String(32), primary_key=True),
    sa.Column("finished", sa.Float, nullable=False),
)


def record(conn: Connection, player_id: int, game: str, now: float | None = None) -> bool:
    """Note that the account finished ``game``'s tutorial; False when it had already."""
    where = sa.and_(learned.c.player_id == player_id, learned.c.game == game)
    if conn.execute(sa.select(learned.c.game).where(where)).first() is not None:
        return False
    finished = time.time() if now is None else now
    conn.execute(learned.insert().values(player_id=player_id, game=game, finished=finished))
    return True


def games_of(conn: Connection, player_id: int) -> list[str]:
    """The games whose tutorial the account finished, by name."""
    query = sa.select(learned.c.game).where(learned.c.player_id == player_id)
    return sorted(conn.execute(query.order_by(learned.c.game)).scalars())
