"""An entry racing a tournament's start: each holds the tournament's row in its own
transaction (``store.tournaments.hold``), so the later one sees what the first wrote and no
one is entered without being seated (issue #31: every entrant plays)."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from coffeetable.server.errors import TableError
from coffeetable.server.limits import Limits
from coffeetable.server.tournaments import runner as runner_module
from coffeetable.server.tournaments.runner import Runner
from coffeetable.server.tournaments.service import Tournaments
from coffeetable.store import Store, players
from coffeetable.store import tournaments as db
from coffeetable.tournaments.round_robin import schedule as real_schedule

ROUND_ROBIN = {"game": "fika", "format": "round_robin", "players": 2, "max_entrants": 8}


async def _site(path: Path) -> tuple[Store, Tournaments, list[int], str]:
    store = Store(f"sqlite:///{path / 'race.db'}")
    accounts = []
    for name in ("ana", "bea", "cy"):

        def create(conn: Any, name: str = name) -> int:
            return players.create_account(conn, name, name, name, "x")

        accounts.append(await store.write(create))
    service = Tournaments(store, Limits())
    tournament_id = await service.create(accounts[0], "ana", ROUND_ROBIN)
    for user_id, name in zip(accounts[:2], ("ana", "bea"), strict=True):
        await service.enter(tournament_id, user_id, name)
    return store, service, accounts, tournament_id


def test_an_entry_that_read_the_tournament_before_it_started_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        store, service, accounts, tournament_id = await _site(tmp_path)
        stale = await service._row(tournament_id)  # read while upcoming...
        await store.write(lambda conn: db.set_status(conn, tournament_id, db.RUNNING))
        monkeypatch.setattr(service, "_row", lambda _id: _value(stale))  # ...used after
        with pytest.raises(TableError) as refused:
            await service.enter(tournament_id, accounts[2], "cy")
        assert refused.value.status == 409
        entries = await store.read(lambda conn: db.entries_of(conn, tournament_id))
        assert [entry.name for entry in entries] == ["ana", "bea"]

    asyncio.run(scenario())


def test_a_start_that_read_the_field_before_an_entry_waits_for_the_next_tick(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        store, service, accounts, tournament_id = await _site(tmp_path)
        loop = asyncio.get_running_loop()
        scheduled: list[list[str]] = []

        def schedule_while_cy_enters(active: list[str], *args: Any) -> Any:
            if not scheduled:  # the first start's search: cy enters meanwhile
                entry = service.enter(tournament_id, accounts[2], "cy")
                asyncio.run_coroutine_threadsafe(entry, loop).result()
            scheduled.append(list(active))
            return real_schedule(active, *args)

        monkeypatch.setattr(runner_module, "schedule", schedule_while_cy_enters)
        lobby = SimpleNamespace(store=store, limits=Limits())
        runner = Runner(lobby)  # type: ignore[arg-type]
        ran: list[str] = []

        async def run(row: db.TournamentRow) -> None:  # dealing tables needs no lobby here
            ran.append(row.id)

        monkeypatch.setattr(runner, "_run", run)
        row = dataclasses.replace(await service._row(tournament_id), starts_at=0.0)
        await runner._maybe_start(row)
        assert ran == [] and (await service._row(tournament_id)).status == db.UPCOMING
        await runner._maybe_start(row)  # the next tick: the whole field
        assert ran == [tournament_id]
        assert scheduled == [["u1", "u2"], ["u1", "u2", "u3"]]
        rounds = await store.read(lambda conn: db.pairings_of(conn, tournament_id))
        assert {e for pairing in rounds for e in pairing.entrants} == {"u1", "u2", "u3"}

    asyncio.run(scenario())


async def _value(row: db.TournamentRow) -> db.TournamentRow:
    return row
