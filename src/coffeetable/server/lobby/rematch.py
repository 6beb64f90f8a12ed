"""Play again: the same seats and options at a new table, once every person accepts.

At a finished table, each person asks for a rematch (``POST
/api/tables/{id}/rematch`` with their seat token, or signed in). Bots accept
at once, and so does the bot that took over a seat whose person left, and so
do bot accounts (programs: they find the new table among their seats). The
table's clients hear how it stands (``{"type": "rematch", "accepted": [...],
"waiting": [...], "table_id": null}``). When the last person accepts, a new
table is dealt from a new seed: the same game, players, options and table
settings, each person in the seat they had (with their account, if any) and
each bot in its own. Every person then gets the new table, their seat and
a new token by asking again (the same request); the table's clients are told
the new table's id (never a token) so their pages can ask at once.

Offers live in memory: a restart forgets them (the finished tables stay).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from coffeetable.server.errors import TableError
from coffeetable.server.lobby.lobby import Lobby
from coffeetable.server.lobby.table_settings import TABLE_SETTINGS
from coffeetable.server.tables import seating, wire
from coffeetable.server.tables.stand_ins import level_for

if TYPE_CHECKING:
    from coffeetable.server.tables.table import Table


@dataclass
class RematchOffer:
    """The rematch of one finished table."""

    #: Seats of people who accepted.
    accepted: set[int] = field(default_factory=set)
    #: Once dealt: the new table, and each person's new token until they take it.
    table_id: str | None = None
    tokens: dict[int, str | None] = field(default_factory=dict)
    #: Held while the new table is dealt (two last acceptances at once deal one table).
    dealing: asyncio.Lock = field(default_factory=asyncio.Lock)


class Rematches:
    """The rematch offers of the finished tables this process knows."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.offers: dict[str, RematchOffer] = {}

    async def accept(self, table_id: str, token: str, user_id: int | None) -> dict[str, Any]:
        """The token's (or account's) person wants a rematch; say how it stands, and
        once dealt, give them their seat and token at the new table."""
        table = await self.lobby.get(table_id)
        if table.status != "over":
            raise TableError(409, "a rematch is for a finished match")
        seat = self.lobby.seat_of(table, token, user_id)
        offer = self.offers.setdefault(table.id, RematchOffer())
        offer.accepted.add(seat)
        waiting = [
            index
            for index in _people(table)
            if index not in offer.accepted and table.seats[index].program is None
        ]  # programs (bot accounts) accept at once, as bots do: they find the new seat
        async with offer.dealing:
            if offer.table_id is None and not waiting:
                offer.table_id, offer.tokens = await self._deal(table)
        status = {
            "accepted": sorted(offer.accepted),
            "waiting": waiting,
            "table_id": offer.table_id,
        }
        table.audience.broadcast(wire.rematch(status))
        if offer.table_id is None:
            return {"status": "waiting", **status}
        new_token = offer.tokens.pop(seat, None)
        return {"status": "dealt", **status, "seat": seat, "token": new_token}

    async def _deal(self, table: Table) -> tuple[str, dict[int, str | None]]:
        """The new table: every seat as it was; return its id and the people's tokens."""
        people = _people(table)
        bots = {
            str(seat.index): seat.bot or level_for(table.game)
            for seat in table.seats
            if seat.index not in people
        }
        settings = {name: table.settings[name] for name in TABLE_SETTINGS if name in table.settings}
        first, *others = [table.seats[index] for index in people]
        new, seat, token = await self.lobby.create(
            table.game.name,
            table.players,
            {**table.options, **settings},
            bots,
            first.name or "",
            user_id=first.user_id,
            rated=seating.is_rated(table),
        )
        assert seat == first.index  # (a program gets no token: it plays by its key)
        tokens: dict[int, str | None] = {seat: token}
        for person in others:  # seats are taken in order: each finds their own again
            index, their_token = await self.lobby.join(new.id, person.name or "", person.user_id)
            tokens[index] = their_token
        return new.id, tokens


def _people(table: Table) -> list[int]:
    """The seats whose person is still there (not left, not handed to a bot)."""
    return [seat.index for seat in table.seats if seat.is_person]
