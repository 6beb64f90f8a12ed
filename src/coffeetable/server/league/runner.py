"""Playing the programs' league, one match after another, at the operator's pace.

For every game that seats two, the league's players are the bot accounts that opted in
(``bot_accounts.league``, ``PATCH /api/bots/{bot}``) and the site's bot levels as fixed
references (``bot:<level>``). Every ``Limits.tournament_tick_seconds`` the runner, for
each game whose lease ``league:<game>`` it holds (one process at a time), starts a match
when the pace allows: at most ``Limits.league_matches_per_hour`` started in the last
hour and evenly spaced (``3600 / pace`` seconds after the one before), and at most
``PLAYING`` at once. The pair is the one that met least
(``coffeetable.tournaments.league.next_pair``): a program against anyone, never two
references.

The match row is written first, then the table dealt through the lobby (as tournaments
deal) with the site's fastest bot speed, unrated (the league has its own standings),
and a program's seat waits ``Limits.league_grace_seconds`` for it before a stand-in
plays (and the match is its forfeit); its result is written by ``finish_match`` in the
transaction that ends it (``store.league.record_result``), so it counts once whatever
process dies. A deal the lobby refuses takes its row back; a row left without a table
for ``DEAL_SECONDS`` (its process died while dealing) is dropped, so that neither counts
as a meeting nor holds a place among those ``PLAYING``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from coffeetable import bots, games
from coffeetable.engine import Game
from coffeetable.server.errors import Elsewhere, TableError
from coffeetable.server.lobby.lobby import Lobby
from coffeetable.server.periodic import Periodic
from coffeetable.store import bot_accounts as bot_db
from coffeetable.store import league as db
from coffeetable.tournaments.league import Played, next_pair

log = logging.getLogger("coffeetable.server")

#: The most league matches of one game being played at once.
PLAYING = 4
#: A match not over after this long no longer holds back the next ones.
STALE_SECONDS = 3600.0
#: A match row still without a table after this long was never dealt (dropped).
DEAL_SECONDS = 60.0
#: The bounds of ``Limits.league_grace_seconds``: a table's ``grace_seconds``.
GRACE_BOUNDS = (0.0, 3600.0)
REFERENCE = "bot:"


def check_limits(limits: Any) -> None:
    """Refuse (``ValueError``, the server does not start) a pace below 0 or a grace a
    table would refuse: every league deal would fail, tick after tick."""
    if limits.league_matches_per_hour < 0:
        raise ValueError(
            "COFFEETABLE_LEAGUE_MATCHES_PER_HOUR is 0 (off) or more, "
            f"not {limits.league_matches_per_hour:g}"
        )
    low, high = GRACE_BOUNDS
    if not low <= limits.league_grace_seconds <= high:
        raise ValueError(
            f"COFFEETABLE_LEAGUE_GRACE_SECONDS is between {low:g} and {high:g} "
            f"(a table's grace_seconds), not {limits.league_grace_seconds:g}"
        )


class Leasing(Protocol):
    """What the runner uses of the cluster: a named lease (``Cluster.take_named``)."""

    async def take_named(self, name: str) -> None: ...
    async def holds(self, name: str) -> bool: ...


def has_league(game: Game) -> bool:
    """Whether the programs' league is played in ``game``: it seats two."""
    return game.min_players <= 2 <= game.max_players


def league_games() -> list[Game]:
    """The games a league is played in."""
    return [game for game in (games.get(name) for name in games.names()) if has_league(game)]


def references(game: str) -> list[str]:
    """The site's bot levels of ``game``, as league players."""
    return [f"{REFERENCE}{level}" for level in bots.available(game)]


def played(results: list[db.Results]) -> list[Played]:
    """The finished two-seat matches (grouped), with their forfeits, for the pure rules."""
    return [
        Played((r.entrants[0], r.entrants[1]), (r.ranks[0], r.ranks[1]), r.forfeits, r.count)
        for r in results
        if len(r.entrants) == 2 and len(r.ranks) == 2
    ]


class LeagueRunner(Periodic):
    """Starts the league's matches this process holds the lease of."""

    def __init__(self, lobby: Lobby, cluster: Leasing | None = None) -> None:
        check_limits(lobby.limits)
        self.name = "league"
        self.lobby = lobby
        self.store = lobby.store
        self.limits = lobby.limits
        self.tick_seconds = lobby.limits.tournament_tick_seconds
        self.cluster = cluster
        self.clock: Callable[[], float] = time.time

    async def tick(self) -> None:
        """Start the matches the pace allows now, one game after another."""
        if self.limits.league_matches_per_hour <= 0:
            return
        for game in league_games():
            if await self._hold(game.name):
                await self.step(game.name)

    async def _hold(self, game: str) -> bool:
        if self.cluster is None:
            return True
        try:
            await self.cluster.take_named(f"league:{game}")
        except (Elsewhere, TableError):
            return False
        return True

    async def step(self, game: str) -> None:
        """Start one match of ``game`` if the pace and the players allow it."""

        now = self.clock()
        since = now - max(3600.0, STALE_SECONDS)

        def read(conn: Any) -> tuple[list[bot_db.BotRow], list[db.LeagueMatch], float | None]:
            recent = db.recent_matches(conn, game, since)
            return bot_db.league_bots(conn), recent, db.latest(conn, game)

        programs, matches, latest = await self.store.read(read)
        undealt = [m.id for m in matches if m.table_id is None and m.created < now - DEAL_SECONDS]
        if undealt:  # its process died while dealing it
            await self.store.write(lambda conn: db.drop_matches(conn, undealt))
            matches = [m for m in matches if m.id not in undealt]
            latest = await self.store.read(lambda conn: db.latest(conn, game))
        if not programs:
            return
        pace = self.limits.league_matches_per_hour
        recent = [m for m in matches if m.created > now - 3600]
        if len(recent) >= pace or (latest is not None and now - latest < 3600 / pace):
            return
        live = [m for m in matches if m.ranks is None and m.created > now - STALE_SECONDS]
        if len(live) >= PLAYING:
            return
        names = {f"u{bot.id}": bot for bot in programs}
        meetings = await self.store.read(lambda conn: db.meetings(conn, game))
        pair = next_pair([*names, *references(game)], list(names), meetings)
        if pair is None:
            return
        # The lease may have run out while this process was busy (held only in memory):
        # ask again just before starting a match, so that two processes never both do.
        if self.cluster is not None and not await self.cluster.holds(f"league:{game}"):
            return
        match_id = await self.store.write(lambda conn: db.add_match(conn, game, pair, now))
        try:
            table_id = await self._deal(game, pair, names)
        except Exception:  # refused (a quota, a bot gone): the match was never made
            await self.store.write(lambda conn: db.drop_matches(conn, [match_id]))
            raise
        await self.store.write(lambda conn: db.set_table(conn, match_id, table_id))

    async def _deal(self, game: str, pair: tuple[str, str], names: dict[str, bot_db.BotRow]) -> str:
        """Create the table: site bots in their seats, bot accounts seated by account."""
        seat_bots = {
            str(seat): entrant.removeprefix(REFERENCE)
            for seat, entrant in enumerate(pair)
            if entrant.startswith(REFERENCE)
        }
        accounts = [names[entrant] for entrant in pair if not entrant.startswith(REFERENCE)]
        settings: dict[str, Any] = {
            "bot_speed": self.limits.max_bot_speed,
            "grace_seconds": self.limits.league_grace_seconds,
        }
        first = accounts[0]
        table, _, _ = await self.lobby.create(
            game, 2, settings, seat_bots, first.name, user_id=first.id, rated=False
        )
        try:
            for account in accounts[1:]:
                await self.lobby.join(table.id, account.name, account.id)
        except Exception:  # a table half seated would wait for its second program: close it
            await table.abandon()
            raise
        return table.id
