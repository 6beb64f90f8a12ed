"""Vacations: days off that stop a player's clocks at days-per-move tables (blocking queries).

A row is one vacation of an account: when it starts and ends (seconds since the
epoch). ``server/players/vacations.py`` bounds them per year; the tables read
them to stop their clocks (``server/tables/turn_days.py``). Writes run inside the
caller's transaction.
"""

from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from coffeetable.store.db import metadata

vacations = sa.Table(
    "vacations",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
    sa.Column("starts", sa.Float, nullable=False),
    sa.Column("ends", sa.Float, nullable=False),
    sa.Index("ix_vacations_player_id_ends", "player_id", "ends"),
)

#: A vacation: (starts, ends), seconds since the epoch.
Span = tuple[float, float]


def of_players(conn: Connection, player_ids: Iterable[int], after: float) -> dict[int, list[Span]]:
    """Each player's vacations that end after ``after``, in order."""
    ids = sorted(set(player_ids))
    found: dict[int, list[Span]] = {player: [] for player in ids}
    if not ids:
        return found
    rows = conn.execute(
        sa.select(vacations.c.player_id, vacations.c.starts, vacations.c.ends)
        .where(vacations.c.player_id.in_(ids), vacations.c.ends > after)
        .order_by(vacations.c.starts)
    )
    for row in rows:
        found[row.player_id].append((float(row.starts), float(row.ends)))
    return found


def add(conn: Connection, player_id: int, starts: float, ends: float) -> None:
    conn.execute(vacations.insert().values(player_id=player_id, starts=starts, ends=ends))


def end_now(conn: Connection, player_id: int, now: float) -> None:
    """Cut the player's running vacation short at ``now``; forget the ones not begun."""
    conn.execute(
        vacations.delete().where(vacations.c.player_id == player_id, vacations.c.starts >= now)
    )
    conn.execute(
        vacations.update()
        .where(vacations.c.player_id == player_id, vacations.c.ends > now)
        .values(ends=now)
    )
