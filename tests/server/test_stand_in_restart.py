"""Who chose each action survives a restart (``actions.by_stand_in``): a tournament
entrant who never came to their table, whose stand-in played it before and after the
server restarted, has missed that match (``store.tournaments.record_result``)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from tests.server.conftest import Browser, ServerThread
from tests.server.test_tournaments import _create, _owner, _until_finished


def _query(database: Path, sql: str, table_id: str) -> list[Any]:
    engine = sa.create_engine(f"sqlite:///{database}")
    try:
        with engine.connect() as conn:
            return list(conn.execute(sa.text(sql), {"t": table_id}))
    finally:
        engine.dispose()


def _moves(database: Path, table_id: str) -> list[tuple[int | None, bool]]:
    """The table's log as stored: (seat, chosen by a stand-in) by seq."""
    sql = "SELECT seat, by_stand_in FROM actions WHERE table_id = :t ORDER BY seq"
    return [(row.seat, bool(row.by_stand_in)) for row in _query(database, sql, table_id)]


def test_a_miss_is_counted_when_the_stand_in_finishes_after_a_restart(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser], tmp_path: Path
) -> None:
    """Bea never comes to her table; Cleo plays a few moves herself, then the server
    stops; after the restart stand-ins finish the match for both. Bea missed it, Cleo
    did not (she played in person before the restart)."""
    first = start_server()
    owner = _owner(first, browsers, "organiser")
    bea, cleo = _owner(first, browsers, "bea"), _owner(first, browsers, "cleo")
    # Each seat's person has 5 s before a stand-in plays it (restarted: 5 s again).
    tournament_id = _create(owner, rounds=1, max_entrants=2, settings={"grace_seconds": 5})
    path = f"/api/tournaments/{tournament_id}"
    absent = bea.http.post(f"{path}/entries", json={}).json()["entrant"]
    present = cleo.http.post(f"{path}/entries", json={}).json()["entrant"]
    view = owner.http.get(path).json()
    assert view["status"] == "running"
    (table,) = view["rounds"][0]["tables"]
    table_id, seats = table["table_id"], table["entrants"]
    database = tmp_path / "tables.sqlite3"
    socket = cleo.socket(table_id)
    rng = random.Random(5)
    deadline = time.monotonic() + 60
    while True:  # Cleo plays until Bea's stand-in has played too
        moves = _moves(database, table_id)
        if {(seats.index(absent), True), (seats.index(present), False)} <= set(moves):
            break
        assert time.monotonic() < deadline, f"no stand-in for Bea: {moves}"
        state = socket.playable(timeout=30)
        socket.act(rng.choice(state["legal"]))
        socket.state_until(lambda m, seq=state["seq"]: m["seq"] > seq)
    socket.close()
    first.stop()
    before = _moves(database, table_id)
    status = _query(database, "SELECT status FROM tables WHERE id = :t", table_id)
    assert status[0].status == "running"  # the match goes on after the restart
    assert all(chosen == (seat == seats.index(absent)) for seat, chosen in before)

    second = start_server()
    again = browsers(second.url)
    again.sign_in("organiser")
    view = _until_finished(again, tournament_id, timeout=120)
    after = _moves(database, table_id)
    assert len(after) > len(before) and after[: len(before)] == before
    assert (seats.index(present), True) in after[len(before) :]  # Cleo's stand-in played on
    missed = {entry["entrant"]: entry["missed"] for entry in view["entrants"]}
    assert missed == {absent: 1, present: 0}
