"""Reliability: how many of a player's last started matches they finished (blocking reads).

Board Game Arena's karma, simpler: of a player's last ``LAST`` recorded matches
(over or abandoned), those where they did not leave (a player expelled at a table
with days per move left too, ``server/lobby/expel.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from coffeetable.store.db import seats
from coffeetable.store.matches import participants

#: The matches counted, the newest first.
LAST = 50


def of_players(
    conn: Connection, player_ids: Iterable[int], last: int = LAST
) -> dict[int, tuple[int, int]]:
    """Per player: (matches finished without leaving, matches counted), of their last
    ``last`` (players without any are left out)."""
    found: dict[int, tuple[int, int]] = {}
    for player in sorted(set(player_ids)):
        rows = conn.execute(
            sa.select(participants.c.left)
            .where(participants.c.player_id == player)
            .order_by(participants.c.match_id.desc())
            .limit(last)
        ).all()
        if rows:
            found[player] = (sum(1 for row in rows if not row.left), len(rows))
    return found


def percent(finished: int, started: int) -> int:
    """The share as a whole percent, rounded down (99.9% is not 100%)."""
    return (100 * finished) // started if started else 100


def user_ids_at(conn: Connection, table_ids: Iterable[str]) -> dict[tuple[str, int], int]:
    """(table id, seat) -> the account seated there, for these tables."""
    ids = list(table_ids)
    if not ids:
        return {}
    rows = conn.execute(
        sa.select(seats.c.table_id, seats.c.seat, seats.c.user_id).where(
            seats.c.table_id.in_(ids), seats.c.user_id.is_not(None)
        )
    ).all()
    return {(row.table_id, row.seat): row.user_id for row in rows}
