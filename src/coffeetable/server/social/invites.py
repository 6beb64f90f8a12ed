"""Invitations by name: a new table's seats held for accounts, and declining one.

``POST /api/tables`` takes ``"invite": {"1": "bob"}`` (seat -> username): each seat is held
for that account (``tables/seating.py``: only it joins the seat, by ``POST
/api/tables/{id}/join`` while signed in), and the account is notified ("invited"). The
invited player may decline (``POST /api/tables/{id}/decline``): the seat opens to anyone
(the table's owner may also seat a bot there).

Who may be invited (``check``): a person's account (not a bot account, nor the creator),
that has not blocked the creator; only by a signed-in person; each seat once, in range,
not a bot's, and one seat stays the creator's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from coffeetable.server.errors import TableError
from coffeetable.server.players.usernames import name_key, normalize
from coffeetable.server.social.notices import Social
from coffeetable.server.tables import seating
from coffeetable.store import bot_accounts as bots_db
from coffeetable.store import players as players_db
from coffeetable.store import social as db


async def check(
    social: Social,
    invite: Mapping[str, str],
    *,
    creator: int | None,
    players: int,
    bot_seats: Mapping[str, str],
) -> dict[int, tuple[int, str]]:
    """The invited seats: index -> (account, username); ``TableError`` says what is wrong."""
    if not invite:
        return {}
    if creator is None:
        raise TableError(401, "sign in to invite players by name")
    seats: dict[int, str] = {}
    for key, username in invite.items():
        index = int(key) if key.isdigit() else -1
        if not 0 <= index < players:
            raise TableError(400, f"invite: there is no seat {key!r}")
        if key in bot_seats:
            raise TableError(400, f"invite: seat {index} is a bot's")
        seats[index] = username
    if len(seats) + len(bot_seats) >= players:
        raise TableError(400, "invite: keep a seat for yourself")

    def read(conn: Any) -> dict[int, tuple[int, str]] | TableError:
        found: dict[int, tuple[int, str]] = {}
        for index, username in seats.items():
            row = players_db.player_by_key(conn, name_key(normalize(username)))
            if row is None or row.bot or bots_db.bot_by_id(conn, row.id) is not None:
                return TableError(404, f"invite: no player {username[:40]!r}")
            if row.id == creator:
                return TableError(400, "invite: you sit at your own table already")
            if db.is_blocked_by(conn, creator, row.id):
                return TableError(403, f"invite: {row.name} does not take invitations from you")
            if any(account == row.id for account, _ in found.values()):
                return TableError(400, f"invite: {row.name} is invited twice")
            found[index] = (row.id, row.name)
        return found

    answer = await social.store.read(read)
    if isinstance(answer, TableError):
        raise answer
    return answer


async def notify(
    social: Social, invited: Mapping[int, tuple[int, str]], table: Any, by: str
) -> None:
    """Tell each invited account (one transaction)."""
    if not invited:
        return

    def write(conn: Any) -> None:
        for index, (account, _) in invited.items():
            data = {"by": by, "title": table.game.title, "seat": index}
            social.add(conn, account, db.INVITED, table.id, data)

    await social.store.write(write)


async def decline(lobby: Any, table_id: str, username: str) -> int:
    """The invited account ``username`` declines: its held seat opens; return the seat."""
    table = await lobby.get(table_id)
    seat = next((s for s in table.seats if s.is_open and s.invited == username), None)
    if seat is None:
        raise TableError(404, "you have no invitation at this table")
    seating.unhold(seat, table.settings)
    await table.save_settings()
    table.audience.broadcast_table()
    return int(seat.index)
