"""The league's runner alone, on a real store and a stand-in lobby: a deal the lobby
refuses takes its match back, a match never dealt (its process died) stops counting,
the pace spaces matches evenly also below one an hour, and limits a table would refuse
stop the server at once."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from coffeetable.server.errors import TableError
from coffeetable.server.league import runner as league_runner
from coffeetable.server.league.runner import LeagueRunner
from coffeetable.server.limits import Limits
from coffeetable.store import Store
from coffeetable.store import bot_accounts as bot_db
from coffeetable.store import league as db
from coffeetable.store import players as accounts

NOW = 1_000_000.0


class FakeLobby:
    """What the runner uses of the lobby: it deals tables, or refuses them."""

    def __init__(self, store: Store, limits: Limits) -> None:
        self.store, self.limits = store, limits
        self.refuse_create: TableError | None = None
        self.refuse_join: TableError | None = None
        self.dealt: list[Any] = []

    async def create(
        self, game: str, players: int, settings: Any, seat_bots: Any, *a: Any, **kw: Any
    ) -> Any:
        if self.refuse_create is not None:
            raise self.refuse_create
        abandoned: list[bool] = []

        async def abandon() -> None:
            abandoned.append(True)

        table = SimpleNamespace(id=f"t{len(self.dealt)}", abandon=abandon, abandoned=abandoned)
        table.seat_bots, table.settings = dict(seat_bots), dict(settings)
        self.dealt.append(table)
        return table, 0, None

    async def join(self, table_id: str, name: str, user_id: int) -> tuple[int, None]:
        if self.refuse_join is not None:
            raise self.refuse_join
        return 1, None


def _program(conn: Any, owner: str, bot: str) -> int:
    person = accounts.create_account(conn, owner, owner, owner, "x")
    name = f"{owner}/{bot}"
    player = bot_db.create_bot(conn, person, name, bot, name, name, "")
    bot_db.set_league(conn, player, True)
    return player


def _run(
    tmp_path: Path, test: Callable[[LeagueRunner, FakeLobby, Store], Awaitable[None]], **limits: Any
) -> None:
    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'league.sqlite3'}")
        try:
            lobby = FakeLobby(store, Limits(**{"league_matches_per_hour": 60, **limits}))
            runner = LeagueRunner(lobby)  # type: ignore[arg-type]
            runner.clock = lambda: NOW
            await test(runner, lobby, store)
        finally:
            await store.close()

    asyncio.run(main())


async def _matches(store: Store) -> list[db.LeagueMatch]:
    return await store.read(lambda conn: db.matches_of(conn, "fika"))


def test_a_refused_deal_takes_its_match_back(tmp_path: Path) -> None:
    async def test(runner: LeagueRunner, lobby: FakeLobby, store: Store) -> None:
        await store.write(lambda conn: _program(conn, "ana", "bot-a"))
        lobby.refuse_create = TableError(429, "too many bot seats")
        for _ in range(5):  # more than PLAYING refusals: the league is not held back
            with pytest.raises(TableError):
                await runner.step("fika")
        assert await _matches(store) == []
        lobby.refuse_create = None
        await runner.step("fika")
        (match,) = await _matches(store)
        assert match.table_id == "t0" and match.ranks is None

    _run(tmp_path, test)


def test_two_programs_whose_table_cannot_be_seated_leave_no_table_waiting(tmp_path: Path) -> None:
    async def test(runner: LeagueRunner, lobby: FakeLobby, store: Store) -> None:
        await store.write(lambda conn: _program(conn, "ana", "bot-a"))
        await store.write(lambda conn: _program(conn, "bea", "bot-b"))
        lobby.refuse_join = TableError(403, "no")
        with pytest.raises(TableError):
            await runner.step("fika")  # the first pair: the two programs
        assert lobby.dealt[0].abandoned == [True] and lobby.dealt[0].seat_bots == {}
        assert await _matches(store) == []

    _run(tmp_path, test)


def test_a_match_never_dealt_stops_counting(tmp_path: Path) -> None:
    async def test(runner: LeagueRunner, lobby: FakeLobby, store: Store) -> None:
        bot = await store.write(lambda conn: _program(conn, "ana", "bot-a"))
        # Its process died between writing the rows and dealing (four: all PLAYING).
        for level in ("beginner", "casual", "strong", "random"):
            pair = (f"u{bot}", f"bot:{level}")
            await store.write(lambda conn, p=pair: db.add_match(conn, "fika", p, NOW - 120))
        await runner.step("fika")
        (match,) = await _matches(store)
        assert match.table_id == "t0" and match.created == NOW
        # A row younger than DEAL_SECONDS may still be being dealt: kept.
        await store.write(lambda conn: db.add_match(conn, "fika", (f"u{bot}", "bot:x"), NOW - 1))
        runner.clock = lambda: NOW + 3600
        await runner.step("fika")
        assert len(await _matches(store)) == 2  # the young row is old now: dropped, one dealt

    _run(tmp_path, test)


@pytest.mark.parametrize("pace", [0.5, 2.0])
def test_the_pace_spaces_matches_evenly(tmp_path: Path, pace: float) -> None:
    async def test(runner: LeagueRunner, lobby: FakeLobby, store: Store) -> None:
        await store.write(lambda conn: _program(conn, "ana", "bot-a"))
        gap = 3600 / pace
        started = []
        for minute in range(0, 4 * 60 + 1):  # four hours, a tick a minute
            runner.clock = lambda m=minute: NOW + 60 * m
            await runner.step("fika")
            count = len(await _matches(store))
            if count > len(started):
                started.append(60 * minute)
        assert started == [gap * index for index in range(len(started))]
        assert len(started) == int(4 * pace) + 1

    _run(tmp_path, test, league_matches_per_hour=pace)


def test_limits_the_league_cannot_run_with_stop_the_server(tmp_path: Path) -> None:
    for limits in (
        Limits(league_matches_per_hour=-1),
        Limits(league_grace_seconds=-1),
        Limits(league_grace_seconds=3601),
    ):
        with pytest.raises(ValueError, match="COFFEETABLE_LEAGUE_"):
            league_runner.check_limits(limits)
    league_runner.check_limits(dataclasses.replace(Limits(), league_grace_seconds=3600))


class FakeCluster:
    """A lease this process remembers holding, which Redis may have given to another."""

    def __init__(self) -> None:
        self.held: set[str] = set()
        self.owner_is_me = True

    async def take_named(self, name: str) -> None:
        self.held.add(name)

    async def holds(self, name: str) -> bool:
        return name in self.held and self.owner_is_me


def test_a_lease_run_out_meanwhile_starts_no_match(tmp_path: Path) -> None:
    """The process was too busy to renew the lease, and another took it: the runner,
    which still remembers holding it, asks before starting a match, and starts none."""

    async def test(runner: LeagueRunner, lobby: FakeLobby, store: Store) -> None:
        await store.write(lambda conn: _program(conn, "ana", "bot-a"))
        cluster = FakeCluster()
        runner.cluster = cluster
        cluster.owner_is_me = False
        await runner.tick()
        assert await _matches(store) == [] and lobby.dealt == []
        cluster.owner_is_me = True
        runner.clock = lambda: NOW + 60
        await runner.tick()
        assert len(await _matches(store)) == 1  # and one of each other game
        assert len(lobby.dealt) == len(league_runner.league_games())

    _run(tmp_path, test)
