"""The lobby: creating, finding, joining and leaving tables, and seating bots.

Rules (documented in the API too):

- Creating a table deals it from a fresh random seed; the creator takes the first seat that
  is not a bot nor held for a player invited by name (``server/social/invites.py``). A table
  whose seats are all bots starts at once and its creator only watches (seat and token are
  null).
- A table is "open" until every seat is taken (a person or a bot), then "running" until the
  match ends ("over"). A table that every person has left, or that nobody (no person, no
  spectator) has been connected to for ``Limits.abandon_after_seconds``, is "abandoned"
  (``tables/abandon.py``). Only open and running tables are listed, and restored at the next
  start.
- Leaving an open table frees the seat. Leaving a running table keeps the seat's name marked
  ``left``, kills its token for good and hands the seat to a bot (Board Game Arena's rule;
  in a rated match the leaver ranks last); if no person remains, the table is abandoned.
- Accounts (``players/``): a signed-in creator or joiner's seat carries their ``user_id``. A
  table is rated by default when every person at it is signed in; a rated table seats only
  accounts. A match that ends (or is abandoned once begun) is recorded and rated in the same
  transaction that marks it.
- Any seated person may seat a bot (``POST /api/tables/{id}/seats/{seat}/bot``) in an open
  seat, in their own seat (handing it over: their token stops working), or in a seat whose
  person left. In the seat of a person who has been disconnected for the table's
  ``grace_seconds`` it seats a *stand-in*: that person's token keeps working, and connecting
  with it takes the seat back (``tables/stand_ins.py``; a stand-in also takes such a seat by
  itself when it must act).
- Bot accounts (programs, ``players/bot_seats.py``): a seat choice may name one
  (``"alice/bot-v2"``) at creation or for an open seat; it holds the seat by its account and
  plays by its API key, and a bot sits once at a table. Only its owner (or another bot of
  theirs) may seat it, unless the owner lets anyone (``invitable_by``); a rated table never
  seats a player with their own bots (a table with them is unrated by default; asking for it
  rated is 400).
- Table settings (``table_settings.py``) are separate from game options; a setting's default
  may depend on the game (``grace_seconds``: 30 s for real-time games, 60 s for turn-based
  ones).
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from coffeetable import bots, games
from coffeetable.engine import Game
from coffeetable.server.errors import Elsewhere, TableError
from coffeetable.server.limits import Limits
from coffeetable.server.lobby.away import not_away
from coffeetable.server.lobby.quotas import Refusal, TableQuotas
from coffeetable.server.lobby.table_settings import split_options
from coffeetable.server.players import bot_seats
from coffeetable.server.players.seat_tokens import new_token
from coffeetable.server.tables import reaction, seating
from coffeetable.server.tables.bot_tasks import start_bots, stop_bot
from coffeetable.server.tables.client_rates import ClientRates
from coffeetable.server.tables.connections import SocketQuota
from coffeetable.server.tables.face import TableFace
from coffeetable.server.tables.news import NewsWriter
from coffeetable.server.tables.seats import Seat, clean_name
from coffeetable.server.tables.stand_ins import level_for
from coffeetable.server.tables.table import Table
from coffeetable.store import SeatRecord, Store, TableRecord

log = logging.getLogger("coffeetable.server")


def _game(name: str) -> Game:
    try:
        return games.get(name)
    except KeyError:
        known = ", ".join(games.names())
        raise TableError(400, f"no game {name!r}; the games are {known}") from None


def _split_options(game: Game, given: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    try:
        return split_options(game, given)
    except ValueError as error:
        raise TableError(400, str(error)) from None


class SocketCounts(Protocol):
    """Counts shared by every process (``cluster/shared.py``)."""

    async def acquire(self, key: str) -> bool: ...
    async def release(self, key: str) -> None: ...


class RelayLink(Protocol):
    """The cluster's relay, as the lobby tells it that a table left this process."""

    def table_dropped(self, table: TableFace) -> None: ...


class ClusterLink(Protocol):
    """What the lobby uses of this process's ``Cluster`` (``cluster/node.py``, which
    sets ``Lobby.cluster`` to itself): leases on tables, the shared listing, the
    shared socket counts, the relay."""

    @property
    def sockets(self) -> SocketCounts: ...
    @property
    def relay(self) -> RelayLink: ...

    async def take(self, table_id: str) -> None:
        """Run the table here from now on, unless a live process does (``Elsewhere``)."""

    def release_soon(self, table_id: str) -> None:
        """Let go of the table's lease."""

    async def shared_listing(self) -> list[dict[str, Any]]:
        """Every process's live tables."""


class Lobby:
    """Every table this server knows, live ones in memory.

    With several processes (``cluster/``), a process keeps in memory only the
    tables it holds the lease of: ``get`` and ``create`` take the lease first,
    and ``get`` raises ``cluster.Elsewhere`` for a table another process runs.
    """

    def __init__(
        self, store: Store, allow_seed: bool = False, limits: Limits | None = None
    ) -> None:
        self.store = store
        self.allow_seed = allow_seed
        self.limits = limits or Limits()
        self.quotas = TableQuotas(self.limits)
        self.tables: dict[str, Table] = {}
        #: Open WebSockets per client address (``ws.py``).
        self.sockets = SocketQuota(self.limits.sockets_per_client)
        #: Actions and chat per seat and per client address, over all sockets.
        self.rates = ClientRates(self.limits)
        #: The cluster this process is part of (None: a single process).
        self.cluster: ClusterLink | None = None
        #: Where the tables' news go (``tables/news.py``; the app sets it).
        self.news: NewsWriter | None = None

    def _table(self, record: TableRecord, game: Game) -> Table:
        table = Table(record, game, self.store, self.limits)
        table.news.writer = self.news
        return table

    async def restore(self) -> None:
        """Rebuild every open and running table from its log (server start)."""
        records = await self.store.read(self.store.db.load_live)
        restored = 0
        for record in records:
            if self.cluster is not None:
                try:
                    await self.cluster.take(record.id)
                except Elsewhere:
                    continue  # another process runs it
            try:
                table = self._table(record, games.get(record.game))
            except Exception:
                log.exception("table %s could not be restored", record.id)
                continue
            self.tables[table.id] = table
            table.start()
            restored += 1
        log.info("restored %d tables", restored)

    async def close(self) -> None:
        for table in list(self.tables.values()):
            await table.stop()

    def listing(self) -> list[dict[str, Any]]:
        """Open and running tables (finished ones nobody watches are let go)."""
        for table in list(self.tables.values()):
            self.release(table)
        return [table.summary() for table in self.tables.values() if table.live]

    async def list_tables(self) -> list[dict[str, Any]]:
        """Open and running tables, of every process."""
        listed = self.listing()
        if self.cluster is None:
            return listed
        return await self.cluster.shared_listing()

    def release(self, table: TableFace) -> None:
        """Forget a finished table nobody watches (it stays in the database)."""
        if not table.live and not table.connections and self.tables.get(table.id) is table:
            del self.tables[table.id]
            if self.cluster is not None:
                self.cluster.release_soon(table.id)

    async def drop(self, table_id: str, reason: str) -> None:
        """Stop running a table here (its lease was lost, or the process stops): its
        clients are told to reconnect, which finds the table's new process."""
        table = self.tables.pop(table_id, None)
        if table is None:
            return
        await table.stop()
        for conn in list(table.connections):
            conn.close(1012, reason)
        table.connections.clear()
        if self.cluster is not None:
            self.cluster.relay.table_dropped(table)

    async def admit_socket(self, address: str) -> bool:
        """Count one more socket from ``address``; False if it has the most already."""
        if self.cluster is not None:
            return await self.cluster.sockets.acquire(address)
        return self.sockets.acquire(address)

    async def socket_closed(self, address: str) -> None:
        if self.cluster is not None:
            await self.cluster.sockets.release(address)
        else:
            self.sockets.release(address)

    async def get(self, table_id: str) -> Table:
        """A table by id (finished ones are read back from the database)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if self.cluster is not None:
            await self.cluster.take(table_id)  # else: Elsewhere, the caller goes there
        record = await self.store.read(lambda conn: self.store.db.load(conn, table_id))
        if record is None:
            if self.cluster is not None:
                self.cluster.release_soon(table_id)
            raise TableError(404, f"no table {table_id!r}")
        table = self.tables.get(table_id)  # loaded meanwhile by another request
        if table is None:
            try:
                table = self._table(record, games.get(record.game))
            except Exception:
                log.exception("table %s could not be rebuilt", table_id)
                if self.cluster is not None:
                    self.cluster.release_soon(table_id)
                raise TableError(500, f"table {table_id!r} cannot be rebuilt") from None
            self.tables[table_id] = table
            table.start()
        return table

    async def peek(self, table_id: str) -> Table:
        """A table to read, not to run: the one this process runs, else one rebuilt from
        the database and not started (with several processes, a finished table may be in
        another process's memory; its log is the same)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        record = await self.store.read(lambda conn: self.store.db.load(conn, table_id))
        if record is None:
            raise TableError(404, f"no table {table_id!r}")
        return Table(record, games.get(record.game), self.store, self.limits)  # not run

    async def create(
        self,
        game_name: str,
        players: int,
        options: Mapping[str, Any],
        seat_bots: Mapping[str, str],
        name: str,
        seed: int | None = None,
        address: str | None = None,
        user_id: int | None = None,
        rated: bool | None = None,
        more_addresses: Iterable[str | None] = (),
        invited: Mapping[int, str] | None = None,
    ) -> tuple[Table, int | None, str | None]:
        """Deal a new table; return it with the creator's seat and token.

        ``address`` is the creator's client address, for the quotas (``quotas.py``); ``user_id``
        their account (None: a guest). ``rated``: None for the default (rated when every
        person at it is signed in: ``tables.seating``). ``more_addresses``: the table counts
        for these too (the people play now deals to it; the matchmaker checked their quotas).
        ``invited``: seats held for accounts by username (``social/invites.py`` checked them).
        """
        game = _game(game_name)
        try:
            game.check_players(players)
        except ValueError as error:
            raise TableError(400, str(error)) from None
        resolved, settings = _split_options(game, options)
        if seed is not None and not self.allow_seed:
            raise TableError(400, "this server chooses the seed")
        if settings.get("bot_speed", 1) > self.limits.max_bot_speed:
            raise TableError(400, f"bot_speed is at most {self.limits.max_bot_speed:g}")
        refusal = await self.quotas.refusal(
            address,
            bot_seats=len(seat_bots),
            is_live=self._is_live,
            live_tables=sum(1 for table in self.tables.values() if table.live),
            live_bot_seats=self._live_bot_seats(),
        )
        if refusal is not None:
            raise TableError(*refusal)
        levels = bots.available(game.name)
        seats = [Seat(index) for index in range(players)]
        programs = await self._programs(seat_bots.values(), user_id)
        for key, level in seat_bots.items():
            try:
                index = int(key)
            except ValueError:
                raise TableError(400, f"bots: {key!r} is not a seat number") from None
            if not 0 <= index < players:
                raise TableError(400, f"bots: there is no seat {index}")
            if level in programs:  # a bot account, invited by name ("alice/bot-v2")
                bot_seats.mark(seats[index], settings, programs[level])
                continue
            if level not in levels:
                raise TableError(400, f"no bot {level!r} for {game.title}; choose from {levels}")
            seats[index].bot = level
            seats[index].name = f"{level.capitalize()} bot"
        for index, username in (invited or {}).items():
            seating.hold(seats[index], settings, username)
        creator = next((seat for seat in seats if seat.is_open and seat.invited is None), None)
        token = None
        if creator is not None:
            token, creator.token_hash = new_token()
            creator.name = clean_name(name, creator.index)
            creator.user_id = user_id
            creator_bot = await bot_seats.owner_of(self.store, user_id)
            if creator_bot is not None:  # a program made the table with its API key:
                bot_seats.mark_owner(creator, settings, creator_bot.owner)
                token = None  # it plays by a live key of its bot, never by a token
        lifted = settings.get(reaction.SETTING, reaction.DEFAULT) < reaction.DEFAULT
        if lifted and reaction.people_may_sit(seats):
            raise TableError(
                400,
                f"{reaction.SETTING} is at least {reaction.DEFAULT:g} at a table where a person"
                " sits or may sit: below it only at a table of programs alone",
            )
        people = [creator.user_id] if creator else []
        # A program's rating is earned at a person's pace: a lifted race is never rated.
        eligible = not lifted and seating.default_rated(players, people)
        if rated and lifted:
            raise TableError(400, f"a table with {reaction.SETTING} below the default is unrated")
        accounts = [*people, *(bot.id for bot in programs.values())]
        own_bots = await bot_seats.same_person(self.store, accounts)
        if rated and own_bots:
            raise TableError(400, bot_seats.OWN_BOTS)
        if rated and not eligible:
            raise TableError(400, "a rated table needs two seats or more, and you signed in")
        settings[seating.RATED] = eligible and not own_bots if rated is None else rated
        record = TableRecord(
            id=secrets.token_urlsafe(6),
            game=game.name,
            players=players,
            seed=secrets.randbits(52) if seed is None else seed,  # 52 bits: safe in JavaScript
            options=resolved,
            settings=settings,
            name=f"{creator.name}'s table" if creator else f"{game.title} for bots",
            status="open" if any(seat.is_open for seat in seats) else "running",
            seats=[seat.record() for seat in seats],
        )
        try:
            table = self._table(record, game)
        except ValueError as error:  # the game refused the deal
            raise TableError(400, str(error)) from None
        if self.cluster is not None:
            await self.cluster.take(record.id)  # a new id: no other process has it
        await self.store.write(lambda conn: self.store.db.insert_table(conn, record))
        self.tables[table.id] = table
        for counted in dict.fromkeys([address, *more_addresses]):  # once per address
            await self.quotas.record(counted, table.id)
        table.start()
        return table, None if creator is None else creator.index, token

    async def _programs(self, levels: Any, creator: int | None) -> dict[str, Any]:
        """The bot accounts a new table's seat choices name, by name (each once, not the
        creator itself, and each one the creator may seat)."""
        names = [level for level in levels if bot_seats.is_program_name(level)]
        found = {name: await bot_seats.find(self.store, name) for name in names}
        ids = [bot.id for bot in found.values()]
        if len(set(ids)) < len(names) or creator in ids:
            raise TableError(400, "a bot cannot sit twice at one table")
        for bot in found.values():
            refusal = await bot_seats.consent_refusal(self.store, bot, creator)
            if refusal is not None:
                raise TableError(403, refusal)
        return found

    async def invite(self, table: Table, index: int, name: str, inviter: int | None = None) -> None:
        """Seat the bot account called ``name`` in open seat ``index`` (it joins by its
        API key; until it connects, the seat is away like an absent person's).
        ``inviter``: the account asking (only the bot's owner may, unless it lets anyone)."""
        bot = await bot_seats.find(self.store, name)
        consent = await bot_seats.consent_refusal(self.store, bot, inviter)
        if consent is not None:
            raise TableError(403, consent)
        own_bots = seating.is_rated(table) and await bot_seats.meets_own(self.store, table, bot.id)
        seat = table.seats[index]
        if not seat.is_open:
            raise TableError(409, f"seat {index} is taken: invite a bot to an open seat")
        if seating.seat_for_user(table, bot.id) is not None:
            raise TableError(409, "this bot already has a seat at this table")
        refusal = seating.may_sit(table, bot.id)
        if refusal is not None:
            raise TableError(403, refusal)
        if own_bots:
            raise TableError(403, bot_seats.OWN_BOTS)
        bot_seats.mark(seat, table.settings, bot)
        seat.absent_since = time.monotonic()
        table.stand_ins.arm_grace(index)
        await table.save_settings()
        await self._seated(table, seat)

    async def address_refusal(self, address: str, pending: int = 0) -> Refusal | None:
        """Why ``address`` may not have one more table now (its tables a minute and live
        tables, ``pending`` more owed to it), or None."""
        return await self.quotas.address_refusal(address, self._is_live, pending)

    def _is_live(self, table_id: str) -> bool:
        table = self.tables.get(table_id)
        return table is not None and table.live

    def _live_bot_seats(self) -> int:
        live = [table for table in self.tables.values() if table.live]
        return sum(1 for table in live for seat in table.seats if seat.bot_level is not None)

    async def join(
        self, table_id: str, name: str, user_id: int | None = None
    ) -> tuple[int, str | None]:
        """Take the seat held for the joiner, else the first open seat held for nobody; start
        the match if it was the last; the seat and its token (None for a program: it plays
        by a live key of its bot).

        ``user_id``: the joiner's account (a rated table seats only accounts)."""
        table = await self.get(table_id)
        joiner_bot = await bot_seats.owner_of(self.store, user_id)
        own_bots = seating.is_rated(table) and await bot_seats.meets_own(self.store, table, user_id)
        if table.status != "open":
            raise TableError(409, f"the table is {table.status}: nobody can join it")
        seat = seating.seat_to_join(table, name, user_id)  # 409: full, or held for others
        refusal = seating.may_sit(table, user_id)
        if refusal is not None:
            raise TableError(403, refusal)
        if own_bots:
            raise TableError(403, bot_seats.OWN_BOTS)
        seating.unhold(seat, table.settings)  # saved with the settings' next change
        token, seat.token_hash = new_token()
        seat.user_id = user_id
        seat.name = clean_name(name, seat.index)
        seat.left = False
        if joiner_bot is not None:  # a program joins with its API key
            bot_seats.mark_owner(seat, table.settings, joiner_bot.owner)
            await table.save_settings()
        seat.absent_since = time.monotonic()  # away until they connect: their grace starts
        table.stand_ins.arm_grace(seat.index)
        await self._seated(table, seat)
        return seat.index, None if joiner_bot is not None else token

    async def leave(self, table_id: str, token: str, user_id: int | None = None) -> int:
        """The token's (or account's) person leaves the table; return their seat."""
        table = await self.get(table_id)
        index = self.seat_of(table, token, user_id)
        seat = table.seats[index]
        if table.status == "open":
            seat.name = seat.token_hash = seat.user_id = None
            if seat.program is not None:
                bot_seats.mark_owner(seat, table.settings, None)
                await table.save_settings()
        else:  # the match is on: a bot plays the seat, the result stays the leaver's
            seat.token_hash = None
            seat.left = True
            seat.bot = level_for(table.game)
            table.left_order.append(index)
        table.audience.unseat(index)
        record = seat.record()
        await self.store.write(lambda conn: self.store.db.update_seat(conn, table.id, record))
        await self._person_left(table, index)
        if table.live and not any(s.is_person for s in table.seats):
            await table.abandon()
        elif table.status == "running":
            start_bots(table)
        table.audience.broadcast_table()
        return index

    async def seat_bot(
        self, table_id: str, index: int, token: str, level: str, user_id: int | None = None
    ) -> None:
        """A seated person (by token or account) puts a bot in seat ``index`` (see the
        module's rules)."""
        table = await self.get(table_id)
        mine = self.seat_of(table, token, user_id)
        if not 0 <= index < table.players:
            raise TableError(404, f"there is no seat {index}")
        if not table.live:
            raise TableError(409, f"the table is {table.status}")
        if bot_seats.is_program_name(level):
            inviter = user_id if user_id is not None else table.seats[mine].user_id
            await self.invite(table, index, level, inviter)
            return
        levels = bots.available(table.game.name)
        if level not in levels:
            raise TableError(400, f"no bot {level!r} for {table.game.title}; choose from {levels}")
        seat = table.seats[index]
        if seat.is_person and index != mine:
            self._check_away(table, index)
            await table.stand_ins.stand_in(index, level)  # the seat stays theirs
            return
        stop_bot(table, index)
        had_person = seat.is_person
        seat.bot, seat.token_hash = level, None
        seat.name = f"{level.capitalize()} bot"
        if had_person:
            table.audience.unseat(index)
            table.left_order.append(index)
            await self._person_left(table, index)
        await self._seated(table, seat)

    # -- helpers -------------------------------------------------------------

    @staticmethod
    def _check_away(table: Table, index: int) -> None:
        """Refuse a stand-in for a person who is connected or within their grace."""
        if not table.stand_ins.grace_over(index):
            raise TableError(409, not_away(table, index))

    @staticmethod
    async def _person_left(table: Table, index: int) -> None:
        """Seat ``index`` has no person any more: no grace, no stand-in for them."""
        had_stand_in = table.seats[index].stand_in is not None
        table.stand_ins.person_left(index)
        if had_stand_in:
            await table.save_settings()

    @staticmethod
    def seat_of(table: Table, token: str, user_id: int | None = None) -> int:
        """The seat of ``token``, else of the signed-in ``user_id``; 403 for neither."""
        index = table.seat_for_token(token) if token else None
        if index is None:
            index = seating.seat_for_user(table, user_id)
        if index is None:
            raise TableError(403, "this token holds no seat at this table")
        return index

    async def _seated(self, table: Table, seat: Seat) -> None:
        """Save a seat that changed; start the match once every seat is taken."""
        record: SeatRecord = seat.record()
        await self.store.write(lambda conn: self.store.db.update_seat(conn, table.id, record))
        if table.status == "open" and not any(s.is_open for s in table.seats):
            await table.begin()
        elif table.status == "running" and seat.bot is not None:
            start_bots(table)
        table.audience.broadcast_table()
