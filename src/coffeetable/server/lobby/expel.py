"""Expelling a player whose time ran out at a table with days per move.

At a days table (``tables/turn_days.py``) a person whose move is overdue keeps
their seat, and may still move, until one of the other people seated there
expels them (``POST /api/tables/{id}/expel {"seat": n}``, by their token or
signed in). Then the seat passes to a bot for the rest of the match, as if they
had left: their token stops working and they rank as a leaver (their
reliability counts it). Waiting is the other choice: doing nothing.

Refused: at a live table (409), for a seat whose time has not run out (409),
one's own seat (400: leave instead), a seat with no person (409).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from coffeetable.server.errors import TableError
from coffeetable.server.tables.bot_tasks import start_bots, stop_bot
from coffeetable.server.tables.stand_ins import level_for

if TYPE_CHECKING:
    from coffeetable.server.lobby.lobby import Lobby


async def expel(
    lobby: Lobby, table_id: str, index: int, token: str, user_id: int | None = None
) -> None:
    """A seated person (by token or account) expels seat ``index``'s person, out of time."""
    table = await lobby.get(table_id)
    mine = lobby.seat_of(table, token, user_id)
    if table.days.clock is None:
        raise TableError(409, "only a table with days per move expels: this is a live table")
    if table.status != "running":
        raise TableError(409, f"the table is {table.status}")
    if not 0 <= index < table.players:
        raise TableError(404, f"there is no seat {index}")
    if index == mine:
        raise TableError(400, "you cannot expel yourself: leave the table instead")
    seat = table.seats[index]
    if not seat.is_person:
        raise TableError(409, f"seat {index} has no player to expel")
    if not table.days.expired(index):
        raise TableError(409, f"seat {index}'s time has not run out: wait for their move")
    stop_bot(table, index)
    seat.token_hash = None
    seat.left = True
    seat.bot = level_for(table.game)
    table.left_order.append(index)
    table.audience.unseat(index)
    table.stand_ins.person_left(index)
    record = seat.record()
    await lobby.store.write(lambda conn: lobby.store.db.update_seat(conn, table.id, record))
    table.days.refresh()  # a bot's move is no one's wait: its clock stops
    await table.save_settings()
    if not any(s.is_person for s in table.seats):
        await table.abandon()
        return
    if await table.days.end_if_nobody_waits():
        return
    start_bots(table)
    table.audience.broadcast_table()
    table.audience.broadcast_state([{"type": "days", "seat": index, "expelled": True}])
