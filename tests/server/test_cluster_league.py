"""The programs' league on two processes (PostgreSQL and Redis; skipped without them):
one process at a time plays a game's league (its lease ``league:<game>``), its matches
are played to the end and counted once, and when that process is killed (kill -9) the
other takes the league over, finishes the matches it left (adopting their tables) and
plays on at the same pace (``server/league/runner.py``)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import sqlalchemy as sa

from .cluster_site import Process, Site, sites
from .conftest import BROWSER_PASSWORD

#: One league match of each game every 4 s; no grace: the program never comes, so a
#: stand-in plays its seat (and it forfeits every match).
PACE = 900
ENV = {
    "COFFEETABLE_LEAGUE_MATCHES_PER_HOUR": str(PACE),
    "COFFEETABLE_LEAGUE_GRACE_SECONDS": "0",
    "COFFEETABLE_TOURNAMENT_TICK_SECONDS": "0.2",
    # Search bots load both processes: leases long enough not to run out by mere load.
    "COFFEETABLE_LEASE_SECONDS": "5",
}


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    yield from sites(tmp_path)


def _rows(engine: sa.Engine) -> list[Any]:
    """The Fika league's matches, oldest first, with how many records their table has."""
    query = sa.text(
        "SELECT l.id, l.entrants, l.table_id, l.ranks, l.forfeits, l.created,"
        " (SELECT count(*) FROM matches m WHERE m.table_id = l.table_id) AS records"
        " FROM league_matches l WHERE l.game = 'fika' ORDER BY l.id"
    )
    with engine.connect() as conn:
        return list(conn.execute(query))


def _program_in_league(process: Process) -> str:
    http = process.http
    body = {"username": "ana", "password": BROWSER_PASSWORD}
    assert http.post("/api/auth/register", json=body).status_code == 200
    assert http.post("/api/bots", json={"name": "bot-a"}).status_code == 200
    changed = http.patch("/api/bots/bot-a", json={"league": True})
    assert changed.status_code == 200, changed.text
    entrant = next(p["entrant"] for p in http.get("/api/leagues/fika").json()["players"])
    assert entrant.startswith("u")
    return str(entrant)


def _spaced(rows: list[Any]) -> None:
    """One runner at a time: matches start at the pace, never two at once."""
    starts = [row.created for row in rows]
    gaps = [later - earlier for earlier, later in zip(starts, starts[1:], strict=False)]
    assert all(gap >= 3600 / PACE - 0.01 for gap in gaps), gaps


def test_the_league_runs_on_one_process_and_the_other_takes_it_over(site: Site) -> None:
    first, second = site.start(2, env=ENV)
    program = _program_in_league(first)
    engine = sa.create_engine(site.database_url)
    lease = f"{site.prefix}:lease:league:fika"
    try:
        with redis.Redis.from_url(site.redis_url) as client:
            deadline = time.monotonic() + 90
            while True:  # one match over, one being played, by the league's process
                rows = _rows(engine)
                over = [row for row in rows if row.ranks is not None]
                playing = [row for row in rows if row.ranks is None and row.table_id]
                if len(over) >= 1 and playing:
                    break
                assert time.monotonic() < deadline, rows
                time.sleep(0.2)
            holder = client.get(lease)
            assert holder is not None
            runner = first if holder.decode() == first.name else second
            other = second if runner is first else first
            _spaced(rows)
            left = {row.id for row in rows if row.ranks is None}
            runner.kill()
            killed = time.time()
            deadline = time.monotonic() + 180
            while True:  # the other finishes what was left, and plays on
                rows = _rows(engine)
                done = all(row.ranks is not None for row in rows if row.id in left)
                later = [row for row in rows if row.created > killed and row.ranks is not None]
                if done and later:
                    break
                assert time.monotonic() < deadline, (left, rows, other.log()[-3000:])
                time.sleep(0.3)
            deadline = time.monotonic() + 30
            while client.get(lease) != other.name.encode():  # renewed every moment
                assert time.monotonic() < deadline, client.get(lease)
                time.sleep(0.1)
    finally:
        engine.dispose()
    _spaced(rows)
    finished = [row for row in rows if row.ranks is not None]
    seats = [json.loads(row.entrants).index(program) for row in finished]
    # Counted once each: one record per table, the program's forfeit every time (a
    # stand-in played its seat, also at the tables the other process adopted).
    assert all(row.records == 1 for row in finished)
    assert len({row.table_id for row in finished}) == len(finished)
    assert [json.loads(row.forfeits) for row in finished] == [[seat] for seat in seats]
    league = other.http.get("/api/leagues/fika").json()
    line = next(line for line in league["standings"] if line["entrant"] == program)
    assert line["played"] >= len(finished) and line["forfeits"] == line["played"]
    assert line["points"] == 0
    assert sum(pair["played"] for pair in league["pairs"]) == line["played"]
