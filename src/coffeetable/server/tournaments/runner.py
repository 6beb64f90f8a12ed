"""Running tournaments: starting them, pairing rounds, dealing their tables, finishing.

Every ``Limits.tournament_tick_seconds`` the runner looks at each upcoming and running
tournament. With several processes one process runs a tournament at a time: it holds
the lease ``tournament:<id>`` (``cluster/``, as tables have), and another takes it
over when that process dies; all state is in the database, so the new runner goes on
where the old one stopped.

- An upcoming tournament starts when its time comes (its owner starting it sets that
  time to now) or when full (``when_full``); with fewer than two entrants it is
  cancelled.
- A round's tables are written first (``store.tournaments``), then dealt one by one
  through the lobby's public functions (``Lobby.create`` and ``Lobby.join``, as a
  rematch deals): site bots in their seats, accounts (people, bot accounts) seated by
  account, so a person finds the table with their session and a program with its key.
  The clocks and other settings are the tournament's. A table whose entrant withdrew
  is not dealt: the others share the win.
- A match's result and the standings are written by ``finish_match`` in the
  transaction that ends it (``store.tournaments.record_result``), so a result counts
  once whatever dies; the runner only reads them.
- Swiss: the next round is paired (``coffeetable.tournaments.swiss``) when every table
  of the round is over. Round robin: every round is written at the start, and the
  next one dealt when the round before is over. Arena: until the time is up, free
  entrants are paired at once (``arena.pair_free``); then it ends when its last
  table does.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from functools import partial
from typing import Any, Protocol

from coffeetable import games
from coffeetable.server.errors import Elsewhere, TableError
from coffeetable.server.lobby.lobby import Lobby
from coffeetable.server.periodic import Periodic
from coffeetable.store import tournaments as db
from coffeetable.tournaments.arena import pair_free
from coffeetable.tournaments.results import scores
from coffeetable.tournaments.round_robin import schedule
from coffeetable.tournaments.swiss import pair_round

log = logging.getLogger("coffeetable.server")


class Leasing(Protocol):
    """What the runner uses of the cluster: a named lease (``Cluster.take_named``)."""

    async def take_named(self, name: str) -> None: ...


#: Notify an account inside a write (``Social.add``: connection, account, kind, table
#: id, data); the app sets it (social is a layer above tournaments).
Notify = Callable[[Any, int, str, str | None, dict[str, Any]], object]
#: The kind of the notice an account gets when its tournament table is dealt.
TABLE_READY = "table_ready"


class Runner(Periodic):
    """Plays every live tournament this process holds the lease of."""

    def __init__(self, lobby: Lobby, cluster: Leasing | None = None) -> None:
        self.lobby = lobby
        self.store = lobby.store
        self.cluster = cluster
        self.name = "tournaments"
        self.tick_seconds = lobby.limits.tournament_tick_seconds
        #: The wall clock: start times and an arena's end (tests move it on).
        self.clock: Callable[[], float] = time.time
        self._lock = asyncio.Lock()
        #: "Your table is ready" for each account seated at a dealt table (None: none).
        self.notify: Notify | None = None

    async def tick(self) -> None:
        """Advance every live tournament this process may run."""
        rows = await self.store.read(lambda conn: db.listing(conn, db.LIVE, limit=1000))
        for row in rows:
            if await self.hold(row.id):
                try:
                    await self.advance(row.id)
                except Exception:
                    log.exception("tournament %s: could not advance", row.id)

    async def hold(self, tournament_id: str) -> bool:
        """May this process run the tournament now (it holds, or took, its lease)?"""
        if self.cluster is None:
            return True
        try:
            await self.cluster.take_named(f"tournament:{tournament_id}")
        except (Elsewhere, TableError):
            return False
        return True

    async def advance(self, tournament_id: str) -> None:
        """One step of the tournament: start it, deal tables, pair a round, or finish."""
        async with self._lock:
            row = await self.store.read(lambda conn: db.load(conn, tournament_id))
            if row is None:
                return
            if row.status == db.UPCOMING:
                await self._maybe_start(row)
            elif row.status == db.RUNNING:
                await self._run(row)

    async def _read(self, tournament_id: str) -> tuple[list[db.EntryRow], list[db.PairingRow]]:
        def read(conn: Any) -> tuple[list[db.EntryRow], list[db.PairingRow]]:
            return db.entries_of(conn, tournament_id), db.pairings_of(conn, tournament_id)

        return await self.store.read(read)

    async def _maybe_start(self, row: db.TournamentRow) -> None:
        entries, _ = await self._read(row.id)
        active = [entry.entrant for entry in entries if entry.withdrawn is None]
        now = self.clock()
        due = (row.starts_at is None and len(active) >= row.max_entrants) or (
            row.starts_at is not None and now >= row.starts_at
        )
        if not due:
            return
        if len(active) < 2:
            await self.store.write(
                lambda conn: db.set_status(conn, row.id, db.CANCELLED, finished=now)
            )
            return
        fewest = max(2, games.get(row.game).min_players)
        # A round robin's rounds take a search at three seats or more (a second or so for
        # a large field): worked out in a thread, outside the event loop and the write.
        rounds = (
            await asyncio.to_thread(schedule, active, row.players, fewest)
            if row.format == "round_robin"
            else []
        )

        def write(conn: Any) -> bool:
            # Someone entered or withdrew since the read: start from the new field next time.
            if db.hold(conn, row.id, [db.UPCOMING]) is None:
                return False
            field = [e.entrant for e in db.entries_of(conn, row.id) if e.withdrawn is None]
            if field != active:
                return False
            db.set_status(conn, row.id, db.RUNNING, started=now)
            if row.format == "swiss":
                db.add_round(conn, row.id, 1, pair_round(active, [], row.players, fewest))
            for number, tables in enumerate(rounds, 1):
                db.add_round(conn, row.id, number, tables)
            return True

        if await self.store.write(write):
            await self._run(row)

    async def _run(self, row: db.TournamentRow) -> None:
        entries, pairings = await self._read(row.id)
        if row.format == "arena":
            await self._arena(row, entries, pairings)
            return
        last = max((pairing.round for pairing in pairings), default=0)
        for number in range(1, last + 1):
            played = [pairing for pairing in pairings if pairing.round == number]
            if not all(pairing.ranks is not None for pairing in played):
                await self._deal(row, entries, [p for p in played if p.table_id is None])
                return  # this round is being played
        total = row.rounds if row.format == "swiss" else last
        if row.format == "swiss" and last < (total or 0):
            active = [entry.entrant for entry in entries if entry.withdrawn is None]
            history = [
                [pairing.table() for pairing in pairings if pairing.round == number]
                for number in range(1, last + 1)
            ]
            fewest = max(2, games.get(row.game).min_players)
            tables = pair_round(active, history, row.players, fewest) if len(active) >= 2 else []
            if tables:
                await self.store.write(lambda conn: db.add_round(conn, row.id, last + 1, tables))
                await self._run(row)
                return
        await self._finish(row)

    async def _finish(self, row: db.TournamentRow) -> None:
        def write(conn: Any) -> None:
            db.write_standings(conn, row.id)
            db.set_status(conn, row.id, db.FINISHED, finished=self.clock())

        await self.store.write(write)
        log.info("tournament %s finished", row.id)

    async def _arena(
        self, row: db.TournamentRow, entries: list[db.EntryRow], pairings: list[db.PairingRow]
    ) -> None:
        await self._deal(row, entries, [p for p in pairings if p.table_id is None])
        playing = {e for p in pairings if p.ranks is None for e in p.entrants}
        ends = (row.started or self.clock()) + 60 * (row.minutes or 0)
        if self.clock() >= ends:
            if not playing:
                await self._finish(row)
            return
        active = [entry.entrant for entry in entries if entry.withdrawn is None]
        played = [pairing.table() for pairing in pairings]
        score = scores(active, [played])
        last_table: dict[str, frozenset[str]] = {}
        for pairing in pairings:  # in order: the latest table of each entrant wins
            for entrant in pairing.entrants:
                last_table[entrant] = frozenset(pairing.entrants) - {entrant}
        free = [entrant for entrant in active if entrant not in playing]
        tables = pair_free(free, score, last_table, row.players)
        if tables:
            number = 1 + max((pairing.round for pairing in pairings), default=0)
            await self.store.write(lambda conn: db.add_round(conn, row.id, number, tables))
            await self._run(row)

    async def _deal(
        self, row: db.TournamentRow, entries: list[db.EntryRow], undealt: list[db.PairingRow]
    ) -> None:
        """Create and seat the tables of ``undealt`` pairings (byes are played already)."""
        by_id = {entry.entrant: entry for entry in entries}
        for pairing in undealt:
            if pairing.ranks is not None:
                continue
            seated = [by_id[entrant] for entrant in pairing.entrants]
            gone = [entry.withdrawn is not None for entry in seated]
            if any(gone):  # a forfeit: those still in share the win, the withdrawn rank last
                ranks = [len(seated) if left else 1 for left in gone]
                await self.store.write(
                    partial(
                        db.set_ranks,
                        tournament_id=row.id,
                        number=pairing.round,
                        board=pairing.board,
                        ranks=ranks,
                    )
                )
                continue
            table_id = await self._table(row, seated)
            await self.store.write(partial(self._dealt, row, pairing, seated, table_id))

    def _dealt(
        self,
        row: db.TournamentRow,
        pairing: db.PairingRow,
        seated: list[db.EntryRow],
        table_id: str,
        conn: Any,
    ) -> None:
        """Write the dealt table's id, and tell each account at it (one transaction)."""
        db.set_table(conn, row.id, pairing.round, pairing.board, table_id)
        if self.notify is None:
            return
        data = {
            "title": games.get(row.game).title,
            "tournament": row.name,
            "tournament_id": row.id,
            "round": pairing.round,
        }
        for entry in seated:
            if entry.player_id is not None:
                self.notify(conn, entry.player_id, TABLE_READY, table_id, data)

    async def _table(self, row: db.TournamentRow, seated: list[db.EntryRow]) -> str:
        """Deal one table: site bots in their seats, accounts seated by account."""
        seat_bots = {str(index): entry.bot for index, entry in enumerate(seated) if entry.bot}
        people = [entry for entry in seated if entry.bot is None]
        first = people[0] if people else None
        table, _, _ = await self.lobby.create(
            row.game,
            row.players if len(seated) == row.players else len(seated),
            dict(row.settings),
            seat_bots,
            first.name if first else "",
            user_id=first.player_id if first else None,
            rated=None if row.rated else False,
        )
        for person in people[1:]:  # seats are taken in order: each finds their own
            await self.lobby.join(table.id, person.name, person.player_id)
        return table.id
